// SPDX-License-Identifier: GPL-2.0
/*
 * Test host bridge for the PCIe LTR backend of latency tolerance PM QoS.
 *
 * Built out of tree against a kernel of the series with CONFIG_MODULES,
 * CONFIG_PCIE_LTR_QOS, CONFIG_DEBUG_FS and x86 (struct pci_sysdata carries
 * the PCI domain): kmod/Kbuild, kernel/build-kmod.sh.  The guest suites load
 * it with load_kmod (guest/lib.sh).
 *
 * QEMU emulates no LTR capability, so this module brings a PCI Express
 * hierarchy of its own: a host bridge on a new PCI domain whose configuration
 * space lives in memory, enumerated by the real PCI core, so that the LTR
 * code (pci_configure_ltr() and drivers/pci/pcie/ltr.c) takes its functions
 * through its real paths.  "LTR" below means: DEVCAP2.LTR and the LTR
 * Extended Capability at 0x100, Max Snoop/No-Snoop Latency as "firmware"
 * left them.
 *
 *	DOMAIN:00:00.0	rp0, Root Port
 *	DOMAIN:01:00.0	  ep0, Endpoint, LTR, firmware left the snoop= and
 *			  nosnoop= parameters (by default 0x1003, 3 * 1048576
 *			  ns, and 0x0cc8, 200 * 32768 ns: different, so that
 *			  each register's own ceiling shows); L1 PM Substates
 *			  with ASPM L1.2 enabled and LTR_L1.2_THRESHOLD 100 *
 *			  1024 ns (firmware's; rp0 has no L1 PM Substates, so
 *			  ASPM leaves them alone); SR-IOV, 2 VFs
 *	DOMAIN:01:00.1	  vf1, its VF 1 (First VF Offset 1, VF Stride 1), while
 *			  VF Enable is set: no LTR capability
 *	DOMAIN:01:00.2	  vf2, its VF 2
 *	DOMAIN:00:01.0	rp1, Root Port
 *	DOMAIN:02:00.0	  ep1, Endpoint, LTR, firmware left 0/0
 *	DOMAIN:00:02.0	rp2, Root Port, ACPI companion \_SB.TPLT.RP02
 *	DOMAIN:03:00.0	  mf0, Multi-Function Device, Function 0, LTR,
 *			  firmware left 0/0
 *	DOMAIN:03:00.1	  mf1, Function 1: DEVCAP2.LTR, no LTR capability
 *	DOMAIN:00:03.0	rp3, Root Port, ACPI companion \_SB.TPLT.RP03
 *	DOMAIN:04:00.0	  us, Switch Upstream Port, LTR, firmware left 0/0
 *	DOMAIN:05:00.0	    ds0, Switch Downstream Port
 *	DOMAIN:06:00.0	      sw0, Endpoint, LTR, firmware left 0/0
 *	DOMAIN:05:01.0	    ds1, Switch Downstream Port
 *	DOMAIN:07:00.0	      hp0, Endpoint, LTR, absent until plugged
 *	DOMAIN:00:04.0	rp4, Root Port, ARI Forwarding Supported
 *	DOMAIN:08:00.0	  ar0, ARI Device, Function 0, LTR, firmware left
 *			  0x1003/0x0cc8 with the RsvdP bits 15:13 of both
 *			  registers hard-wired to 1; ARI capability: next
 *			  Function 8
 *	DOMAIN:08:01.0	  ar8, its Function 8 (devfn 0x08): DEVCAP2.LTR, no LTR
 *			  capability, ARI capability: no next Function
 *
 * The ACPI companions, when the SSDT of the test harness declares them,
 * carry a _DSM with function 6 (PCI Firmware r3.3, sec 4.6.6), evaluated by
 * the PCI core.  DOMAIN is the first free one above 0xffff (as for VMD).  No
 * BARs; LTR Enable is clear until the PCI core sets it.  The host bridge
 * has native control of LTR and AER, not of PME.  rp0 and ep0 have an AER
 * capability, and rp0 an INTx that only aer_inject raises (CONFIG_PCIEAER
 * and CONFIG_PCIEAER_INJECT: /dev/aer_inject), for AER recovery; the ACPI
 * code finds no routing for it and says so ("can't derive routing", "no
 * GSI").  The other functions have no interrupt.  Every function has a PCI
 * Power Management Capability (PCI PM r1.2, sec 3.2) with No_Soft_Reset
 * set: D3hot keeps its state, and a bridge that is not in D0 does not
 * forward configuration requests (PCIe r6.0, sec 5.3.1.4.1), so the
 * functions below it cannot be reached.  With pcie_port_pm=force, portdrv
 * lets the ports runtime-suspend to D3hot through the PCI core once the
 * functions below are suspended.
 * Writes only change the writable bits of the registers that matter here:
 * Command, the bus numbers, Bridge Control, Device, Link and Root Control,
 * PowerState in PMCSR, LTR Enable in Device Control 2 (ARI Forwarding
 * Enable too, in rp4), Interrupt Line, the SR-IOV controls of ep0, and bits
 * 12:0 of Max Snoop/No-Snoop Latency (15:13 are RsvdP: 0, 1 in ar0).
 * Secondary Bus Reset in a bridge's Bridge Control resets the functions
 * right below it.
 *
 * The Endpoints are bound to the "test_pcie_ltr_qos" driver (through
 * driver_override, so no other driver takes them); unbind and bind them
 * through /sys/bus/pci/drivers/test_pcie_ltr_qos/.  Its runtime PM callbacks
 * do nothing: with power/control "auto", the PCI core puts its functions in
 * D3hot.  After a fatal error its AER callbacks ask for a reset, then
 * restore the state saved last.
 *
 * debugfs, in /sys/kernel/debug/test_pcie_ltr_qos/ (root only):
 *
 * driver_mode (rw)
 *	What the next probe of the driver does: "plain" (nothing: the PCI
 *	core's latency tolerance callback stays) or "own" (installs a callback
 *	of its own and exposes the attribute; its remove hides the attribute
 *	and clears the callback).
 * own_cb (ro)
 *	The value passed to the last call of that own callback, "none" if it
 *	has not been called.
 * check_at_power_off (rw)
 *	1: at power-off, after the PCI devices are shut down, print a KTAP
 *	document, "pcie_ltr_power_off", whose one case passes if ep0's Max
 *	Latencies hold what firmware left (the snoop= and nosnoop=
 *	parameters): what a kernel started by kexec takes for firmware's.
 * native_ltr (rw)
 *	1 (the default) if the host bridge has native control of LTR, 0 as if
 *	_OSC had left it to firmware.  It applies to functions enumerated from
 *	then on: remove one through sysfs and rescan.
 *
 * One directory per function, named as above, with:
 *
 * name (ro)
 *	Its PCI device name, e.g. 10000:01:00.0, or "none" while absent.
 * snoop, nosnoop (rw; functions with the LTR capability)
 *	Its Max Snoop / No-Snoop Latency register as the function holds it,
 *	"0x%04x", read without the PCI core.  A write sets it behind the PCI
 *	core's back.
 * written (ro; functions with the LTR capability)
 *	The last dword written at Max Snoop Latency (No-Snoop in bits 31:16),
 *	all bits as written, reserved ones included, "0x%08x", or "none".
 * max_at_enable (ro; functions with the LTR capability)
 *	The dword at Max Snoop Latency (No-Snoop in bits 31:16) when LTR
 *	Enable last went from 0 to 1, "0x%08x", or "none".
 * ltr_en (rw)
 *	LTR Enable in its Device Control 2: 0 or 1.  A write sets it behind
 *	the PCI core's back, as firmware does before enumeration.
 * lost (ro)
 *	How many configuration writes reached it while it could not take
 *	them: powered off, or below a bridge that is not in D0.
 * lose (wo)
 *	Writing 1: it loses its state without the PCI core knowing, its
 *	registers back to their reset values (Max Latencies 0, LTR Enable and
 *	Command clear).
 * power (rw for Endpoints, ro for the others)
 *	Reads: "d3cold" while powered off, else the PowerState of its PMCSR:
 *	"d0", "d1", "d2" or "d3hot".
 *	Endpoints: "d3cold": pci_save_state(), then the device is powered off:
 *	its current_state is PCI_D3cold, configuration reads return ~0 and
 *	writes are lost.  "d0": powered on again with its registers at their
 *	reset values, current_state PCI_D0, then pci_restore_state(): what the
 *	PCI core does around D3cold, which QEMU cannot give this bridge.
 * save_restore (wo; Endpoints)
 *	Writing 1: pci_save_state() then pci_restore_state().
 * request (rw; Endpoints and the Upstream Port)
 *	A latency tolerance request of this module for the function: a
 *	decimal number of us adds it (dev_pm_qos_add_request()) or updates it
 *	(dev_pm_qos_update_request()), "remove" removes it; the write returns
 *	the API's error, if any.  Reads: its value, or "none".
 * plug (wo; hp0)
 *	Writing 1 makes it present, as if a device had been plugged into the
 *	slot below ds1: rescan that port to add it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/irq.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/pm_qos.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/syscore_ops.h>
#include <linux/uaccess.h>

#define TPL_NAME	"test_pcie_ltr_qos"
#define TPL_VENDOR	PCI_VENDOR_ID_REDHAT
#define TPL_DEV_PORT	0x7e50
#define TPL_DEV_EP	0x7e51
#define TPL_EXP		0x40	/* PCI Express Capability */
#define TPL_PM		0x80	/* PCI Power Management Capability */
#define TPL_LTR		0x100	/* LTR Extended Capability */
#define TPL_ARI		0x110	/* ARI Extended Capability (after LTR) */
#define TPL_L1SS	0x120	/* L1 PM Substates Extended Capability */
#define TPL_SRIOV	0x140	/* SR-IOV Extended Capability (after L1SS) */
#define TPL_AER_EP	0x180	/* ep0's AER Extended Capability (after SR-IOV) */
#define TPL_AER_RP	0x100	/* rp0's AER Extended Capability */
#define TPL_DEV_VF	0x7e52
#define TPL_LTR_MASK	0x1fff	/* value and scale of a Max Latency */
#define TPL_BUSES	8

