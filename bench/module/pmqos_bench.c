// SPDX-License-Identifier: GPL-2.0
/*
 * pmqos_bench: cost of dev_pm_qos_update_request() on latency tolerance
 * requests, for `make bench`.
 *
 * Uses only the public device PM QoS API (dev_pm_qos_add_request(),
 * dev_pm_qos_update_request(), dev_pm_qos_remove_request(), struct
 * dev_pm_qos_request, dev->power.set_latency_tolerance), so the same source
 * builds against pristine 6.12 and against the base plus our series.
 *
 * At load time, for each N in the "counts" parameter, on one platform device
 * whose ->set_latency_tolerance() callback only counts its calls:
 *
 *   N requests are active: request 0 (the moving one) and N - 1 others at
 *   distinct values 1000 us, 1001 us, ... (added from the largest down, so
 *   that each addition goes to the head of the priority list).
 *
 *   "change":   request 0 alternates between 10 us and 20 us.  It is below
 *               all the others, so every update changes the effective value
 *               (the minimum) and runs the callback once.
 *   "nochange": request 0 is first set to 5 us, then request 1 alternates
 *               between 10 us and 20 us.  The minimum stays 5 us: no update
 *               changes the effective value, the callback never runs.
 *               Needs N >= 2 (not run for N = 1).
 *
 * In both, the updated request lands next to the head of the priority list,
 * so the list walk is short whatever N is: the figures are the cost of the
 * PM QoS code itself, not of the plist library both kernels share.
 *
 * "iters" updates are timed with ktime_get_ns() around the whole loop, after
 * iters / 10 untimed ones, "reps" times in a row.  One line per timed loop
 * goes to the kernel log:
 *
 *   pmqos_bench: kpath WORKLOAD n=N iters=I rep=K ns=TOTAL callbacks=C
 *
 * ("callbacks" counts the callback runs during the timed loop, a check that
 * the workload did what it says).  Then the requests are removed and the
 * module stays loaded doing nothing until it is unloaded.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/pm_qos.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *counts = "1,10,100,1000,10000";
module_param(counts, charp, 0444);
MODULE_PARM_DESC(counts, "comma-separated numbers of active requests");

static unsigned int iters = 10000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "timed updates per measurement");

static unsigned int reps = 5;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "measurements per workload and number of requests");

#define BENCH_OTHERS_BASE_US	1000
#define BENCH_PIN_US		5
#define BENCH_LOW_US		10
#define BENCH_HIGH_US		20

static unsigned int bench_callbacks;
static s32 bench_last_value;

/* Called by the PM QoS core with the effective latency tolerance */
static void bench_set_latency_tolerance(struct device *dev, s32 val)
{
	WRITE_ONCE(bench_callbacks, bench_callbacks + 1);
	WRITE_ONCE(bench_last_value, val);
}

static struct platform_device *bench_pdev;

/* Update @req alternately to BENCH_LOW_US and BENCH_HIGH_US @n times */
static int bench_loop(struct dev_pm_qos_request *req, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = dev_pm_qos_update_request(req, (i & 1) ? BENCH_HIGH_US :
							       BENCH_LOW_US);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int bench_measure(const char *workload, struct dev_pm_qos_request *req,
			 unsigned int n)
{
	unsigned int calls, rep;
	u64 t0, t1;
	int ret;

	/* Warm up, and leave req at BENCH_HIGH_US: the first timed update changes it */
	ret = bench_loop(req, iters / 10 * 2);
	if (ret)
		return ret;

	for (rep = 0; rep < reps; rep++) {
		calls = READ_ONCE(bench_callbacks);
		t0 = ktime_get_ns();
		ret = bench_loop(req, iters);
		t1 = ktime_get_ns();
		if (ret)
			return ret;
		calls = READ_ONCE(bench_callbacks) - calls;

		pr_info("pmqos_bench: kpath %s n=%u iters=%u rep=%u ns=%llu callbacks=%u\n",
			workload, n, iters, rep, t1 - t0, calls);
		/* Back at BENCH_HIGH_US (already there if iters is even) */
		ret = dev_pm_qos_update_request(req, BENCH_HIGH_US);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int bench_one(struct device *dev, unsigned int n)
{
	struct dev_pm_qos_request *reqs;
	unsigned int i, added = 0;
	int ret = 0;

	reqs = kvcalloc(n, sizeof(*reqs), GFP_KERNEL);
	if (!reqs)
		return -ENOMEM;

	/* The others, largest value first, then the moving one */
	for (i = n - 1; i >= 1; i--) {
		ret = dev_pm_qos_add_request(dev, &reqs[i],
					     DEV_PM_QOS_LATENCY_TOLERANCE,
					     BENCH_OTHERS_BASE_US + i - 1);
		if (ret < 0)
			goto out;
		added++;
	}
	ret = dev_pm_qos_add_request(dev, &reqs[0], DEV_PM_QOS_LATENCY_TOLERANCE,
				     BENCH_HIGH_US);
	if (ret < 0)
		goto out;
	added++;

	ret = bench_measure("change", &reqs[0], n);
	if (ret < 0 || n < 2)
		goto out;

	ret = dev_pm_qos_update_request(&reqs[0], BENCH_PIN_US);
	if (ret < 0)
		goto out;
	ret = bench_measure("nochange", &reqs[1], n);

out:
	if (ret < 0)
		pr_err("pmqos_bench: n=%u: error %d after %u requests\n",
		       n, ret, added);
	for (i = 0; i < n; i++) {
		if (dev_pm_qos_request_active(&reqs[i]))
			dev_pm_qos_remove_request(&reqs[i]);
	}
	kvfree(reqs);
	return ret < 0 ? ret : 0;
}

static int __init pmqos_bench_init(void)
{
	char *list, *cur, *tok;
	unsigned int n;
	int ret;

	bench_pdev = platform_device_alloc("pmqos_bench", PLATFORM_DEVID_NONE);
	if (!bench_pdev)
		return -ENOMEM;
	/* Before registration, as a driver or bus type would set it */
	bench_pdev->dev.power.set_latency_tolerance = bench_set_latency_tolerance;
	ret = platform_device_add(bench_pdev);
	if (ret) {
		platform_device_put(bench_pdev);
		return ret;
	}

	list = kstrdup(counts, GFP_KERNEL);
	if (!list) {
		ret = -ENOMEM;
		goto err;
	}
	cur = list;
	while ((tok = strsep(&cur, ",")) != NULL) {
		ret = kstrtouint(tok, 10, &n);
		if (ret || n < 1) {
			pr_err("pmqos_bench: bad count '%s'\n", tok);
			ret = -EINVAL;
			break;
		}
		ret = bench_one(&bench_pdev->dev, n);
		if (ret)
			break;
	}
	kfree(list);
	pr_info("pmqos_bench: done (%d)\n", ret);
	if (!ret)
		return 0;
err:
	platform_device_unregister(bench_pdev);
	return ret;
}

static void __exit pmqos_bench_exit(void)
{
	platform_device_unregister(bench_pdev);
}

module_init(pmqos_bench_init);
module_exit(pmqos_bench_exit);

MODULE_DESCRIPTION("Cost of latency tolerance device PM QoS updates");
MODULE_LICENSE("GPL");
