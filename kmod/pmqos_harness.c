// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's test module for the latency tolerance device PM QoS type.
 *
 * Built out of tree against a kernel of the series with CONFIG_MODULES,
 * CONFIG_PM and CONFIG_DEBUG_FS (it uses the series' latency tolerance API:
 * dev_pm_qos_set/clear_latency_tolerance_callback(),
 * dev_pm_qos_expose/hide_latency_tolerance(), ancestor requests):
 * kmod/Kbuild, kernel/build-kmod.sh.  The guest suites load it with
 * load_kmod (guest/lib.sh: use_test_module and add_target do).  It is a
 * copy of the series' lib/test_power_qos.c, the in-tree module the kernel's
 * own selftest (tools/testing/selftests/power_qos/) uses, under names of
 * its own (module pmqos_harness, bus pmqos_harness, driver "pmh",
 * functions pmh_*), so that both can be loaded at once.
 *
 * Latency tolerance constraints only take effect on devices that provide a
 * set_latency_tolerance() callback, and few of those are available on the
 * machines tests usually run on.  This module creates such devices on
 * demand, records every call of their callback and lets user space add,
 * update and remove kernel requests for them, so that the aggregation done
 * by the PM QoS core and the power/pm_qos_latency_tolerance_us sysfs
 * interface can be checked from user space (guest/debug/).
 *
 * The devices are in sysfs under /sys/devices/pmqos_harness/, with no
 * attributes but those of the driver core and the PM core.  The module is
 * driven through debugfs, in /sys/kernel/debug/pmqos_harness/: the files
 * there are for root only.  Writes return the number of bytes written on
 * success and a negative error code otherwise.  Tokens in writes are
 * separated by white space; a trailing newline is ignored.
 *
 * Files of the directory /sys/kernel/debug/pmqos_harness/:
 *
 * add_target (write-only)
 *	"NAME [parent=PARENT] [nocb|drv]": register a target device NAME as a
 *	child of /sys/devices/pmqos_harness/, or of the target device PARENT,
 *	and make its directory NAME here.  NAME consists of up to 31 letters,
 *	digits, '_' and '-', and has to be unique among all target devices.
 *	The set_latency_tolerance() callback is set before the device is
 *	added, so the PM core creates power/pm_qos_latency_tolerance_us for
 *	it, unless "nocb" is given, which makes a device without the
 *	callback, or "drv", which puts the device on the pmqos_harness bus,
 *	where the "pmh" driver binds to it: its probe installs a callback of
 *	its own, which uses driver data, with
 *	dev_pm_qos_set_latency_tolerance_callback() and exposes the attribute,
 *	and its remove hides the attribute, clears the callback with
 *	dev_pm_qos_clear_latency_tolerance_callback() and frees the driver
 *	data.  Unbind and bind it through /sys/bus/pmqos_harness/drivers/pmh/.
 *	Errors: -EEXIST if the name is in use (also by a file here or in the
 *	parent's sysfs directory), -ENOENT if PARENT does not exist, -EBUSY if
 *	PARENT is being added or removed, -EINVAL for malformed commands, or
 *	an error of device_add() or debugfs.
 *
 * remove_target (write-only)
 *	"NAME [keep]": remove the directory NAME here and unregister the
 *	target device NAME.  By default the kernel requests made through its
 *	"requests" file are removed first.  With "keep", requests for NAME
 *	itself are left in place, so the PM QoS core has to drop them when the
 *	device is deleted; the module frees them only after that.  Ancestor
 *	requests are always removed first, as they are on another device's
 *	list.  Waits for the calls of NAME's files that are running.
 *	Errors: -ENOENT if there is no such target, -EBUSY if the target has
 *	child targets or is being added or removed.
 *
 * leaked_requests (read-only)
 *	Number of requests that were still marked active after their device
 *	had been deleted with "remove_target NAME keep".  They may still be
 *	referenced by the PM QoS core, so they are leaked rather than freed.
 *	Expected to be 0.
 *
 * Files of each target's directory /sys/kernel/debug/pmqos_harness/NAME/
 * (one directory per target, whatever its parent):
 *
 * cb_count (read-only)
 *	Number of calls of the set_latency_tolerance() callback.
 *
 * cb_last (read-only)
 *	Value passed to the last call of the callback, in decimal, or "none"
 *	if it has never been called.
 *
 * cb_busy (read-only)
 *	1 while a call of the callback is running, 0 otherwise.
 *
 * cb_delay_ms (read-write)
 *	Milliseconds each call of the callback sleeps before recording its
 *	value (0 initially, at most 10000), to stand for a slow device.
 *
 * requests (read-write)
 *	Write one of the following commands to call the PM QoS API for a
 *	DEV_PM_QOS_LATENCY_TOLERANCE request identified by ID (an unsigned
 *	decimal number chosen by the writer, unique per target; at most 64
 *	requests per target).  VALUE is a decimal s32 passed to the API
 *	unchecked, negative values included:
 *
 *	"add ID VALUE"		dev_pm_qos_add_request() for this device
 *	"ancestor ID VALUE"	dev_pm_qos_add_ancestor_request() for this
 *				device
 *	"resume ID VALUE"	dev_pm_qos_add_request() for this device, of
 *				type DEV_PM_QOS_RESUME_LATENCY
 *	"update ID VALUE"	dev_pm_qos_update_request()
 *	"remove ID"		dev_pm_qos_remove_request(), then free the
 *				request whatever it returned, as drivers do
 *
 *	A negative return value of the API call is returned by the write.
 *	-EEXIST (add, ancestor with an ID in use), -ENOENT (update, remove
 *	with an unknown ID), -ENOSPC (too many requests), -ENODEV (target being
 *	removed) and -EINVAL (malformed command) come from the module itself;
 *	"last_ret" tells them apart from errors of the API.
 *	A read lists the requests held by the module, one "ID VALUE DEVICE"
 *	line each in the order they were added, where VALUE is the value of the
 *	last successful add or update and DEVICE is the name of the device the
 *	request was added for (the ancestor for ancestor requests).
 *
 * last_ret (read-only)
 *	Return value of the last PM QoS API call made through "requests",
 *	e.g. 1 if the effective value changed, 0 if not, or a negative error
 *	code; 0 if none has been made.
 *
 * expose (write-only)
 *	Any write calls dev_pm_qos_expose_latency_tolerance() and returns its
 *	error, if any.
 *
 * hide (write-only)
 *	Any write calls dev_pm_qos_hide_latency_tolerance().
 *
 * delete (write-only)
 *	Any write calls device_del() for the target device and returns when it
 *	does, leaving the files of this directory and the requests in place, so
 *	that calls made through them can race with the removal of the device by
 *	the PM core.  Write "remove_target NAME" afterwards.  Errors: -EBUSY if
 *	the target has child targets or is being added, deleted or removed.
 *
 * chown (write-only)
 *	"UID GID": device_change_owner() for the target device, which changes
 *	the owner of its attributes, then returns -EINVAL: the device has no
 *	class.  -ENODEV once the device has been deleted.
 *
 * Locking: pmh_lock protects the list of targets and their parent and
 * nr_children fields.  The per-target req_lock protects the requests of a
 * target and is held across the PM QoS API calls made for them, which may
 * wait for a slow callback of that target only: so a slow callback delays
 * nothing but the calls for its own device here too; "expose", "hide" and
 * "delete" take no lock of the module across their calls, "chown" takes
 * pmh_lock.  The live field is written under pmh_lock (see struct
 * pmh_target).  The callback records are protected by the per-target
 * cb_lock, the only lock taken by the callbacks.  A target's debugfs
 * directory is never removed under pmh_lock or req_lock: that waits for the
 * calls of its files, which take req_lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kernfs.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pm_qos.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#define PMH_NAME_MAX		31
#define PMH_MAX_REQUESTS	64
#define PMH_MAX_DELAY_MS	10000

/**
 * struct pmh_target - A target device with a latency tolerance callback.
 * @dev: The device.
 * @dir: Its directory in debugfs.
 * @node: Entry in pmh_targets.
 * @parent: Parent target, or NULL for children of the control device.
 * @nr_children: Number of targets having this one as their parent.
 * @deleted: device_del() has been called through the "delete" file.
 * @live: Registered and not being removed; requests may be made.  Written
 *	under pmh_lock.  The debugfs handlers read it under @req_lock, which
 *	pmh_unregister_target() takes after clearing it to collect the
 *	requests: a handler either sees it cleared or adds its request before.
 * @req_lock: Protects @requests, @nr_requests and @last_ret.
 * @requests: Kernel requests made through the "requests" file.
 * @nr_requests: Number of entries in @requests.
 * @last_ret: Return value of the last PM QoS API call for @requests.
 * @cb_delay_ms: How long each callback call sleeps (READ_ONCE()).
 * @cb_lock: Protects @cb_count, @cb_last, @cb_called and @cb_busy.
 * @cb_count: Number of callback calls.
 * @cb_last: Value passed to the last callback call.
 * @cb_called: Whether the callback has been called at all.
 * @cb_busy: Whether a callback call is running.
 *
 * @parent, @nr_children and @deleted are protected by pmh_lock.
 */
struct pmh_target {
	struct device dev;
	struct dentry *dir;
	struct list_head node;
	struct pmh_target *parent;
	unsigned int nr_children;
	bool deleted;
	bool live;
	struct mutex req_lock;	/* Protects the requests. */
	struct list_head requests;
	unsigned int nr_requests;
	int last_ret;
	unsigned int cb_delay_ms;
	spinlock_t cb_lock;	/* Protects the cb_* fields. */
	unsigned long cb_count;
	s32 cb_last;
	bool cb_called;
	bool cb_busy;
};

/**
 * struct pmh_drvdata - Driver data of the "pmh" driver.
 * @calls: Number of callback calls while bound.
 * @last: Value passed to the last of them.
 *
 * Only the driver's callback uses it, so that KASAN reports a call made
 * after the driver's remove() has freed it.
 */
struct pmh_drvdata {
	unsigned long calls;
	s32 last;
};

/**
 * struct pmh_request - A kernel request made on behalf of user space.
 * @node: Entry in the owning target's requests list.
 * @id: Identifier chosen by user space.
 * @value: Value of the last successful add or update.
 * @req: The PM QoS request.
 */
struct pmh_request {
	struct list_head node;
	unsigned int id;
	s32 value;
	struct dev_pm_qos_request req;
};

static DEFINE_MUTEX(pmh_lock);
static LIST_HEAD(pmh_targets);
static unsigned int pmh_leaked_requests;
static struct device *pmh_root;
static struct dentry *pmh_dir;
static struct dentry *pmh_add_file;
static struct dentry *pmh_remove_file;

static inline struct pmh_target *to_pmh_target(struct device *dev)
{
	return container_of(dev, struct pmh_target, dev);
}

/* A callback call starts: mark it busy and sleep for cb_delay_ms. */
static void pmh_callback_begin(struct pmh_target *t)
{
	unsigned int delay = READ_ONCE(t->cb_delay_ms);

	spin_lock_irq(&t->cb_lock);
	t->cb_busy = true;
	spin_unlock_irq(&t->cb_lock);

	if (delay)
		msleep(delay);
}

/* A callback call ends: record its value. */
static void pmh_callback_end(struct pmh_target *t, s32 val)
{
	spin_lock_irq(&t->cb_lock);
	t->cb_count++;
	t->cb_last = val;
	t->cb_called = true;
	t->cb_busy = false;
	spin_unlock_irq(&t->cb_lock);

	dev_dbg(&t->dev, "latency tolerance set to %d\n", val);
}

static void pmh_set_latency_tolerance(struct device *dev, s32 val)
{
	struct pmh_target *t = to_pmh_target(dev);

	pmh_callback_begin(t);
	pmh_callback_end(t, val);
}

/* Split off the next white space separated token of *s, NULL if none. */
static char *pmh_next_token(char **s)
{
	char *tok = skip_spaces(*s);
	char *end = tok;

	if (!*tok)
		return NULL;

	while (*end && !isspace(*end))
		end++;
	if (*end)
		*end++ = '\0';
	*s = end;

	return tok;
}

static struct pmh_target *pmh_find_target(const char *name)
{
	struct pmh_target *t;

	lockdep_assert_held(&pmh_lock);

	list_for_each_entry(t, &pmh_targets, node)
		if (!strcmp(dev_name(&t->dev), name))
			return t;

	return NULL;
}

static bool pmh_valid_name(const char *name)
{
	size_t len = strlen(name);
	size_t i;

	if (!len || len > PMH_NAME_MAX)
		return false;

	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return false;

	return true;
}

/* Whether the sysfs directory of @dev already has an entry called @name. */
static bool pmh_sysfs_name_taken(struct device *dev, const char *name)
{
	struct kernfs_node *kn = kernfs_find_and_get(dev->kobj.sd, name);

	if (!kn)
		return false;

	kernfs_put(kn);
	return true;
}

/* Whether the module's debugfs directory has an entry called @name. */
static bool pmh_debugfs_name_taken(const char *name)
{
	struct dentry *d = debugfs_lookup(name, pmh_dir);

	if (!d)
		return false;

	dput(d);
	return true;
}

static struct pmh_request *pmh_find_request(struct pmh_target *t,
					    unsigned int id)
{
	struct pmh_request *r;

	lockdep_assert_held(&t->req_lock);

	list_for_each_entry(r, &t->requests, node)
		if (r->id == id)
			return r;

	return NULL;
}

static int pmh_cb_count_get(void *data, u64 *val)
{
	struct pmh_target *t = data;

	spin_lock_irq(&t->cb_lock);
	*val = t->cb_count;
	spin_unlock_irq(&t->cb_lock);

	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(pmh_cb_count_fops, pmh_cb_count_get, NULL, "%llu\n");

static int pmh_cb_last_show(struct seq_file *m, void *unused)
{
	struct pmh_target *t = m->private;
	bool called;
	s32 last;

	spin_lock_irq(&t->cb_lock);
	called = t->cb_called;
	last = t->cb_last;
	spin_unlock_irq(&t->cb_lock);

	if (called)
		seq_printf(m, "%d\n", last);
	else
		seq_puts(m, "none\n");

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pmh_cb_last);

static int pmh_cb_busy_get(void *data, u64 *val)
{
	struct pmh_target *t = data;

	spin_lock_irq(&t->cb_lock);
	*val = t->cb_busy;
	spin_unlock_irq(&t->cb_lock);

	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(pmh_cb_busy_fops, pmh_cb_busy_get, NULL, "%llu\n");

static int pmh_cb_delay_ms_get(void *data, u64 *val)
{
	struct pmh_target *t = data;

	*val = READ_ONCE(t->cb_delay_ms);
	return 0;
}

static int pmh_cb_delay_ms_set(void *data, u64 val)
{
	struct pmh_target *t = data;

	if (val > PMH_MAX_DELAY_MS)
		return -ERANGE;

	WRITE_ONCE(t->cb_delay_ms, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(pmh_cb_delay_ms_fops, pmh_cb_delay_ms_get,
			 pmh_cb_delay_ms_set, "%llu\n");

static int pmh_last_ret_get(void *data, u64 *val)
{
	struct pmh_target *t = data;

	mutex_lock(&t->req_lock);
	*val = t->last_ret;
	mutex_unlock(&t->req_lock);

	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(pmh_last_ret_fops, pmh_last_ret_get, NULL,
				"%lld\n");

static int pmh_requests_show(struct seq_file *m, void *unused)
{
	struct pmh_target *t = m->private;
	struct pmh_request *r;

	mutex_lock(&t->req_lock);
	list_for_each_entry(r, &t->requests, node)
		seq_printf(m, "%u %d %s\n", r->id, r->value,
			   r->req.dev ? dev_name(r->req.dev) : "-");
	mutex_unlock(&t->req_lock);

	return 0;
}

/*
 * A command written to a debugfs file, as a NUL-terminated copy.  Commands
 * are short: like a sysfs store, a write of a page or more is refused.
 */
static char *pmh_copy_cmd(const char __user *ubuf, size_t count)
{
	if (count >= PAGE_SIZE)
		return ERR_PTR(-EINVAL);

	return memdup_user_nul(ubuf, count);
}

/* The target of a debugfs file of a target's directory. */
static struct pmh_target *pmh_file_target(struct file *file)
{
	return file_inode(file)->i_private;
}

enum pmh_cmd {
	PMH_CMD_ADD,
	PMH_CMD_ANCESTOR,
	PMH_CMD_RESUME,
	PMH_CMD_UPDATE,
	PMH_CMD_REMOVE,
};

static int pmh_parse_request_cmd(char *s, enum pmh_cmd *cmd, unsigned int *id,
				 s32 *value)
{
	char *tok = pmh_next_token(&s);

	if (!tok)
		return -EINVAL;

	if (!strcmp(tok, "add"))
		*cmd = PMH_CMD_ADD;
	else if (!strcmp(tok, "ancestor"))
		*cmd = PMH_CMD_ANCESTOR;
	else if (!strcmp(tok, "resume"))
		*cmd = PMH_CMD_RESUME;
	else if (!strcmp(tok, "update"))
		*cmd = PMH_CMD_UPDATE;
	else if (!strcmp(tok, "remove"))
		*cmd = PMH_CMD_REMOVE;
	else
		return -EINVAL;

	tok = pmh_next_token(&s);
	if (!tok || kstrtouint(tok, 10, id))
		return -EINVAL;

	if (*cmd != PMH_CMD_REMOVE) {
		tok = pmh_next_token(&s);
		if (!tok || kstrtos32(tok, 10, value))
			return -EINVAL;
	}

	return pmh_next_token(&s) ? -EINVAL : 0;
}

static int pmh_request_add(struct pmh_target *t, enum pmh_cmd cmd,
			   unsigned int id, s32 value)
{
	struct pmh_request *r;
	int ret;

	if (pmh_find_request(t, id))
		return -EEXIST;

	if (t->nr_requests >= PMH_MAX_REQUESTS)
		return -ENOSPC;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;

	r->id = id;
	r->value = value;

	if (cmd == PMH_CMD_ANCESTOR)
		ret = dev_pm_qos_add_ancestor_request(&t->dev, &r->req,
						      DEV_PM_QOS_LATENCY_TOLERANCE,
						      value);
	else if (cmd == PMH_CMD_RESUME)
		ret = dev_pm_qos_add_request(&t->dev, &r->req,
					     DEV_PM_QOS_RESUME_LATENCY, value);
	else
		ret = dev_pm_qos_add_request(&t->dev, &r->req,
					     DEV_PM_QOS_LATENCY_TOLERANCE,
					     value);
	t->last_ret = ret;
	if (ret < 0) {
		kfree(r);
		return ret;
	}

	list_add_tail(&r->node, &t->requests);
	t->nr_requests++;

	return 0;
}

static int pmh_request_update(struct pmh_target *t, unsigned int id,
			      s32 value)
{
	struct pmh_request *r = pmh_find_request(t, id);
	int ret;

	if (!r)
		return -ENOENT;

	ret = dev_pm_qos_update_request(&r->req, value);
	t->last_ret = ret;
	if (ret < 0)
		return ret;

	r->value = value;

	return 0;
}

static int pmh_request_remove(struct pmh_target *t, unsigned int id)
{
	struct pmh_request *r = pmh_find_request(t, id);
	int ret;

	if (!r)
		return -ENOENT;

	/* Freed whatever the result, as drivers do. */
	ret = dev_pm_qos_remove_request(&r->req);
	t->last_ret = ret;
	list_del(&r->node);
	t->nr_requests--;
	kfree(r);

	return ret < 0 ? ret : 0;
}

static ssize_t pmh_requests_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct pmh_target *t = pmh_file_target(file);
	unsigned int id;
	enum pmh_cmd cmd;
	s32 value = 0;
	char *s;
	int ret;

	s = pmh_copy_cmd(ubuf, count);
	if (IS_ERR(s))
		return PTR_ERR(s);

	ret = pmh_parse_request_cmd(s, &cmd, &id, &value);
	kfree(s);
	if (ret)
		return ret;

	mutex_lock(&t->req_lock);

	if (!READ_ONCE(t->live)) {
		ret = -ENODEV;
		goto unlock;
	}

	switch (cmd) {
	case PMH_CMD_ADD:
	case PMH_CMD_ANCESTOR:
	case PMH_CMD_RESUME:
		ret = pmh_request_add(t, cmd, id, value);
		break;
	case PMH_CMD_UPDATE:
		ret = pmh_request_update(t, id, value);
		break;
	case PMH_CMD_REMOVE:
		ret = pmh_request_remove(t, id);
		break;
	}

unlock:
	mutex_unlock(&t->req_lock);

	return ret ? ret : count;
}

static int pmh_requests_open(struct inode *inode, struct file *file)
{
	return single_open(file, pmh_requests_show, inode->i_private);
}

static const struct file_operations pmh_requests_fops = {
	.owner = THIS_MODULE,
	.open = pmh_requests_open,
	.read = seq_read,
	.write = pmh_requests_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t pmh_expose_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct pmh_target *t = pmh_file_target(file);
	int ret = -ENODEV;

	if (READ_ONCE(t->live))
		ret = dev_pm_qos_expose_latency_tolerance(&t->dev);

	return ret ? ret : count;
}

static const struct file_operations pmh_expose_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pmh_expose_write,
	.llseek = noop_llseek,
};

static ssize_t pmh_hide_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct pmh_target *t = pmh_file_target(file);

	if (!READ_ONCE(t->live))
		return -ENODEV;

	dev_pm_qos_hide_latency_tolerance(&t->dev);
	return count;
}

static const struct file_operations pmh_hide_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pmh_hide_write,
	.llseek = noop_llseek,
};

static ssize_t pmh_delete_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct pmh_target *t = pmh_file_target(file);
	int ret = 0;

	mutex_lock(&pmh_lock);
	if (!t->live || t->deleted || t->nr_children)
		ret = -EBUSY;
	else
		t->deleted = true;
	mutex_unlock(&pmh_lock);

	/* No lock of the module held: the other files keep working. */
	if (!ret)
		device_del(&t->dev);

	return ret ? ret : count;
}

static const struct file_operations pmh_delete_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pmh_delete_write,
	.llseek = noop_llseek,
};