static ushort snoop = 0x1003;
module_param(snoop, ushort, 0444);
MODULE_PARM_DESC(snoop, "Max Snoop Latency firmware left in ep0 (bits 12:0)");

static ushort nosnoop = 0x0cc8;
module_param(nosnoop, ushort, 0444);
MODULE_PARM_DESC(nosnoop, "Max No-Snoop Latency firmware left in ep0 (bits 12:0)");

enum {
	RP0, RP1, RP2, RP3, RP4, EP0, EP1, MF0, MF1, US, DS0, DS1, SW0, HP0,
	AR0, AR8, VF1, VF2, TPL_NFN
};

/* A function: its place, its configuration space and its writable bits */
struct tpl_fn {
	const char *name;
	int parent;				/* bridge above, -1 for the root bus */
	u8 devfn;
	u8 type;				/* PCI_EXP_TYPE_* */
	bool ltr;				/* has the LTR capability */
	bool present;
	bool off;				/* powered off */
	bool en_seen;				/* LTR Enable went 0 -> 1 */
	u32 max_at_en;				/* Max Latencies then */
	bool written;				/* Max Latencies written */
	u32 last_write;				/* the last dword written there */
	unsigned int lost;			/* writes it could not take */
	u8 cfg[PCI_CFG_SPACE_EXP_SIZE];
	u8 wmask[PCI_CFG_SPACE_EXP_SIZE];
	u8 rst[PCI_CFG_SPACE_EXP_SIZE];		/* reset values */
	struct pci_dev *pdev;
	struct mutex req_lock;			/* protects req */
	struct dev_pm_qos_request req;
};

#define TPL_FN(_name, _parent, _slot, _fn, _type, _ltr) {		\
	.name = _name, .parent = _parent, .devfn = PCI_DEVFN(_slot, _fn),	\
	.type = PCI_EXP_TYPE_##_type, .ltr = _ltr, .present = true }

static struct tpl_fn tpl_fns[TPL_NFN] = {
	[RP0] = TPL_FN("rp0", -1, 0, 0, ROOT_PORT, false),
	[RP1] = TPL_FN("rp1", -1, 1, 0, ROOT_PORT, false),
	[RP2] = TPL_FN("rp2", -1, 2, 0, ROOT_PORT, false),
	[RP3] = TPL_FN("rp3", -1, 3, 0, ROOT_PORT, false),
	[RP4] = TPL_FN("rp4", -1, 4, 0, ROOT_PORT, false),
	[EP0] = TPL_FN("ep0", RP0, 0, 0, ENDPOINT, true),
	[EP1] = TPL_FN("ep1", RP1, 0, 0, ENDPOINT, true),
	[MF0] = TPL_FN("mf0", RP2, 0, 0, ENDPOINT, true),
	[MF1] = TPL_FN("mf1", RP2, 0, 1, ENDPOINT, false),
	[US]  = TPL_FN("us", RP3, 0, 0, UPSTREAM, true),
	[DS0] = TPL_FN("ds0", US, 0, 0, DOWNSTREAM, false),
	[DS1] = TPL_FN("ds1", US, 1, 0, DOWNSTREAM, false),
	[SW0] = TPL_FN("sw0", DS0, 0, 0, ENDPOINT, true),
	[HP0] = TPL_FN("hp0", DS1, 0, 0, ENDPOINT, true),
	[AR0] = TPL_FN("ar0", RP4, 0, 0, ENDPOINT, true),
	[AR8] = TPL_FN("ar8", RP4, 1, 0, ENDPOINT, false),
	[VF1] = TPL_FN("vf1", RP0, 0, 1, ENDPOINT, false),
	[VF2] = TPL_FN("vf2", RP0, 0, 2, ENDPOINT, false),
};

/* Bus numbers that firmware gave the bridges: secondary, subordinate */
static const u8 tpl_buses[TPL_NFN][2] = {
	[RP0] = { 1, 1 }, [RP1] = { 2, 2 }, [RP2] = { 3, 3 }, [RP3] = { 4, 7 },
	[US] = { 5, 7 }, [DS0] = { 6, 6 }, [DS1] = { 7, 7 }, [RP4] = { 8, 8 },
};

