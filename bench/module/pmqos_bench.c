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
 * the workload did what it says).  Then the requests are removed.
 *
 * Then, if the "isolation" parameter is set (the default): how long
 * operations on other devices take while the ->set_latency_tolerance()
 * callback of a device A sleeps "slow_ms" ms.  Platform devices of their own:
 *
 *   A: callback sleeps slow_ms ms when passed BENCH_ISO_SLEEP_US, else only
 *      counts; one latency tolerance request, at BENCH_ISO_IDLE_US between
 *      measurements
 *   B: callback only counts; one latency tolerance request
 *   C: no callback; one resume latency request
 *   D: callback only counts; one latency tolerance request; a new D for each
 *      measurement of its removal
 *
 * The operations, each timed alone with ktime_get_ns():
 *
 *   "lt_other":     B's request moved between two values (B's callback runs)
 *   "resume_other": C's request moved between two values
 *   "remove_other": D unregistered with its request still active (the core
 *                   flushes it, running D's callback)
 *
 * "reps" times, each operation once with A idle, then once while A's callback
 * sleeps: a kthread moves A's request to BENCH_ISO_SLEEP_US, the operation is
 * timed once A's callback has started, then the kthread is waited for (so
 * each operation gets a sleep of its own) and A's request is moved back.  One
 * line per measurement:
 *
 *   pmqos_bench: isolation op=OP idle=I rep=K ns=NS overlapped=O
 *                sleeping_after=S callbacks=C slow_ms=MS
 *
 * (on one line).  "overlapped": A's callback was sleeping when the operation
 * started; the measurement is valid if it equals !idle.  "sleeping_after": it
 * was still sleeping when the operation returned, which did not wait for it.
 * "callbacks": runs of the callback of the device operated on (B or D; 0 for
 * C).  Mainline runs the callbacks under dev_pm_qos_mtx, which all three
 * operations take.
 *
 * Then, if the "rate" parameter is set (the default): how many updates of
 * other devices' requests complete in a window of "rate_ms" ms while the
 * callback of a device A2 is kept busy.  A2's ->set_latency_tolerance()
 * sleeps "busy_ms" ms on every call; with "a=busy" a kthread moves A2's
 * latency tolerance request between two values in a loop for the whole
 * window (so A2's callback runs and sleeps again and again), with "a=idle"
 * there is no kthread.  Meanwhile the loading thread updates, as many times
 * as the window allows (cond_resched() between updates):
 *
 *   "lt_other":     B's latency tolerance request, alternating between two
 *                   values (every update runs B's callback)
 *   "resume_other": C's resume latency request, alternating likewise
 *
 * "reps" times: lt_other idle, lt_other busy, resume_other idle,
 * resume_other busy.  One line per window:
 *
 *   pmqos_bench: rate op=OP a=busy|idle rep=K updates=U ns=NS a_calls=AC
 *                callbacks=C rate_ms=W busy_ms=B
 *
 * (on one line).  "ns": the window's actual length, from its first update to
 * the end of its last; "a_calls": A2's callback runs that began during the
 * window (0 when idle; a busy window without one is an error); "callbacks":
 * B's callback runs during the window (0 for resume_other).  The kthread is
 * stopped and A2's request moved back to its resting value before the next
 * window.  Mainline runs A2's callback, sleep included, under dev_pm_qos_mtx,
 * which B's and C's updates take too.
 *
 * If the "smp" parameter is set (off by default; needs two online CPUs):
 * dev_pm_qos_update_request() from two CPUs at once on two different
 * devices.  E and F have callbacks that only count, and one latency
 * tolerance request each.  Two kthreads, bound to the first two online CPUs,
 * wait at a common start, then each updates its own device's request
 * "smp_iters" times (default: "iters"), alternating between two values (so
 * each update runs the callback).  Then, for comparison, one kthread alone
 * on the first CPU does the same number of updates on E.  "reps" times each;
 * one line per run:
 *
 *   pmqos_bench: smp cpus=2|1 rep=K updates=U ns=NS callbacks=C
 *
 * "updates": all threads' updates together; "ns": from the first thread's
 * start to the last one's finish; "callbacks": E's and F's callback runs.
 * With fewer than two CPUs online an error line says so and nothing is run.
 * The "kpath" parameter (default on) runs the kernel path costs above; an
 * smp-only load sets kpath=0 isolation=0 rate=0 smp=1.
 *
 * Errors are reported as "pmqos_bench: error ..." lines and fail the load.
 * Once loaded, the module does nothing until it is unloaded.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/pm_qos.h>
#include <linux/sched.h>
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

static bool isolation = true;
module_param(isolation, bool, 0444);
MODULE_PARM_DESC(isolation, "time operations on other devices while a callback sleeps");

static unsigned int slow_ms = 500;
module_param(slow_ms, uint, 0444);
MODULE_PARM_DESC(slow_ms, "how long the slow callback sleeps, in ms");

static bool kpath = true;
module_param(kpath, bool, 0444);
MODULE_PARM_DESC(kpath, "time dev_pm_qos_update_request() with 1 to N requests");

static bool rate = true;
module_param(rate, bool, 0444);
MODULE_PARM_DESC(rate, "count updates of other devices while a callback is kept busy");

static unsigned int rate_ms = 500;
module_param(rate_ms, uint, 0444);
MODULE_PARM_DESC(rate_ms, "length of each counting window, in ms");

static unsigned int busy_ms = 10;
module_param(busy_ms, uint, 0444);
MODULE_PARM_DESC(busy_ms, "how long the busy callback sleeps on every call, in ms");

static bool smp;
module_param(smp, bool, 0444);
MODULE_PARM_DESC(smp, "time updates from two CPUs on two devices at once");

static unsigned int smp_iters;
module_param(smp_iters, uint, 0444);
MODULE_PARM_DESC(smp_iters, "updates per thread in the smp workload (0: iters)");

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

#define BENCH_ISO_IDLE_US	1000
#define BENCH_ISO_SLEEP_US	50
/* B and C alternate between this and twice this, D's request holds it */
#define BENCH_ISO_US		100
/* How long A's callback may take to start */
#define BENCH_ISO_START_MS	10000

enum iso_op { ISO_LT_OTHER, ISO_RESUME_OTHER, ISO_REMOVE_OTHER, ISO_NR_OPS };

static const char * const iso_op_names[ISO_NR_OPS] = {
	[ISO_LT_OTHER]		= "lt_other",
	[ISO_RESUME_OTHER]	= "resume_other",
	[ISO_REMOVE_OTHER]	= "remove_other",
};

static struct platform_device *iso_a, *iso_b, *iso_c;
static struct dev_pm_qos_request iso_a_req, iso_b_req, iso_c_req;
static s32 iso_b_value, iso_c_value;

/* Set by A's callback: it has started (since the kthread began), is sleeping */
static bool iso_a_started, iso_a_sleeping;
/* Completed when A's callback starts sleeping, and when the kthread's update returns */
static DECLARE_COMPLETION(iso_a_event);
static int iso_a_ret;
static unsigned int iso_b_callbacks, iso_d_callbacks;

static void iso_a_set_latency_tolerance(struct device *dev, s32 val)
{
	if (val != BENCH_ISO_SLEEP_US)
		return;
	WRITE_ONCE(iso_a_started, true);
	WRITE_ONCE(iso_a_sleeping, true);
	complete(&iso_a_event);
	msleep(slow_ms);
	WRITE_ONCE(iso_a_sleeping, false);
}

static void iso_b_set_latency_tolerance(struct device *dev, s32 val)
{
	WRITE_ONCE(iso_b_callbacks, iso_b_callbacks + 1);
}

static void iso_d_set_latency_tolerance(struct device *dev, s32 val)
{
	WRITE_ONCE(iso_d_callbacks, iso_d_callbacks + 1);
}

/* The kthread: moves A's request so that A's callback runs and sleeps */
static int iso_a_thread(void *data)
{
	WRITE_ONCE(iso_a_ret, dev_pm_qos_update_request(&iso_a_req,
							BENCH_ISO_SLEEP_US));
	complete(&iso_a_event);

	/* Wait for kthread_stop(): the task must still be there for it */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* A registered platform device called @name, with @cb as its callback */
static struct platform_device *
iso_device_add(const char *name, void (*cb)(struct device *dev, s32 val))
{
	struct platform_device *pdev;
	int ret;

	pdev = platform_device_alloc(name, PLATFORM_DEVID_NONE);
	if (!pdev)
		return ERR_PTR(-ENOMEM);
	/* Before registration, as a driver or bus type would set it */
	pdev->dev.power.set_latency_tolerance = cb;
	ret = platform_device_add(pdev);
	if (ret) {
		platform_device_put(pdev);
		return ERR_PTR(ret);
	}
	return pdev;
}

/*
 * A new device D with an active latency tolerance request in *@req, which is
 * allocated apart so that it outlives D.
 */
static int iso_d_add(struct platform_device **d,
		     struct dev_pm_qos_request **req)
{
	int ret;

	*req = kzalloc(sizeof(**req), GFP_KERNEL);
	if (!*req)
		return -ENOMEM;
	*d = iso_device_add("pmqos_bench_d", iso_d_set_latency_tolerance);
	if (IS_ERR(*d)) {
		ret = PTR_ERR(*d);
		goto err;
	}
	ret = dev_pm_qos_add_request(&(*d)->dev, *req,
				     DEV_PM_QOS_LATENCY_TOLERANCE, BENCH_ISO_US);
	if (ret >= 0)
		return 0;
	platform_device_unregister(*d);
err:
	pr_err("pmqos_bench: error %d: isolation: adding device D\n", ret);
	kfree(*req);
	*d = NULL;
	*req = NULL;
	return ret;
}

/*
 * Run @op once, timed into *@ns.  For ISO_REMOVE_OTHER, @d (with @d_req) is
 * unregistered, and the caller's reference to it keeps it in memory.
 */
static int iso_op_run(enum iso_op op, struct platform_device *d,
		      u64 *ns, unsigned int *callbacks)
{
	unsigned int calls = 0;
	u64 t0, t1;
	int ret = 0;

	switch (op) {
	case ISO_LT_OTHER:
		iso_b_value = iso_b_value == BENCH_ISO_US ? 2 * BENCH_ISO_US :
							    BENCH_ISO_US;
		calls = READ_ONCE(iso_b_callbacks);
		t0 = ktime_get_ns();
		ret = dev_pm_qos_update_request(&iso_b_req, iso_b_value);
		t1 = ktime_get_ns();
		calls = READ_ONCE(iso_b_callbacks) - calls;
		break;
	case ISO_RESUME_OTHER:
		iso_c_value = iso_c_value == BENCH_ISO_US ? 2 * BENCH_ISO_US :
							    BENCH_ISO_US;
		t0 = ktime_get_ns();
		ret = dev_pm_qos_update_request(&iso_c_req, iso_c_value);
		t1 = ktime_get_ns();
		break;
	case ISO_REMOVE_OTHER:
		calls = READ_ONCE(iso_d_callbacks);
		t0 = ktime_get_ns();
		platform_device_unregister(d);
		t1 = ktime_get_ns();
		calls = READ_ONCE(iso_d_callbacks) - calls;
		break;
	default:
		return -EINVAL;
	}
	*ns = t1 - t0;
	*callbacks = calls;
	return ret < 0 ? ret : 0;
}

/* Measure @op once, with A idle if @idle, else while A's callback sleeps */
static int iso_measure(enum iso_op op, bool idle, unsigned int rep)
{
	struct dev_pm_qos_request *d_req = NULL;
	struct platform_device *d = NULL;
	struct device *d_dev = NULL;
	struct task_struct *thread = NULL;
	bool overlapped, sleeping_after;
	unsigned int callbacks;
	int ret, err;
	u64 ns;

	if (op == ISO_REMOVE_OTHER) {
		ret = iso_d_add(&d, &d_req);
		if (ret)
			return ret;
		/* Keeps D in memory after its removal, for d_req's check */
		d_dev = get_device(&d->dev);
	}

	if (!idle) {
		WRITE_ONCE(iso_a_started, false);
		WRITE_ONCE(iso_a_ret, 0);
		reinit_completion(&iso_a_event);
		thread = kthread_run(iso_a_thread, NULL, "pmqos_bench_a");
		if (IS_ERR(thread)) {
			ret = PTR_ERR(thread);
			thread = NULL;
			pr_err("pmqos_bench: error %d: isolation: starting the kthread\n",
			       ret);
			goto out;
		}
		/* Until A's callback sleeps, or the kthread's update returned */
		if (!wait_for_completion_timeout(&iso_a_event,
						 msecs_to_jiffies(BENCH_ISO_START_MS))) {
			ret = -ETIMEDOUT;
			pr_err("pmqos_bench: error %d: isolation: A's callback did not start\n",
			       ret);
			goto out;
		}
		if (!READ_ONCE(iso_a_started)) {
			ret = READ_ONCE(iso_a_ret) < 0 ? READ_ONCE(iso_a_ret) : -EIO;
			pr_err("pmqos_bench: error %d: isolation: A's callback did not run\n",
			       ret);
			goto out;
		}
	}

	overlapped = READ_ONCE(iso_a_sleeping);
	ret = iso_op_run(op, d, &ns, &callbacks);
	sleeping_after = READ_ONCE(iso_a_sleeping);
	if (op == ISO_REMOVE_OTHER)
		d = NULL;	/* unregistered */
	if (ret) {
		pr_err("pmqos_bench: error %d: isolation: %s\n", ret,
		       iso_op_names[op]);
		goto out;
	}
	pr_info("pmqos_bench: isolation op=%s idle=%d rep=%u ns=%llu overlapped=%d sleeping_after=%d callbacks=%u slow_ms=%u\n",
		iso_op_names[op], idle, rep, ns, overlapped, sleeping_after,
		callbacks, slow_ms);

out:
	if (thread) {
		/* Returns once the kthread's update, A's callback included, has */
		kthread_stop(thread);
		err = READ_ONCE(iso_a_ret);
		if (err < 0 && !ret) {
			pr_err("pmqos_bench: error %d: isolation: updating A\n",
			       err);
			ret = err;
		}
	}
	if (!idle) {
		err = dev_pm_qos_update_request(&iso_a_req, BENCH_ISO_IDLE_US);
		if (err < 0 && !ret) {
			pr_err("pmqos_bench: error %d: isolation: moving A back\n",
			       err);
			ret = err;
		}
	}
	if (op == ISO_REMOVE_OTHER) {
		/* Still there if an error came first */
		if (d)
			platform_device_unregister(d);
		/* The core flushes the requests of a device it removes */
		if (dev_pm_qos_request_active(d_req)) {
			pr_err("pmqos_bench: error: isolation: D's request still active after D's removal\n");
			dev_pm_qos_remove_request(d_req);
			if (!ret)
				ret = -EBUSY;
		}
		put_device(d_dev);
		kfree(d_req);
	}
	return ret;
}

static void iso_teardown(void)
{
	if (dev_pm_qos_request_active(&iso_a_req))
		dev_pm_qos_remove_request(&iso_a_req);
	if (dev_pm_qos_request_active(&iso_b_req))
		dev_pm_qos_remove_request(&iso_b_req);
	if (dev_pm_qos_request_active(&iso_c_req))
		dev_pm_qos_remove_request(&iso_c_req);
	if (!IS_ERR_OR_NULL(iso_a))
		platform_device_unregister(iso_a);
	if (!IS_ERR_OR_NULL(iso_b))
		platform_device_unregister(iso_b);
	if (!IS_ERR_OR_NULL(iso_c))
		platform_device_unregister(iso_c);
	iso_a = NULL;
	iso_b = NULL;
	iso_c = NULL;
}

static int iso_setup(void)
{
	int ret;

	iso_a = iso_device_add("pmqos_bench_a", iso_a_set_latency_tolerance);
	if (IS_ERR(iso_a))
		return PTR_ERR(iso_a);
	iso_b = iso_device_add("pmqos_bench_b", iso_b_set_latency_tolerance);
	if (IS_ERR(iso_b))
		return PTR_ERR(iso_b);
	iso_c = iso_device_add("pmqos_bench_c", NULL);
	if (IS_ERR(iso_c))
		return PTR_ERR(iso_c);

	ret = dev_pm_qos_add_request(&iso_a->dev, &iso_a_req,
				     DEV_PM_QOS_LATENCY_TOLERANCE,
				     BENCH_ISO_IDLE_US);
	if (ret < 0)
		return ret;
	iso_b_value = BENCH_ISO_US;
	ret = dev_pm_qos_add_request(&iso_b->dev, &iso_b_req,
				     DEV_PM_QOS_LATENCY_TOLERANCE, iso_b_value);
	if (ret < 0)
		return ret;
	iso_c_value = BENCH_ISO_US;
	ret = dev_pm_qos_add_request(&iso_c->dev, &iso_c_req,
				     DEV_PM_QOS_RESUME_LATENCY, iso_c_value);
	return ret < 0 ? ret : 0;
}

/* A2's request moves between these; it rests at the first */
#define RATE_A_REST_US		300
#define RATE_A_OTHER_US		400
/* How long the kthread may take to get A2's callback running */
#define RATE_START_MS		10000

static struct platform_device *rate_a;
static struct dev_pm_qos_request rate_a_req;
static unsigned int rate_a_calls;
static int rate_a_ret;
/* Completed by A2's callback on its first run since the kthread began */
static DECLARE_COMPLETION(rate_a_event);

static void rate_a_set_latency_tolerance(struct device *dev, s32 val)
{
	WRITE_ONCE(rate_a_calls, rate_a_calls + 1);
	complete(&rate_a_event);
	msleep(busy_ms);
}

/* The kthread: keeps A2's callback busy until kthread_stop() */
static int rate_a_thread(void *data)
{
	s32 val = RATE_A_REST_US;
	int ret;

	while (!kthread_should_stop()) {
		val = val == RATE_A_REST_US ? RATE_A_OTHER_US : RATE_A_REST_US;
		ret = dev_pm_qos_update_request(&rate_a_req, val);
		if (ret < 0) {
			WRITE_ONCE(rate_a_ret, ret);
			complete(&rate_a_event);
			break;
		}
	}

	/* Wait for kthread_stop(): the task must still be there for it */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * Count the updates of @op's request that complete in one window of rate_ms
 * ms, with A2's callback kept busy by a kthread if @busy.
 */
static int rate_measure(enum iso_op op, bool busy, unsigned int rep)
{
	struct task_struct *thread = NULL;
	struct dev_pm_qos_request *req;
	unsigned int updates = 0, a_calls, calls;
	u64 window = (u64)rate_ms * NSEC_PER_MSEC, t0, t;
	s32 *value;
	int ret = 0, err;

	if (op == ISO_LT_OTHER) {
		req = &iso_b_req;
		value = &iso_b_value;
	} else {
		req = &iso_c_req;
		value = &iso_c_value;
	}

	if (busy) {
		WRITE_ONCE(rate_a_ret, 0);
		reinit_completion(&rate_a_event);
		thread = kthread_run(rate_a_thread, NULL, "pmqos_bench_a2");
		if (IS_ERR(thread)) {
			ret = PTR_ERR(thread);
			thread = NULL;
			pr_err("pmqos_bench: error %d: rate: starting the kthread\n",
			       ret);
			return ret;
		}
		/* Until A2's callback has run once, or the kthread failed */
		if (!wait_for_completion_timeout(&rate_a_event,
						 msecs_to_jiffies(RATE_START_MS))) {
			ret = -ETIMEDOUT;
			pr_err("pmqos_bench: error %d: rate: A2's callback did not start\n",
			       ret);
			goto out;
		}
	}

	a_calls = READ_ONCE(rate_a_calls);
	calls = READ_ONCE(iso_b_callbacks);
	t0 = ktime_get_ns();
	t = t0;
	do {
		*value = *value == BENCH_ISO_US ? 2 * BENCH_ISO_US : BENCH_ISO_US;
		ret = dev_pm_qos_update_request(req, *value);
		if (ret < 0)
			break;
		ret = 0;
		updates++;
		/* Let the kthread run when its sleep ends, as a real loop would */
		cond_resched();
		t = ktime_get_ns();
	} while (t - t0 < window);
	a_calls = READ_ONCE(rate_a_calls) - a_calls;
	calls = READ_ONCE(iso_b_callbacks) - calls;
	if (ret) {
		pr_err("pmqos_bench: error %d: rate: %s\n", ret, iso_op_names[op]);
		goto out;
	}
	if (busy && !a_calls) {
		ret = -EIO;
		pr_err("pmqos_bench: error: rate: %s: A2's callback never ran during the busy window\n",
		       iso_op_names[op]);
		goto out;
	}
	pr_info("pmqos_bench: rate op=%s a=%s rep=%u updates=%u ns=%llu a_calls=%u callbacks=%u rate_ms=%u busy_ms=%u\n",
		iso_op_names[op], busy ? "busy" : "idle", rep, updates, t - t0,
		a_calls, calls, rate_ms, busy_ms);

out:
	if (thread) {
		/* Returns once the kthread is out of its loop: A2 is left alone */
		kthread_stop(thread);
		err = READ_ONCE(rate_a_ret);
		if (err < 0 && !ret) {
			pr_err("pmqos_bench: error %d: rate: updating A2\n", err);
			ret = err;
		}
		/* A2 back at rest (one more sleep of its callback if it moves) */
		err = dev_pm_qos_update_request(&rate_a_req, RATE_A_REST_US);
		if (err < 0 && !ret) {
			pr_err("pmqos_bench: error %d: rate: moving A2 back\n", err);
			ret = err;
		}
	}
	return ret;
}

static void rate_teardown(void)
{
	if (dev_pm_qos_request_active(&rate_a_req))
		dev_pm_qos_remove_request(&rate_a_req);
	if (!IS_ERR_OR_NULL(rate_a))
		platform_device_unregister(rate_a);
	rate_a = NULL;
}

static int rate_setup(void)
{
	int ret;

	if (!rate_ms) {
		pr_err("pmqos_bench: error: rate: rate_ms must not be 0\n");
		return -EINVAL;
	}
	rate_a = iso_device_add("pmqos_bench_a2", rate_a_set_latency_tolerance);
	if (IS_ERR(rate_a))
		return PTR_ERR(rate_a);
	ret = dev_pm_qos_add_request(&rate_a->dev, &rate_a_req,
				     DEV_PM_QOS_LATENCY_TOLERANCE, RATE_A_REST_US);
	return ret < 0 ? ret : 0;
}

static int bench_others(void)
{
	unsigned int rep;
	enum iso_op op;
	int ret;

	ret = iso_setup();
	if (ret) {
		pr_err("pmqos_bench: error %d: isolation: setting up A, B and C\n",
		       ret);
		goto out;
	}
	for (rep = 0; isolation && rep < reps; rep++) {
		for (op = 0; op < ISO_NR_OPS; op++) {
			ret = iso_measure(op, true, rep);
			if (ret)
				goto out;
			ret = iso_measure(op, false, rep);
			if (ret)
				goto out;
		}
	}
	if (!rate)
		goto out;
	ret = rate_setup();
	if (ret) {
		pr_err("pmqos_bench: error %d: rate: setting up A2\n", ret);
		goto out;
	}
	for (rep = 0; rep < reps; rep++) {
		for (op = ISO_LT_OTHER; op <= ISO_RESUME_OTHER; op++) {
			ret = rate_measure(op, false, rep);
			if (ret)
				goto out;
			ret = rate_measure(op, true, rep);
			if (ret)
				goto out;
		}
	}
out:
	rate_teardown();
	iso_teardown();
	return ret;
}

/* The smp workload: one per thread */
struct smp_worker {
	struct dev_pm_qos_request *req;
	unsigned int n;
	struct completion ready, done;
	u64 start, end;
	int ret;
};

static struct platform_device *smp_e, *smp_f;
static struct dev_pm_qos_request smp_e_req, smp_f_req;
static unsigned int smp_e_callbacks, smp_f_callbacks;
/* Completed (for all) when the threads may start */
static DECLARE_COMPLETION(smp_go);

static void smp_e_set_latency_tolerance(struct device *dev, s32 val)
{
	WRITE_ONCE(smp_e_callbacks, smp_e_callbacks + 1);
}

static void smp_f_set_latency_tolerance(struct device *dev, s32 val)
{
	WRITE_ONCE(smp_f_callbacks, smp_f_callbacks + 1);
}

static int smp_thread(void *data)
{
	struct smp_worker *w = data;
	unsigned int i;
	int ret = 0;

	complete(&w->ready);
	wait_for_completion(&smp_go);
	w->start = ktime_get_ns();
	for (i = 0; i < w->n; i++) {
		ret = dev_pm_qos_update_request(w->req, (i & 1) ? BENCH_HIGH_US :
								  BENCH_LOW_US);
		if (ret < 0)
			break;
		ret = 0;
	}
	w->end = ktime_get_ns();
	w->ret = ret;
	complete(&w->done);

	/* Wait for kthread_stop(): the task must still be there for it */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/*
 * One run: @nr threads (1 or 2) on the first @nr of @cpus, started together,
 * each doing @n updates on its own device's request; its line says @rep,
 * none for a warm-up run (@rep is BENCH_SMP_WARMUP).
 */
#define BENCH_SMP_WARMUP	UINT_MAX
static int smp_run(unsigned int nr, const unsigned int *cpus, unsigned int n,
		   unsigned int rep)
{
	struct dev_pm_qos_request *reqs[2] = { &smp_e_req, &smp_f_req };
	struct task_struct *threads[2] = { NULL, NULL };
	struct smp_worker w[2] = { };
	unsigned int i, calls;
	u64 start = U64_MAX, end = 0;
	int ret = 0;

	reinit_completion(&smp_go);
	for (i = 0; i < nr; i++) {
		w[i].req = reqs[i];
		w[i].n = n;
		init_completion(&w[i].ready);
		init_completion(&w[i].done);
		threads[i] = kthread_create(smp_thread, &w[i],
					    "pmqos_bench_smp/%u", cpus[i]);
		if (IS_ERR(threads[i])) {
			ret = PTR_ERR(threads[i]);
			threads[i] = NULL;
			pr_err("pmqos_bench: error %d: smp: creating a kthread\n",
			       ret);
			break;
		}
		kthread_bind(threads[i], cpus[i]);
		wake_up_process(threads[i]);
	}
	for (i = 0; i < nr; i++) {
		if (threads[i])
			wait_for_completion(&w[i].ready);
	}
	calls = READ_ONCE(smp_e_callbacks) + READ_ONCE(smp_f_callbacks);
	/* All at once; on an error, the threads there run and are discarded */
	complete_all(&smp_go);
	for (i = 0; i < nr; i++) {
		if (!threads[i])
			continue;
		wait_for_completion(&w[i].done);
		kthread_stop(threads[i]);
		start = min(start, w[i].start);
		end = max(end, w[i].end);
		if (w[i].ret < 0 && !ret) {
			ret = w[i].ret;
			pr_err("pmqos_bench: error %d: smp: updating on CPU %u\n",
			       ret, cpus[i]);
		}
	}
	calls = READ_ONCE(smp_e_callbacks) + READ_ONCE(smp_f_callbacks) - calls;
	if (!ret && rep != BENCH_SMP_WARMUP)
		pr_info("pmqos_bench: smp cpus=%u rep=%u updates=%u ns=%llu callbacks=%u\n",
			nr, rep, nr * n, end - start, calls);
	return ret;
}

static void smp_teardown(void)
{
	if (dev_pm_qos_request_active(&smp_e_req))
		dev_pm_qos_remove_request(&smp_e_req);
	if (dev_pm_qos_request_active(&smp_f_req))
		dev_pm_qos_remove_request(&smp_f_req);
	if (!IS_ERR_OR_NULL(smp_e))
		platform_device_unregister(smp_e);
	if (!IS_ERR_OR_NULL(smp_f))
		platform_device_unregister(smp_f);
	smp_e = NULL;
	smp_f = NULL;
}

static int bench_smp(void)
{
	unsigned int cpus[2], n = smp_iters ? smp_iters : iters, rep;
	int ret;

	if (num_online_cpus() < 2) {
		pr_err("pmqos_bench: error: smp: %u CPU online, 2 needed: skipped\n",
		       num_online_cpus());
		return -ENODEV;
	}
	cpus[0] = cpumask_first(cpu_online_mask);
	cpus[1] = cpumask_next(cpus[0], cpu_online_mask);

	smp_e = iso_device_add("pmqos_bench_e", smp_e_set_latency_tolerance);
	ret = PTR_ERR_OR_ZERO(smp_e);
	if (!ret) {
		smp_f = iso_device_add("pmqos_bench_f",
				       smp_f_set_latency_tolerance);
		ret = PTR_ERR_OR_ZERO(smp_f);
	}
	if (!ret)
		ret = dev_pm_qos_add_request(&smp_e->dev, &smp_e_req,
					     DEV_PM_QOS_LATENCY_TOLERANCE,
					     BENCH_HIGH_US);
	if (ret >= 0)
		ret = dev_pm_qos_add_request(&smp_f->dev, &smp_f_req,
					     DEV_PM_QOS_LATENCY_TOLERANCE,
					     BENCH_HIGH_US);
	if (ret < 0) {
		pr_err("pmqos_bench: error %d: smp: setting up E and F\n", ret);
		goto out;
	}
	ret = 0;

	/* Warm up, untimed */
	ret = smp_run(2, cpus, n / 10, BENCH_SMP_WARMUP);
	for (rep = 0; !ret && rep < reps; rep++) {
		ret = smp_run(2, cpus, n, rep);
		if (!ret)
			ret = smp_run(1, cpus, n, rep);
	}
out:
	smp_teardown();
	return ret;
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

	list = kstrdup(kpath ? counts : "", GFP_KERNEL);
	if (!list) {
		ret = -ENOMEM;
		goto err;
	}
	cur = list;
	while (kpath && (tok = strsep(&cur, ",")) != NULL) {
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
	if (!ret && (isolation || rate))
		ret = bench_others();
	if (!ret && smp)
		ret = bench_smp();
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