static ssize_t pmh_chown_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct pmh_target *t = pmh_file_target(file);
	unsigned int uid, gid;
	char *s;
	int ret;

	s = pmh_copy_cmd(ubuf, count);
	if (IS_ERR(s))
		return PTR_ERR(s);

	/* Under pmh_lock: "delete" sets t->deleted under it before device_del(). */
	mutex_lock(&pmh_lock);
	if (sscanf(s, "%u %u", &uid, &gid) != 2)
		ret = -EINVAL;
	else if (!t->live || t->deleted)
		ret = -ENODEV;
	else
		ret = device_change_owner(&t->dev,
					  make_kuid(current_user_ns(), uid),
					  make_kgid(current_user_ns(), gid));
	mutex_unlock(&pmh_lock);
	kfree(s);

	return ret ? ret : count;
}

static const struct file_operations pmh_chown_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pmh_chown_write,
	.llseek = noop_llseek,
};

/*
 * Make the debugfs directory of @t with its files.  Failures are reported,
 * unlike elsewhere in debugfs users: a target its tests cannot reach is of
 * no use, and the failslab test checks that adding a target fails cleanly.
 */
static int pmh_target_debugfs_create(struct pmh_target *t)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
		bool unsafe;	/* the fops call debugfs_file_get() */
	} files[] = {
		{ "cb_count", 0400, &pmh_cb_count_fops, true },
		{ "cb_last", 0400, &pmh_cb_last_fops },
		{ "cb_busy", 0400, &pmh_cb_busy_fops, true },
		{ "cb_delay_ms", 0600, &pmh_cb_delay_ms_fops, true },
		{ "last_ret", 0400, &pmh_last_ret_fops, true },
		{ "requests", 0600, &pmh_requests_fops },
		{ "expose", 0200, &pmh_expose_fops },
		{ "hide", 0200, &pmh_hide_fops },
		{ "delete", 0200, &pmh_delete_fops },
		{ "chown", 0200, &pmh_chown_fops },
	};
	struct dentry *d;
	size_t i;

	t->dir = debugfs_create_dir(dev_name(&t->dev), pmh_dir);
	if (IS_ERR(t->dir))
		return PTR_ERR(t->dir);

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (files[i].unsafe)
			d = debugfs_create_file_unsafe(files[i].name,
						       files[i].mode, t->dir,
						       t, files[i].fops);
		else
			d = debugfs_create_file(files[i].name, files[i].mode,
						t->dir, t, files[i].fops);
		if (IS_ERR(d)) {
			debugfs_remove_recursive(t->dir);
			return PTR_ERR(d);
		}
	}

	return 0;
}