/*
 * Protects the cfg, off, present, en_seen, max_at_en, written, last_write,
 * lost fields
 */
static DEFINE_RAW_SPINLOCK(tpl_lock);

enum tpl_mode { TPL_PLAIN, TPL_OWN };
static const char * const tpl_modes[] = { "plain", "own" };
static enum tpl_mode tpl_mode;
static s32 tpl_own_last;
static bool tpl_own_called;

static bool tpl_check_at_power_off;
static struct platform_device *tpl_parent;
static struct pci_sysdata tpl_sysdata;
static struct pci_bus *tpl_bus;
static struct dentry *tpl_dir;
static int tpl_irq;

static struct resource tpl_busn = {
	.name	= TPL_NAME " buses",
	.start	= 0,
	.end	= TPL_BUSES,
	.flags	= IORESOURCE_BUS,
};

static bool tpl_is_bridge(const struct tpl_fn *fn)
{
	return fn->type == PCI_EXP_TYPE_ROOT_PORT ||
	       fn->type == PCI_EXP_TYPE_UPSTREAM ||
	       fn->type == PCI_EXP_TYPE_DOWNSTREAM;
}

static void tpl_put(u8 *a, int where, int size, u32 val)
{
	int i;

	for (i = 0; i < size; i++)
		a[where + i] = val >> (8 * i);
}

static u32 tpl_get(const u8 *a, int where, int size)
{
	u32 val = 0;
	int i;

	for (i = 0; i < size; i++)
		val |= (u32)a[where + i] << (8 * i);
	return val;
}

/* The function at @devfn on @bus, with tpl_lock held */
static struct tpl_fn *tpl_find(struct pci_bus *bus, unsigned int devfn)
{
	int i;

	for (i = 0; i < TPL_NFN; i++) {
		struct tpl_fn *fn = &tpl_fns[i];

		if (!fn->present || fn->devfn != devfn)
			continue;
		if (fn->parent < 0 && pci_is_root_bus(bus))
			return fn;
		/* Type 1 routing through the bridge's Secondary Bus Number */
		if (fn->parent >= 0 && !pci_is_root_bus(bus) &&
		    bus->number == tpl_fns[fn->parent].cfg[PCI_SECONDARY_BUS])
			return fn;
	}
	return NULL;
}

/* The PowerState of @fn's PMCSR, with tpl_lock held */
static u8 tpl_pm_state(const struct tpl_fn *fn)
{
	return fn->cfg[TPL_PM + PCI_PM_CTRL] & PCI_PM_CTRL_STATE_MASK;
}

/*
 * Whether @fn can take configuration requests, with tpl_lock held: powered,
 * and every bridge above it in D0.
 */
static bool tpl_reachable(const struct tpl_fn *fn)
{
	int i;

	if (fn->off)
		return false;
	for (i = fn->parent; i >= 0; i = tpl_fns[i].parent)
		if (tpl_pm_state(&tpl_fns[i]))
			return false;
	return true;
}

/* The VFs of ep0 exist while its VF Enable is set, with tpl_lock held */
static void tpl_sriov_update(void)
{
	struct tpl_fn *pf = &tpl_fns[EP0];
	bool vfe = tpl_get(pf->cfg, TPL_SRIOV + PCI_SRIOV_CTRL, 2) &
		   PCI_SRIOV_CTRL_VFE;
	u16 num = tpl_get(pf->cfg, TPL_SRIOV + PCI_SRIOV_NUM_VF, 2);
	int i;

	for (i = VF1; i <= VF2; i++) {
		bool present = vfe && num > i - VF1;

		if (present && !tpl_fns[i].present)
			memcpy(tpl_fns[i].cfg, tpl_fns[i].rst,
			       sizeof(tpl_fns[i].cfg));
		tpl_fns[i].present = present;
	}
}

