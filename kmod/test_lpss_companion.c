// SPDX-License-Identifier: GPL-2.0
/*
 * Another device with the ACPI companion of an LPSS device, added and
 * deleted, as the i2c adapter, the spi controller, the serial port and
 * the serdev controller of an LPSS host controller are: the acpi_lpss
 * scan handler's ->bind() and ->unbind() run for each of them.  Not part
 * of the series; guest/suites/20-lpss-ltr loads it and checks that the
 * LPSS device's LTR still follows its latency tolerance afterwards.
 *
 * child_callback (read-only parameter): whether that other device had a
 * ->set_latency_tolerance() callback while it was there.
 */

#include <linux/acpi.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

static char *lpss = "INT33C0:00";
module_param(lpss, charp, 0444);
MODULE_PARM_DESC(lpss, "name of the LPSS platform device");

static bool child_callback;
module_param(child_callback, bool, 0444);
MODULE_PARM_DESC(child_callback, "the other device had a latency tolerance callback");

static void tlc_release(struct device *dev)
{
	kfree(dev);
}

static int __init tlc_init(void)
{
	struct device *parent, *child;
	int ret;

	parent = bus_find_device_by_name(&platform_bus_type, NULL, lpss);
	if (!parent)
		return -ENODEV;
	ret = -ENODEV;
	if (!ACPI_COMPANION(parent))
		goto out_parent;

	ret = -ENOMEM;
	child = kzalloc(sizeof(*child), GFP_KERNEL);
	if (!child)
		goto out_parent;
	device_initialize(child);
	child->parent = parent;
	child->release = tlc_release;
	ACPI_COMPANION_SET(child, ACPI_COMPANION(parent));
	ret = dev_set_name(child, "%s-companion", lpss);
	if (!ret)
		ret = device_add(child);
	if (!ret) {
		child_callback = !!READ_ONCE(child->power.set_latency_tolerance);
		device_del(child);
	}
	put_device(child);
out_parent:
	put_device(parent);
	return ret;
}
module_init(tlc_init);

static void __exit tlc_exit(void)
{
}
module_exit(tlc_exit);

MODULE_DESCRIPTION("Add and delete a device sharing an LPSS device's ACPI companion");
MODULE_LICENSE("GPL");