static void pmh_target_release(struct device *dev)
{
	struct pmh_target *t = to_pmh_target(dev);

	mutex_destroy(&t->req_lock);
	kfree(t);
}

/* The callback of the "pmh" driver: like a real driver's, it uses its data. */
static void pmh_drv_set_latency_tolerance(struct device *dev, s32 val)
{
	struct pmh_drvdata *d = dev_get_drvdata(dev);
	struct pmh_target *t = to_pmh_target(dev);

	pmh_callback_begin(t);
	d->calls++;
	d->last = val;
	pmh_callback_end(t, val);
}

static int pmh_drv_probe(struct device *dev)
{
	struct pmh_drvdata *d;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;

	dev_set_drvdata(dev, d);
	dev_pm_qos_set_latency_tolerance_callback(dev,
						  pmh_drv_set_latency_tolerance);
	ret = dev_pm_qos_expose_latency_tolerance(dev);
	if (ret) {
		dev_pm_qos_clear_latency_tolerance_callback(dev);
		kfree(d);
	}

	return ret;
}

static int pmh_drv_remove(struct device *dev)
{
	struct pmh_drvdata *d = dev_get_drvdata(dev);

	dev_pm_qos_hide_latency_tolerance(dev);
	dev_pm_qos_clear_latency_tolerance_callback(dev);
	dev_dbg(dev, "unbound after %lu calls, the last with %d\n", d->calls,
		d->last);
	kfree(d);

	return 0;
}