static int tpl_read(struct pci_bus *bus, unsigned int devfn, int where,
		    int size, u32 *val)
{
	struct tpl_fn *fn;
	unsigned long flags;
	u32 v;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	fn = tpl_find(bus, devfn);
	if (!fn || where < 0 || where + size > PCI_CFG_SPACE_EXP_SIZE) {
		raw_spin_unlock_irqrestore(&tpl_lock, flags);
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	v = tpl_reachable(fn) ? tpl_get(fn->cfg, where, size) : ~0U;
	raw_spin_unlock_irqrestore(&tpl_lock, flags);

	*val = v;
	return PCIBIOS_SUCCESSFUL;
}

/* Record the Max Latencies when LTR Enable goes from 0 to 1 */
static void tpl_watch_ltr_en(struct tpl_fn *fn, u16 old_ctl2)
{
	int where = TPL_EXP + PCI_EXP_DEVCTL2;

	if (!fn->ltr || (old_ctl2 & PCI_EXP_DEVCTL2_LTR_EN) ||
	    !(tpl_get(fn->cfg, where, 2) & PCI_EXP_DEVCTL2_LTR_EN))
		return;

	fn->en_seen = true;
	fn->max_at_en = tpl_get(fn->cfg, TPL_LTR + PCI_LTR_MAX_SNOOP_LAT, 4);
}

/* Secondary Bus Reset: the functions right below @bridge, with tpl_lock held */
static void tpl_bus_reset(struct tpl_fn *bridge)
{
	int i;

	for (i = 0; i < TPL_NFN; i++)
		if (tpl_fns[i].parent == bridge - tpl_fns)
			memcpy(tpl_fns[i].cfg, tpl_fns[i].rst,
			       sizeof(tpl_fns[i].cfg));
}

static int tpl_write(struct pci_bus *bus, unsigned int devfn, int where,
		     int size, u32 val)
{
	struct tpl_fn *fn;
	unsigned long flags;
	u16 ctl2;
	int i;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	fn = tpl_find(bus, devfn);
	if (!fn || where < 0 || where + size > PCI_CFG_SPACE_EXP_SIZE) {
		raw_spin_unlock_irqrestore(&tpl_lock, flags);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	if (!tpl_reachable(fn)) {
		fn->lost++;
		raw_spin_unlock_irqrestore(&tpl_lock, flags);
		return PCIBIOS_SUCCESSFUL;
	}
	ctl2 = tpl_get(fn->cfg, TPL_EXP + PCI_EXP_DEVCTL2, 2);
	if (fn->ltr && where == TPL_LTR + PCI_LTR_MAX_SNOOP_LAT && size == 4) {
		fn->written = true;
		fn->last_write = val;
	}
	for (i = 0; i < size; i++) {
		u8 m = fn->wmask[where + i];

		fn->cfg[where + i] = (fn->cfg[where + i] & ~m) |
				     ((val >> (8 * i)) & m);
	}
	tpl_watch_ltr_en(fn, ctl2);
	if (fn == &tpl_fns[EP0])
		tpl_sriov_update();
	if (tpl_is_bridge(fn) &&
	    (tpl_get(fn->cfg, PCI_BRIDGE_CONTROL, 2) & PCI_BRIDGE_CTL_BUS_RESET))
		tpl_bus_reset(fn);
	raw_spin_unlock_irqrestore(&tpl_lock, flags);

	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops tpl_ops = {
	.read	= tpl_read,
	.write	= tpl_write,
};

/* Header and PCI Express Capability (version 2, x1 at 2.5 GT/s, no slot) */
static void tpl_init_fn(struct tpl_fn *fn, u16 device, u32 class, u8 hdr_type)
{
	u8 *c = fn->cfg, *m = fn->wmask;

	tpl_put(c, PCI_VENDOR_ID, 2, TPL_VENDOR);
	tpl_put(c, PCI_DEVICE_ID, 2, device);
	tpl_put(m, PCI_COMMAND, 2, PCI_COMMAND_IO | PCI_COMMAND_MEMORY |
	       PCI_COMMAND_MASTER | PCI_COMMAND_PARITY | PCI_COMMAND_SERR |
	       PCI_COMMAND_INTX_DISABLE);
	tpl_put(c, PCI_STATUS, 2, PCI_STATUS_CAP_LIST);
	tpl_put(c, PCI_CLASS_REVISION, 4, class << 8);
	c[PCI_HEADER_TYPE] = hdr_type;
	m[PCI_CACHE_LINE_SIZE] = 0xff;
	m[PCI_LATENCY_TIMER] = 0xff;
	c[PCI_CAPABILITY_LIST] = TPL_EXP;
	m[PCI_INTERRUPT_LINE] = 0xff;		/* Interrupt Pin 0: none */

	/* PM r1.2, no D1, D2 or PME; D3hot keeps the state */
	c[TPL_PM + PCI_CAP_LIST_ID] = PCI_CAP_ID_PM;
	tpl_put(c, TPL_PM + PCI_PM_PMC, 2, 3);
	tpl_put(c, TPL_PM + PCI_PM_CTRL, 2, PCI_PM_CTRL_NO_SOFT_RESET);
	tpl_put(m, TPL_PM + PCI_PM_CTRL, 2, PCI_PM_CTRL_STATE_MASK);

	c[TPL_EXP + PCI_CAP_LIST_ID] = PCI_CAP_ID_EXP;
	c[TPL_EXP + PCI_CAP_LIST_NEXT] = TPL_PM;
	tpl_put(c, TPL_EXP + PCI_EXP_FLAGS, 2,
		2 | FIELD_PREP(PCI_EXP_FLAGS_TYPE, fn->type));
	tpl_put(m, TPL_EXP + PCI_EXP_DEVCTL, 2, 0x7fff);
	tpl_put(c, TPL_EXP + PCI_EXP_LNKCAP, 4,
		PCI_EXP_LNKCAP_SLS_2_5GB | FIELD_PREP(PCI_EXP_LNKCAP_MLW, 1));
	/* all of Link Control but Retrain Link, which reads 0 */
	tpl_put(m, TPL_EXP + PCI_EXP_LNKCTL, 2, 0x0fdb);
	tpl_put(c, TPL_EXP + PCI_EXP_LNKSTA, 2,
		PCI_EXP_LNKSTA_CLS_2_5GB | PCI_EXP_LNKSTA_NLW_X1);
	tpl_put(c, TPL_EXP + PCI_EXP_DEVCAP2, 4, PCI_EXP_DEVCAP2_LTR);
	tpl_put(m, TPL_EXP + PCI_EXP_DEVCTL2, 2, PCI_EXP_DEVCTL2_LTR_EN);
	tpl_put(c, TPL_EXP + PCI_EXP_LNKCAP2, 4, PCI_EXP_LNKCAP2_SLS_2_5GB);
	tpl_put(m, TPL_EXP + PCI_EXP_LNKCTL2, 2, PCI_EXP_LNKCTL2_TLS);
}

static void tpl_init_bridge(struct tpl_fn *fn, u8 primary, const u8 *buses)
{
	u8 *c = fn->cfg, *m = fn->wmask;

	tpl_init_fn(fn, TPL_DEV_PORT, PCI_CLASS_BRIDGE_PCI_NORMAL,
		    PCI_HEADER_TYPE_BRIDGE);

	/* Bus numbers as firmware set them, writable */
	c[PCI_PRIMARY_BUS] = primary;
	c[PCI_SECONDARY_BUS] = buses[0];
	c[PCI_SUBORDINATE_BUS] = buses[1];
	tpl_put(m, PCI_PRIMARY_BUS, 4, 0xffffffff);

	/* Windows disabled (base above limit) and read-only */
	c[PCI_IO_BASE] = 0xf0;
	tpl_put(c, PCI_MEMORY_BASE, 2, 0xfff0);
	tpl_put(c, PCI_PREF_MEMORY_BASE, 2, 0xfff0);
	tpl_put(m, PCI_BRIDGE_CONTROL, 2, 0x0fff);

	if (fn->type == PCI_EXP_TYPE_ROOT_PORT)
		tpl_put(m, TPL_EXP + PCI_EXP_RTCTL, 2, 0x001f);
}

static void tpl_init_ep(struct tpl_fn *fn, bool multi)
{
	tpl_init_fn(fn, TPL_DEV_EP, PCI_CLASS_OTHERS << 16,
		    PCI_HEADER_TYPE_NORMAL | (multi ? PCI_HEADER_TYPE_MFD : 0));
}

/* An ARI capability at @pos, the last one, naming the next Function @nfn */
static void tpl_init_ari(struct tpl_fn *fn, int pos, u8 nfn)
{
	tpl_put(fn->cfg, pos, 4, PCI_EXT_CAP_ID_ARI | 1 << 16);
	tpl_put(fn->cfg, pos + PCI_ARI_CAP, 2, nfn << 8);
}

/*
 * L1 PM Substates as firmware left them: ASPM L1.2 supported and enabled,
 * LTR_L1.2_THRESHOLD 100 at scale 2 (PCIe r6.0, sec 7.8.3.3: 102400 ns)
 */
static void tpl_init_l1ss(struct tpl_fn *fn)
{
	tpl_put(fn->cfg, TPL_L1SS, 4, PCI_EXT_CAP_ID_L1SS | 1 << 16 |
		TPL_SRIOV << 20);
	tpl_put(fn->cfg, TPL_L1SS + PCI_L1SS_CAP, 4,
		PCI_L1SS_CAP_ASPM_L1_2 | PCI_L1SS_CAP_L1_PM_SS);
	tpl_put(fn->cfg, TPL_L1SS + PCI_L1SS_CTL1, 4, PCI_L1SS_CTL1_ASPM_L1_2 |
		FIELD_PREP(PCI_L1SS_CTL1_LTR_L12_TH_VALUE, 100) |
		FIELD_PREP(PCI_L1SS_CTL1_LTR_L12_TH_SCALE, 2));
}

/*
 * SR-IOV (PCIe r6.0, sec 9.3.3): 2 VFs at Offset 1, Stride 1, no VF BARs,
 * 4 KB pages; VF Enable, VF MSE, ARI Capable Hierarchy, NumVFs and System
 * Page Size writable
 */
static void tpl_init_sriov(struct tpl_fn *fn)
{
	u8 *c = fn->cfg, *m = fn->wmask;

	tpl_put(c, TPL_SRIOV, 4, PCI_EXT_CAP_ID_SRIOV | 1 << 16 |
		TPL_AER_EP << 20);
	tpl_put(m, TPL_SRIOV + PCI_SRIOV_CTRL, 2, PCI_SRIOV_CTRL_VFE |
		PCI_SRIOV_CTRL_MSE | PCI_SRIOV_CTRL_ARI);
	tpl_put(c, TPL_SRIOV + PCI_SRIOV_INITIAL_VF, 2, 2);
	tpl_put(c, TPL_SRIOV + PCI_SRIOV_TOTAL_VF, 2, 2);
	tpl_put(m, TPL_SRIOV + PCI_SRIOV_NUM_VF, 2, 0xffff);
	tpl_put(c, TPL_SRIOV + PCI_SRIOV_VF_OFFSET, 2, 1);
	tpl_put(c, TPL_SRIOV + PCI_SRIOV_VF_STRIDE, 2, 1);
	tpl_put(c, TPL_SRIOV + PCI_SRIOV_VF_DID, 2, TPL_DEV_VF);
	tpl_put(c, TPL_SRIOV + PCI_SRIOV_SUP_PGSIZE, 4, 1);
	tpl_put(m, TPL_SRIOV + PCI_SRIOV_SYS_PGSIZE, 4, 0xffffffff);
}

/*
 * AER (PCIe r6.0, sec 7.8.4), the last capability: only its Uncorrectable
 * Error Severity register holds something, its default (Data Link Protocol
 * Error and the others of the spec's table are fatal); nothing is writable.
 * aer_inject, the kernel's software error injector, simulates the status
 * and source registers on top of it.
 */
static void tpl_init_aer(struct tpl_fn *fn, int pos)
{
	tpl_put(fn->cfg, pos, 4, PCI_EXT_CAP_ID_ERR | 2 << 16);
	tpl_put(fn->cfg, pos + PCI_ERR_UNCOR_SEVER, 4, 0x00462030);
}

/* The LTR capability, firmware's Max Latencies written after the reset ones */
static void tpl_init_ltr(struct tpl_fn *fn, u16 fw_snoop, u16 fw_nosnoop)
{
	u8 *c = fn->cfg, *m = fn->wmask;

	tpl_put(c, TPL_LTR, 4, PCI_EXT_CAP_ID_LTR | 1 << 16 |
		(fn == &tpl_fns[AR0] ? TPL_ARI << 20 : 0) |
		(fn == &tpl_fns[EP0] ? TPL_L1SS << 20 : 0));
	if (fn == &tpl_fns[AR0])
		tpl_put(c, TPL_LTR + PCI_LTR_MAX_SNOOP_LAT, 4, 0xe000e000);
	tpl_put(m, TPL_LTR + PCI_LTR_MAX_SNOOP_LAT, 2, TPL_LTR_MASK);
	tpl_put(m, TPL_LTR + PCI_LTR_MAX_NOSNOOP_LAT, 2, TPL_LTR_MASK);

	memcpy(fn->rst, fn->cfg, sizeof(fn->rst));
	tpl_put(c, TPL_LTR + PCI_LTR_MAX_SNOOP_LAT, 2,
		c[TPL_LTR + PCI_LTR_MAX_SNOOP_LAT + 1] << 8 |
		(fw_snoop & TPL_LTR_MASK));
	tpl_put(c, TPL_LTR + PCI_LTR_MAX_NOSNOOP_LAT, 2,
		c[TPL_LTR + PCI_LTR_MAX_NOSNOOP_LAT + 1] << 8 |
		(fw_nosnoop & TPL_LTR_MASK));
}

static void tpl_init_fns(void)
{
	int i;

	for (i = 0; i < TPL_NFN; i++) {
		struct tpl_fn *fn = &tpl_fns[i];
		u8 primary = fn->parent < 0 ? 0 : tpl_buses[fn->parent][0];

		if (tpl_is_bridge(fn))
			tpl_init_bridge(fn, primary, tpl_buses[i]);
		else
			tpl_init_ep(fn, i == MF0);
		if (i == AR0)
			tpl_init_ari(fn, TPL_ARI, 8);
		if (i == EP0) {
			tpl_init_l1ss(fn);
			tpl_init_sriov(fn);
			tpl_init_aer(fn, TPL_AER_EP);
		}
		if (i == RP0) {
			tpl_init_aer(fn, TPL_AER_RP);
			fn->cfg[PCI_INTERRUPT_PIN] = 1;
		}
		if (i == AR8)
			tpl_init_ari(fn, TPL_LTR, 0);
		if (i == RP4) {
			tpl_put(fn->cfg, TPL_EXP + PCI_EXP_DEVCAP2, 4,
				PCI_EXP_DEVCAP2_LTR | PCI_EXP_DEVCAP2_ARI);
			tpl_put(fn->wmask, TPL_EXP + PCI_EXP_DEVCTL2, 2,
				PCI_EXP_DEVCTL2_LTR_EN | PCI_EXP_DEVCTL2_ARI);
		}
		memcpy(fn->rst, fn->cfg, sizeof(fn->rst));
		if (fn->ltr)
			tpl_init_ltr(fn, i == EP0 || i == AR0 ? snoop : 0,
				     i == EP0 || i == AR0 ? nosnoop : 0);
		mutex_init(&fn->req_lock);
	}
	tpl_fns[HP0].present = false;
	tpl_fns[VF1].present = false;
	tpl_fns[VF2].present = false;
}

/* The test driver */

static void tpl_own_set_lt(struct device *dev, s32 val)
{
	WRITE_ONCE(tpl_own_last, val);
	WRITE_ONCE(tpl_own_called, true);
}

static int tpl_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	enum tpl_mode mode = READ_ONCE(tpl_mode);

	if (mode == TPL_OWN) {
		dev_pm_qos_set_latency_tolerance_callback(&pdev->dev,
							  tpl_own_set_lt);
		dev_pm_qos_expose_latency_tolerance(&pdev->dev);
	}
	pci_set_drvdata(pdev, (void *)(unsigned long)mode);
	/* The usage count the PCI core took for the probe */
	pm_runtime_put_noidle(&pdev->dev);
	return 0;
}

static void tpl_remove(struct pci_dev *pdev)
{
	pm_runtime_get_noresume(&pdev->dev);
	if ((unsigned long)pci_get_drvdata(pdev) == TPL_OWN) {
		dev_pm_qos_hide_latency_tolerance(&pdev->dev);
		dev_pm_qos_clear_latency_tolerance_callback(&pdev->dev);
	}
}

/* Nothing to save: the PCI core saves the state and picks D3hot */
static int tpl_runtime_nop(struct device *dev)
{
	return 0;
}

static const struct dev_pm_ops tpl_pm_ops = {
	RUNTIME_PM_OPS(tpl_runtime_nop, tpl_runtime_nop, NULL)
};

/*
 * AER recovery as drivers do it: a reset after a fatal error, then the
 * state saved last restored (nvme_slot_reset(), e1000_io_slot_reset())
 */
static pci_ers_result_t tpl_error_detected(struct pci_dev *pdev,
					   pci_channel_state_t state)
{
	return state == pci_channel_io_frozen ? PCI_ERS_RESULT_NEED_RESET :
						PCI_ERS_RESULT_CAN_RECOVER;
}

static pci_ers_result_t tpl_slot_reset(struct pci_dev *pdev)
{
	pci_restore_state(pdev);
	return PCI_ERS_RESULT_RECOVERED;
}

static const struct pci_error_handlers tpl_err_handlers = {
	.error_detected	= tpl_error_detected,
	.slot_reset	= tpl_slot_reset,
};

/* No id_table: it only binds through driver_override */
static struct pci_driver tpl_driver = {
	.name	= TPL_NAME,
	.probe	= tpl_probe,
	.remove	= tpl_remove,
	.sriov_configure = pci_sriov_configure_simple,
	.err_handler = &tpl_err_handlers,
	.driver.pm = &tpl_pm_ops,
};

/* debugfs */

/* Copy a write of at most @size - 1 bytes into @buf, without its newline */
static int tpl_copy(char *buf, size_t size, const char __user *ubuf,
		    size_t count)
{
	if (count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);
	return 0;
}

static int tpl_reg_get(struct tpl_fn *fn, int where, u64 *val)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	*val = tpl_get(fn->cfg, where, 2);
	raw_spin_unlock_irqrestore(&tpl_lock, flags);
	return 0;
}

static int tpl_reg_set(struct tpl_fn *fn, int where, u64 val)
{
	unsigned long flags;

	if (val > TPL_LTR_MASK)
		return -ERANGE;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	tpl_put(fn->cfg, where, 2, val);
	raw_spin_unlock_irqrestore(&tpl_lock, flags);
	return 0;
}

static int tpl_snoop_get(void *data, u64 *val)
{
	return tpl_reg_get(data, TPL_LTR + PCI_LTR_MAX_SNOOP_LAT, val);
}

static int tpl_snoop_set(void *data, u64 val)
{
	return tpl_reg_set(data, TPL_LTR + PCI_LTR_MAX_SNOOP_LAT, val);
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_snoop_fops, tpl_snoop_get, tpl_snoop_set,
			 "0x%04llx\n");

static int tpl_nosnoop_get(void *data, u64 *val)
{
	return tpl_reg_get(data, TPL_LTR + PCI_LTR_MAX_NOSNOOP_LAT, val);
}

static int tpl_nosnoop_set(void *data, u64 val)
{
	return tpl_reg_set(data, TPL_LTR + PCI_LTR_MAX_NOSNOOP_LAT, val);
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_nosnoop_fops, tpl_nosnoop_get, tpl_nosnoop_set,
			 "0x%04llx\n");

/* Show *@val as "0x%08x" if *@set, else "none"; both under tpl_lock */
static int tpl_show_dword(struct seq_file *s, const bool *set, const u32 *val)
{
	unsigned long flags;
	bool is_set;
	u32 v;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	is_set = *set;
	v = *val;
	raw_spin_unlock_irqrestore(&tpl_lock, flags);

	if (is_set)
		seq_printf(s, "0x%08x\n", v);
	else
		seq_puts(s, "none\n");
	return 0;
}

static int tpl_written_show(struct seq_file *s, void *unused)
{
	struct tpl_fn *fn = s->private;

	return tpl_show_dword(s, &fn->written, &fn->last_write);
}
DEFINE_SHOW_ATTRIBUTE(tpl_written);

static int tpl_max_at_enable_show(struct seq_file *s, void *unused)
{
	struct tpl_fn *fn = s->private;

	return tpl_show_dword(s, &fn->en_seen, &fn->max_at_en);
}
DEFINE_SHOW_ATTRIBUTE(tpl_max_at_enable);

static int tpl_ltr_en_get(void *data, u64 *val)
{
	int ret = tpl_reg_get(data, TPL_EXP + PCI_EXP_DEVCTL2, val);

	*val = !!(*val & PCI_EXP_DEVCTL2_LTR_EN);
	return ret;
}

static int tpl_ltr_en_set(void *data, u64 val)
{
	struct tpl_fn *fn = data;
	int where = TPL_EXP + PCI_EXP_DEVCTL2;
	unsigned long flags;
	u32 ctl;

	if (val > 1)
		return -EINVAL;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	ctl = tpl_get(fn->cfg, where, 2) & ~PCI_EXP_DEVCTL2_LTR_EN;
	tpl_put(fn->cfg, where, 2, ctl | (val ? PCI_EXP_DEVCTL2_LTR_EN : 0));
	raw_spin_unlock_irqrestore(&tpl_lock, flags);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_ltr_en_fops, tpl_ltr_en_get, tpl_ltr_en_set,
			 "%llu\n");

static int tpl_lost_get(void *data, u64 *val)
{
	struct tpl_fn *fn = data;

	*val = READ_ONCE(fn->lost);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_lost_fops, tpl_lost_get, NULL, "%llu\n");

/* The function's registers back to their reset values */
static void tpl_reset(struct tpl_fn *fn)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	memcpy(fn->cfg, fn->rst, sizeof(fn->cfg));
	raw_spin_unlock_irqrestore(&tpl_lock, flags);
}

