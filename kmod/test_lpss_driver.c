// SPDX-License-Identifier: GPL-2.0
/*
 * A driver for an LPSS device that does nothing but runtime PM, bound to
 * it through driver_override.  The acpi_lpss PM domain then powers the
 * device up before probe (->activate()), down and up at runtime suspend
 * and resume (which user space drives through power/control), and down
 * when the driver unbinds (->dismiss()).  Not part of the series;
 * guest/suites/20-lpss-ltr and guest/proof/run.sh use it to check that
 * the LTR registers are written only while the device is powered.
 */

#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>

static int tld_probe(struct platform_device *pdev)
{
	int ret;

	ret = pm_runtime_set_active(&pdev->dev);
	if (ret)
		return ret;

	return devm_pm_runtime_enable(&pdev->dev);
}

static struct platform_driver tld_driver = {
	.probe = tld_probe,
	.driver = {
		.name = "test_lpss_driver",
	},
};
module_platform_driver(tld_driver);

MODULE_DESCRIPTION("A runtime PM only driver for an LPSS device");
MODULE_LICENSE("GPL");