/* Every device of the bus matches the driver: no ->match(). */
static const struct bus_type pmh_bus = {
	.name = "pmqos_harness",
};

static struct device_driver pmh_driver = {
	.name = "pmh",
	.bus = &pmh_bus,
	.probe = pmh_drv_probe,
	.remove = pmh_drv_remove,
};

enum pmh_kind {
	PMH_CB,		/* with a callback installed before registration */
	PMH_NOCB,	/* without a callback */
	PMH_DRV,	/* on pmh_bus: the "pmh" driver installs its callback */
};

static int pmh_add_target(const char *name, const char *parent_name,
			  enum pmh_kind kind)
{
	struct pmh_target *t, *parent = NULL;
	struct device *parent_dev = pmh_root;
	int ret;

	if (!pmh_valid_name(name))
		return -EINVAL;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;

	INIT_LIST_HEAD(&t->requests);
	mutex_init(&t->req_lock);
	spin_lock_init(&t->cb_lock);
	device_initialize(&t->dev);
	t->dev.release = pmh_target_release;
	/*
	 * Installed before device_add(), so that the PM core exposes the
	 * attribute.  The "pmh" driver installs its own on a bus device.
	 */
	if (kind == PMH_DRV)
		t->dev.bus = &pmh_bus;
	else if (kind == PMH_CB)
		dev_pm_qos_set_latency_tolerance_callback(&t->dev,
							  pmh_set_latency_tolerance);