static int tpl_lose_set(void *data, u64 val)
{
	tpl_reset(data);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_lose_fops, NULL, tpl_lose_set, "%llu\n");

static int tpl_save_restore_set(void *data, u64 val)
{
	struct tpl_fn *fn = data;

	if (!fn->pdev)
		return -ENODEV;
	pci_save_state(fn->pdev);
	pci_restore_state(fn->pdev);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_save_restore_fops, NULL, tpl_save_restore_set,
			 "%llu\n");

static int tpl_plug_set(void *data, u64 val)
{
	struct tpl_fn *fn = data;
	unsigned long flags;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	fn->present = true;
	raw_spin_unlock_irqrestore(&tpl_lock, flags);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_plug_fops, NULL, tpl_plug_set, "%llu\n");

/* The pci_dev of @fn, looked up again: it may have been removed and found */
static struct pci_dev *tpl_pdev(struct tpl_fn *fn)
{
	int bus = fn->parent < 0 ? 0 : tpl_buses[fn->parent][0];

	return pci_get_domain_bus_and_slot(tpl_sysdata.domain, bus, fn->devfn);
}

static int tpl_name_show(struct seq_file *s, void *unused)
{
	struct pci_dev *pdev = tpl_pdev(s->private);

	seq_printf(s, "%s\n", pdev ? pci_name(pdev) : "none");
	pci_dev_put(pdev);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tpl_name);