	ret = dev_set_name(&t->dev, "%s", name);
	if (ret)
		goto put;

	mutex_lock(&pmh_lock);

	if (pmh_find_target(name)) {
		ret = -EEXIST;
		goto unlock;
	}

	if (parent_name) {
		parent = pmh_find_target(parent_name);
		if (!parent) {
			ret = -ENOENT;
			goto unlock;
		}
		if (!parent->live || parent->deleted) {
			ret = -EBUSY;
			goto unlock;
		}
		parent_dev = &parent->dev;
	}

	/* Avoid clashes with attribute, directory or control file names. */
	if (pmh_sysfs_name_taken(parent_dev, name) ||
	    pmh_debugfs_name_taken(name)) {
		ret = -EEXIST;
		goto unlock;
	}

	t->parent = parent;
	t->dev.parent = parent_dev;
	if (parent)
		parent->nr_children++;
	/* Reserve the name; t->live stays false until the device is added. */
	list_add_tail(&t->node, &pmh_targets);

	mutex_unlock(&pmh_lock);

	ret = device_add(&t->dev);
	if (!ret) {
		ret = pmh_target_debugfs_create(t);
		if (ret)
			device_del(&t->dev);
	}

	mutex_lock(&pmh_lock);
	if (ret) {
		list_del(&t->node);
		if (parent)
			parent->nr_children--;
	} else {
		WRITE_ONCE(t->live, true);
	}
unlock:
	mutex_unlock(&pmh_lock);
	if (!ret)
		return 0;
put:
	put_device(&t->dev);
	return ret;
}

/* Called for a target that is no longer live, without pmh_lock held. */
static void pmh_unregister_target(struct pmh_target *t, bool keep)
{
	struct pmh_request *r, *tmp;
	LIST_HEAD(requests);

	/* Waits for the calls of its files: none is running after this. */
	debugfs_remove_recursive(t->dir);

	mutex_lock(&t->req_lock);
	list_splice_init(&t->requests, &requests);
	t->nr_requests = 0;
	mutex_unlock(&t->req_lock);

	list_for_each_entry_safe(r, tmp, &requests, node) {
		if (keep && r->req.dev == &t->dev)
			continue;

		if (dev_pm_qos_request_active(&r->req))
			dev_pm_qos_remove_request(&r->req);
		list_del(&r->node);
		kfree(r);
	}

	/*
	 * The PM core drops the remaining requests for the device.  A "delete"
	 * write has returned by now (see above): t->deleted is stable.
	 */
	if (!t->deleted)
		device_del(&t->dev);

	list_for_each_entry_safe(r, tmp, &requests, node) {
		list_del(&r->node);
		if (dev_pm_qos_request_active(&r->req)) {
			pr_err("request %u of %s still active after device removal, leaking it\n",
			       r->id, dev_name(&t->dev));
			mutex_lock(&pmh_lock);
			pmh_leaked_requests++;
			mutex_unlock(&pmh_lock);
			continue;
		}
		kfree(r);
	}

	mutex_lock(&pmh_lock);
	list_del(&t->node);
	if (t->parent)
		t->parent->nr_children--;
	mutex_unlock(&pmh_lock);

	put_device(&t->dev);
}