static ssize_t tpl_power_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	static const char * const states[] = { "d0\n", "d1\n", "d2\n", "d3hot\n" };
	struct tpl_fn *fn = file->private_data;
	unsigned long flags;
	const char *s;

	raw_spin_lock_irqsave(&tpl_lock, flags);
	s = fn->off ? "d3cold\n" : states[tpl_pm_state(fn)];
	raw_spin_unlock_irqrestore(&tpl_lock, flags);

	return simple_read_from_buffer(ubuf, count, ppos, s, strlen(s));
}

static DEFINE_MUTEX(tpl_power_lock);

/* An Endpoint to D3cold or back to D0, as the PCI core does it */
static int tpl_ep_power(struct tpl_fn *fn, bool on)
{
	struct pci_dev *pdev = fn->pdev;
	unsigned long flags;

	if (!pdev)
		return -ENODEV;

	if (!on && !fn->off) {
		pci_save_state(pdev);
		pdev->current_state = PCI_D3cold;
		raw_spin_lock_irqsave(&tpl_lock, flags);
		fn->off = true;
		raw_spin_unlock_irqrestore(&tpl_lock, flags);
	} else if (on && fn->off) {
		raw_spin_lock_irqsave(&tpl_lock, flags);
		memcpy(fn->cfg, fn->rst, sizeof(fn->cfg));
		fn->off = false;
		raw_spin_unlock_irqrestore(&tpl_lock, flags);
		pdev->current_state = PCI_D0;
		pci_restore_state(pdev);
	}
	return 0;
}

static ssize_t tpl_power_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct tpl_fn *fn = file->private_data;
	char buf[16];
	int ret;

	ret = tpl_copy(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;

	mutex_lock(&tpl_power_lock);
	if (!strcmp(buf, "d0"))
		ret = tpl_ep_power(fn, true);
	else if (!strcmp(buf, "d3cold"))
		ret = tpl_ep_power(fn, false);
	else
		ret = -EINVAL;
	mutex_unlock(&tpl_power_lock);

	return ret ?: count;
}

static const struct file_operations tpl_power_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= tpl_power_read,
	.write	= tpl_power_write,
	.llseek	= default_llseek,
};

static ssize_t tpl_request_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct tpl_fn *fn = file->private_data;
	char buf[24];
	int len;

	mutex_lock(&fn->req_lock);
	if (dev_pm_qos_request_active(&fn->req))
		len = scnprintf(buf, sizeof(buf), "%d\n",
				fn->req.data.pnode.prio);
	else
		len = scnprintf(buf, sizeof(buf), "none\n");
	mutex_unlock(&fn->req_lock);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t tpl_request_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct tpl_fn *fn = file->private_data;
	char buf[24];
	s32 val;
	int ret;

	ret = tpl_copy(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;

	mutex_lock(&fn->req_lock);
	if (!fn->pdev)			/* hp0, plugged since */
		fn->pdev = tpl_pdev(fn);
	if (!strcmp(buf, "remove")) {
		ret = dev_pm_qos_request_active(&fn->req) ?
		      dev_pm_qos_remove_request(&fn->req) : -ENOENT;
	} else {
		ret = kstrtos32(buf, 10, &val);
		if (!ret && dev_pm_qos_request_active(&fn->req))
			ret = dev_pm_qos_update_request(&fn->req, val);
		else if (!ret && !fn->pdev)
			ret = -ENODEV;
		else if (!ret)
			ret = dev_pm_qos_add_request(&fn->pdev->dev, &fn->req,
						     DEV_PM_QOS_LATENCY_TOLERANCE,
						     val);
	}
	mutex_unlock(&fn->req_lock);

	return ret < 0 ? ret : count;
}

static const struct file_operations tpl_request_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= tpl_request_read,
	.write	= tpl_request_write,
	.llseek	= default_llseek,
};

static ssize_t tpl_mode_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%s\n", tpl_modes[READ_ONCE(tpl_mode)]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t tpl_mode_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[16];
	int ret;

	ret = tpl_copy(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;

	ret = match_string(tpl_modes, ARRAY_SIZE(tpl_modes), buf);
	if (ret < 0)
		return ret;

	WRITE_ONCE(tpl_mode, ret);
	return count;
}

static const struct file_operations tpl_mode_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= tpl_mode_read,
	.write	= tpl_mode_write,
	.llseek	= default_llseek,
};