static int pmh_remove_target(const char *name, bool keep)
{
	struct pmh_target *t;
	int ret = 0;

	mutex_lock(&pmh_lock);
	t = pmh_find_target(name);
	if (!t)
		ret = -ENOENT;
	else if (!t->live || t->nr_children)
		ret = -EBUSY;
	else
		WRITE_ONCE(t->live, false);
	mutex_unlock(&pmh_lock);

	if (!ret)
		pmh_unregister_target(t, keep);

	return ret;
}

static ssize_t pmh_add_target_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	const char *name, *parent = NULL;
	enum pmh_kind kind = PMH_CB;
	char *s, *p, *tok;
	int ret = -EINVAL;

	s = pmh_copy_cmd(ubuf, count);
	if (IS_ERR(s))
		return PTR_ERR(s);

	p = s;
	name = pmh_next_token(&p);
	if (!name)
		goto out;

	while ((tok = pmh_next_token(&p))) {
		if (!strcmp(tok, "nocb") && kind == PMH_CB)
			kind = PMH_NOCB;
		else if (!strcmp(tok, "drv") && kind == PMH_CB)
			kind = PMH_DRV;
		else if (str_has_prefix(tok, "parent=") && !parent)
			parent = tok + strlen("parent=");
		else
			goto out;
	}

	ret = pmh_add_target(name, parent, kind);