static int tpl_own_cb_show(struct seq_file *s, void *unused)
{
	if (READ_ONCE(tpl_own_called))
		seq_printf(s, "%d\n", READ_ONCE(tpl_own_last));
	else
		seq_puts(s, "none\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tpl_own_cb);

/* After device_shutdown(): ep0's registers as the next kernel finds them */
static void tpl_power_off(void *data)
{
	u32 want = (snoop & TPL_LTR_MASK) | (nosnoop & TPL_LTR_MASK) << 16;
	unsigned long flags;
	u32 regs;

	if (!READ_ONCE(tpl_check_at_power_off))
		return;

	/* Interrupts are on: the AER injector's reads take tpl_lock in softirq */
	raw_spin_lock_irqsave(&tpl_lock, flags);
	regs = tpl_get(tpl_fns[EP0].cfg, TPL_LTR + PCI_LTR_MAX_SNOOP_LAT, 4);
	raw_spin_unlock_irqrestore(&tpl_lock, flags);

	pr_info("\nKTAP version 1\n# Subtest: pcie_ltr_power_off\n1..1\n%sok 1 ep0's Max Latencies at power-off 0x%08x, firmware's 0x%08x\n",
		regs == want ? "" : "not ", regs, want);
}

static const struct syscore_ops tpl_syscore_ops = {
	.shutdown = tpl_power_off,
};

static struct syscore tpl_syscore = {
	.ops = &tpl_syscore_ops,
};

static int tpl_native_ltr_get(void *data, u64 *val)
{
	*val = to_pci_host_bridge(tpl_bus->bridge)->native_ltr;
	return 0;
}

static int tpl_native_ltr_set(void *data, u64 val)
{
	if (val > 1)
		return -EINVAL;

	pci_lock_rescan_remove();
	to_pci_host_bridge(tpl_bus->bridge)->native_ltr = val;
	pci_unlock_rescan_remove();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tpl_native_ltr_fops, tpl_native_ltr_get,
			 tpl_native_ltr_set, "%llu\n");

static void tpl_debugfs_fn(struct tpl_fn *fn)
{
	struct dentry *dir = debugfs_create_dir(fn->name, tpl_dir);
	bool ep = !tpl_is_bridge(fn);

	debugfs_create_file("name", 0400, dir, fn, &tpl_name_fops);
	debugfs_create_file_unsafe("ltr_en", 0600, dir, fn, &tpl_ltr_en_fops);
	debugfs_create_file_unsafe("lost", 0400, dir, fn, &tpl_lost_fops);
	debugfs_create_file_unsafe("lose", 0200, dir, fn, &tpl_lose_fops);
	if (fn->ltr) {
		debugfs_create_file_unsafe("snoop", 0600, dir, fn,
					   &tpl_snoop_fops);
		debugfs_create_file_unsafe("nosnoop", 0600, dir, fn,
					   &tpl_nosnoop_fops);
		debugfs_create_file("max_at_enable", 0400, dir, fn,
				    &tpl_max_at_enable_fops);
		debugfs_create_file("written", 0400, dir, fn,
				    &tpl_written_fops);
	}
	debugfs_create_file("power", ep ? 0600 : 0400, dir, fn,
			    &tpl_power_fops);
	if (ep)
		debugfs_create_file_unsafe("save_restore", 0200, dir, fn,
					   &tpl_save_restore_fops);
	if (ep || fn->type == PCI_EXP_TYPE_UPSTREAM)
		debugfs_create_file("request", 0600, dir, fn,
				    &tpl_request_fops);
	if (fn == &tpl_fns[HP0])
		debugfs_create_file_unsafe("plug", 0200, dir, fn,
					   &tpl_plug_fops);
}

static void tpl_debugfs_init(void)
{
	int i;

	tpl_dir = debugfs_create_dir(TPL_NAME, NULL);
	debugfs_create_file("driver_mode", 0600, tpl_dir, NULL, &tpl_mode_fops);
	debugfs_create_file("own_cb", 0400, tpl_dir, NULL, &tpl_own_cb_fops);
	debugfs_create_file_unsafe("native_ltr", 0600, tpl_dir, NULL,
				   &tpl_native_ltr_fops);
	debugfs_create_bool("check_at_power_off", 0600, tpl_dir,
			    &tpl_check_at_power_off);

	for (i = 0; i < TPL_NFN; i++)
		tpl_debugfs_fn(&tpl_fns[i]);
}

/*
 * The pci_dev of each function present, kept by tpl_fns for the debugfs
 * files; the functions that are not bridges only bind to tpl_driver.  A
 * function removed and found again keeps the reference to its old pci_dev:
 * the files that act through the PCI core then act on that one.
 */
static int tpl_get_fns(void)
{
	int i, ret;

	for (i = 0; i < TPL_NFN; i++) {
		struct tpl_fn *fn = &tpl_fns[i];

		if (!fn->present)
			continue;
		fn->pdev = tpl_pdev(fn);
		if (!fn->pdev)
			return -ENODEV;
		if (tpl_is_bridge(fn))
			continue;
		ret = device_set_driver_override(&fn->pdev->dev, TPL_NAME);
		if (ret)
			return ret;
	}
	return 0;
}

/* The ACPI companion of the host bridge, if the SSDT declares it */
static void tpl_acpi_companion(void)
{
#ifdef CONFIG_ACPI
	struct acpi_device *adev = NULL;
	acpi_handle handle;

	if (ACPI_SUCCESS(acpi_get_handle(NULL, "\\_SB.TPLT", &handle)))
		adev = acpi_fetch_acpi_dev(handle);
	if (adev)
		ACPI_COMPANION_SET(tpl_bus->bridge, adev);
	pr_info("ACPI companion: %s\n", adev ? "\\_SB.TPLT" : "none");
#endif
}

/*
 * rp0's INTx (Interrupt Pin A), for its AER service: an interrupt of this
 * module, which only aer_inject raises (irq_inject_interrupt(), a software
 * resend)
 */
static int tpl_map_irq(const struct pci_dev *pdev, u8 slot, u8 pin)
{
	return tpl_irq;
}

static int tpl_alloc_irq(void)
{
	tpl_irq = irq_alloc_desc(NUMA_NO_NODE);
	if (tpl_irq < 0)
		return tpl_irq;
	irq_set_chip_and_handler(tpl_irq, &dummy_irq_chip, handle_simple_irq);
	return 0;
}

/* The first domain above the 16-bit ACPI segments that is free, as VMD's */
static int tpl_free_domain(void)
{
	struct pci_bus *bus = NULL;
	int domain = 0xffff;

	while ((bus = pci_find_next_bus(bus)))
		domain = max(domain, pci_domain_nr(bus));
	return domain + 1;
}

static int __init tpl_init(void)
{
	LIST_HEAD(resources);
	int i, ret;

	tpl_init_fns();
	ret = tpl_alloc_irq();
	if (ret)
		return ret;

	tpl_parent = platform_device_register_simple(TPL_NAME, -1, NULL, 0);
	if (IS_ERR(tpl_parent)) {
		ret = PTR_ERR(tpl_parent);
		goto err_irq;
	}

	ret = pci_register_driver(&tpl_driver);
	if (ret)
		goto err_parent;

	pci_add_resource(&resources, &tpl_busn);

	pci_lock_rescan_remove();
	tpl_sysdata.domain = tpl_free_domain();
	tpl_sysdata.node = NUMA_NO_NODE;
	tpl_bus = pci_create_root_bus(&tpl_parent->dev, 0, &tpl_ops,
				      &tpl_sysdata, &resources);
	if (!tpl_bus) {
		pci_unlock_rescan_remove();
		pci_free_resource_list(&resources);
		ret = -ENODEV;
		goto err_driver;
	}
	/* PME would need an interrupt on every port: only rp0 has one */
	to_pci_host_bridge(tpl_bus->bridge)->native_pme = 0;
	to_pci_host_bridge(tpl_bus->bridge)->map_irq = tpl_map_irq;
	to_pci_host_bridge(tpl_bus->bridge)->swizzle_irq = pci_common_swizzle;
	tpl_acpi_companion();
	pci_scan_child_bus(tpl_bus);
	ret = tpl_get_fns();
	if (ret) {
		pci_stop_root_bus(tpl_bus);
		pci_remove_root_bus(tpl_bus);
		pci_unlock_rescan_remove();
		goto err_devs;
	}
	pci_bus_add_devices(tpl_bus);
	pci_unlock_rescan_remove();

	tpl_debugfs_init();
	register_syscore(&tpl_syscore);
	pr_info("domain %04x: ep0 Max Latencies 0x%04x/0x%04x\n",
		tpl_sysdata.domain, snoop & TPL_LTR_MASK, nosnoop & TPL_LTR_MASK);
	return 0;

err_devs:
	for (i = 0; i < TPL_NFN; i++)
		pci_dev_put(tpl_fns[i].pdev);
err_driver:
	pci_unregister_driver(&tpl_driver);
err_parent:
	platform_device_unregister(tpl_parent);
err_irq:
	irq_free_desc(tpl_irq);
	return ret;
}
module_init(tpl_init);

static void __exit tpl_exit(void)
{
	int i;

	unregister_syscore(&tpl_syscore);
	debugfs_remove_recursive(tpl_dir);

	for (i = 0; i < TPL_NFN; i++)
		if (dev_pm_qos_request_active(&tpl_fns[i].req))
			dev_pm_qos_remove_request(&tpl_fns[i].req);

	pci_lock_rescan_remove();
	pci_stop_root_bus(tpl_bus);
	pci_remove_root_bus(tpl_bus);
	pci_unlock_rescan_remove();

	for (i = 0; i < TPL_NFN; i++)
		pci_dev_put(tpl_fns[i].pdev);
	pci_unregister_driver(&tpl_driver);
	platform_device_unregister(tpl_parent);
	irq_free_desc(tpl_irq);
}
module_exit(tpl_exit);

MODULE_DESCRIPTION("Test host bridge for the PCIe LTR backend of latency tolerance PM QoS");
MODULE_LICENSE("GPL");