out:
	kfree(s);

	return ret ? ret : count;
}

static const struct file_operations pmh_add_target_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pmh_add_target_write,
	.llseek = noop_llseek,
};

static ssize_t pmh_remove_target_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	const char *name, *tok;
	bool keep = false;
	char *s, *p;
	int ret = -EINVAL;

	s = pmh_copy_cmd(ubuf, count);
	if (IS_ERR(s))
		return PTR_ERR(s);

	p = s;
	name = pmh_next_token(&p);
	if (!name)
		goto out;

	tok = pmh_next_token(&p);
	if (tok) {
		if (strcmp(tok, "keep") || pmh_next_token(&p))
			goto out;
		keep = true;
	}

	ret = pmh_remove_target(name, keep);
out:
	kfree(s);

	return ret ? ret : count;
}

static const struct file_operations pmh_remove_target_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pmh_remove_target_write,
	.llseek = noop_llseek,
};

static int pmh_leaked_requests_get(void *data, u64 *val)
{
	mutex_lock(&pmh_lock);
	*val = pmh_leaked_requests;
	mutex_unlock(&pmh_lock);

	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(pmh_leaked_requests_fops, pmh_leaked_requests_get,
			 NULL, "%llu\n");

static int __init pmqos_harness_init(void)
{
	struct dentry *leaked;
	int ret;

	ret = bus_register(&pmh_bus);
	if (ret)
		return ret;

	ret = driver_register(&pmh_driver);
	if (ret)
		goto err_bus;

	pmh_root = root_device_register("pmqos_harness");
	if (IS_ERR(pmh_root)) {
		ret = PTR_ERR(pmh_root);
		goto err_driver;
	}

	/* The module's whole interface: fail to load without it. */
	pmh_dir = debugfs_create_dir("pmqos_harness", NULL);
	if (IS_ERR(pmh_dir)) {
		ret = PTR_ERR(pmh_dir);
		goto err_root;
	}
	pmh_add_file = debugfs_create_file("add_target", 0200, pmh_dir, NULL,
					   &pmh_add_target_fops);
	pmh_remove_file = debugfs_create_file("remove_target", 0200, pmh_dir,
					      NULL, &pmh_remove_target_fops);
	leaked = debugfs_create_file_unsafe("leaked_requests", 0400, pmh_dir,
					    NULL, &pmh_leaked_requests_fops);
	if (IS_ERR(pmh_add_file) || IS_ERR(pmh_remove_file) || IS_ERR(leaked)) {
		ret = -ENOMEM;
		goto err_dir;
	}

	return 0;

err_dir:
	debugfs_remove_recursive(pmh_dir);
err_root:
	root_device_unregister(pmh_root);
err_driver:
	driver_unregister(&pmh_driver);
err_bus:
	bus_unregister(&pmh_bus);
	return ret;
}
module_init(pmqos_harness_init);

static void __exit pmqos_harness_exit(void)
{
	struct pmh_target *t;

	/* Wait for add_target and remove_target writers, keep new ones out. */
	debugfs_remove(pmh_add_file);
	debugfs_remove(pmh_remove_file);

	/* Children were added after their parents, so remove the last first. */
	for (;;) {
		mutex_lock(&pmh_lock);
		t = NULL;
		if (!list_empty(&pmh_targets)) {
			t = list_last_entry(&pmh_targets, struct pmh_target,
					    node);
			WRITE_ONCE(t->live, false);
		}
		mutex_unlock(&pmh_lock);
		if (!t)
			break;

		pmh_unregister_target(t, false);
	}

	debugfs_remove_recursive(pmh_dir);
	root_device_unregister(pmh_root);
	driver_unregister(&pmh_driver);
	bus_unregister(&pmh_bus);
}
module_exit(pmqos_harness_exit);

MODULE_DESCRIPTION("Test module for the latency tolerance device PM QoS type");
MODULE_LICENSE("GPL");
