#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table of `make bench`, from the logs bench/bench.sh left in DIR.

    report.py [--rounds N] [--timings FILE] DIR

DIR/upstream/ and DIR/ours/ each hold traffic.log (the boot with the
mmio-count QEMU plugin: BENCH ltr and BENCH window lines), mmio.txt (the
plugin's counts, one line per window) and round-N.log (the timing boots:
BENCH upath, BENCH kpath and BENCH isolation lines).  Prints one table with both kernels,
ours / upstream and which direction is better; writes DIR/ltr-fidelity.dat,
DIR/ltr-fidelity.gp and, with gnuplot, DIR/ltr-fidelity.png.  Exits 1 if a
log is missing or malformed; timings are never judged.
"""

import argparse
import math
import os
import re
import statistics
import subprocess
import sys

KERNELS = ("upstream", "ours")
LABEL = {"upstream": "upstream 6.12", "ours": "ours"}
# Intel LPSS private LTR registers: scale bits 11:10 only
REG_MAX_NS = 1023 << 15
REQ_BIT = 0x8000
# The operations of the isolation workload, as pmqos_bench names them
ISO_OPS = (("lt_other", "latency tolerance update", "latency tolerance update, other device"),
           ("resume_other", "resume latency update", "resume latency update, other device"),
           ("remove_other", "removal of another device", "removal of another device"))
# Callback runs per operation: B's per update, none for C, D's per removal
ISO_CALLBACKS = {"lt_other": 1, "resume_other": 0, "remove_other": 1}


class BenchError(Exception):
    pass


def bench_lines(path):
    """The BENCH lines of a console log, without the prefix."""
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise BenchError(f"{path}: {e.strerror}") from e
    lines = []
    for raw in text.splitlines():
        line = raw.strip("\r\n ")
        i = line.find("BENCH ")
        if i >= 0:
            lines.append(line[i + 6:])
    errors = [ln for ln in lines if ln.startswith("error")]
    if errors:
        raise BenchError(f"{path}: {errors[0]}")
    if "end" not in lines:
        raise BenchError(f"{path}: no 'BENCH end': the guest did not finish")
    return lines


def fields(line):
    return dict(kv.split("=", 1) for kv in line.split() if "=" in kv)


def decode(sw):
    """Latency in ns allowed by the snoop half of SW_LTR, None if no requirement."""
    snoop = sw & 0xFFFF
    if not snoop & REQ_BIT:
        return None
    scale = (snoop >> 10) & 7
    if scale > 5:
        return float("inf")
    return (snoop & 0x3FF) << (5 * scale)


def fidelity(lines):
    pts = []
    for ln in lines:
        if ln.startswith("ltr "):
            f = fields(ln)
            pts.append({"t": int(f["t"]), "rc": int(f["rc"]),
                        "sw": int(f["sw"], 0), "gen": int(f["gen"], 0)})
    if not pts:
        raise BenchError("no LTR sweep in the traffic log")
    res = {"points": pts, "n": len(pts), "rejected": 0, "noreq": 0, "auto": 0,
           "exceeds": 0, "exact": 0, "over_ns": (0, None), "over_pct": (0.0, None),
           "under_in": (0.0, None), "under_all": (0.0, None)}
    for p in pts:
        t = p["t"]
        req = t * 1000
        if p["rc"]:
            res["rejected"] += 1
            p["ns"] = "rejected"
            continue
        if not p["gen"] & 4:
            res["auto"] += 1
        ns = decode(p["sw"])
        p["ns"] = ns
        if ns is None:
            res["noreq"] += 1
            res["exceeds"] += 1
            continue
        if ns == req:
            res["exact"] += 1
        if ns > req:
            res["exceeds"] += 1
            if ns - req > res["over_ns"][0]:
                res["over_ns"] = (ns - req, t)
            if t and 100.0 * (ns - req) / req > res["over_pct"][0]:
                res["over_pct"] = (100.0 * (ns - req) / req, t)
        elif t:
            under = 100.0 * (req - ns) / req
            if under > res["under_all"][0]:
                res["under_all"] = (under, t)
            if req <= REG_MAX_NS and under > res["under_in"][0]:
                res["under_in"] = (under, t)
    return res


def traffic(lines, mmio_path):
    """Per label: [windows, reads, writes], from the guest's labels and the plugin's counts."""
    labels = []
    for ln in lines:
        if ln.startswith("window "):
            w = ln.split()
            f = fields(ln)
            labels.append((int(w[1]), w[2], int(f["rc"])))
    try:
        with open(mmio_path) as f:
            counts = {}
            for ln in f:
                m = re.match(r"window (\d+) reads=(\d+) writes=(\d+)", ln)
                if m:
                    counts[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    except OSError as e:
        return f"n/a ({mmio_path}: {e.strerror})"
    if len(counts) != len(labels):
        return (f"n/a ({len(labels)} windows opened by the guest, "
                f"{len(counts)} counted by the plugin)")
    out = {}
    for idx, label, rc in labels:
        if rc:
            label += "-rejected"
        r, w = counts[idx]
        t = out.setdefault(label, [0, 0, 0])
        t[0] += 1
        t[1] += r
        t[2] += w
    return out


def timing(kdir, rounds):
    """{metric: [value per round]} from round-N.log; a round's value is the
    median of its measurements (BENCH_REPS of each kind).  Isolation: the
    median of the valid measurements only (started while A's callback slept,
    or with A idle for the baseline), in ms; their checks under "isoflags",
    one (valid, sleeping_after, callbacks, slow_ms) per measurement."""
    vals = {}
    for r in range(1, rounds + 1):
        reps = {}
        for ln in bench_lines(os.path.join(kdir, f"round-{r}.log")):
            f = fields(ln)
            if ln.startswith("upath "):
                mode = ln.split()[1]
                reps.setdefault(("upath", mode), []).append(
                    int(f["writes"]) / (int(f["ns"]) / 1e9))
            elif ln.startswith("kpath "):
                wl = ln.split()[1]
                n = int(f["n"])
                iters = int(f["iters"])
                reps.setdefault(("kpath", wl, n), []).append(int(f["ns"]) / iters)
                reps.setdefault(("callbacks", wl, n), []).append(int(f["callbacks"]) / iters)
            elif ln.startswith("isolation "):
                op, idle = f["op"], int(f["idle"])
                valid = int(f["overlapped"]) == (0 if idle else 1)
                reps.setdefault(("isoflags", op, idle), []).append(
                    (valid, int(f["sleeping_after"]), int(f["callbacks"]),
                     int(f.get("slow_ms", 0))))
                if valid:
                    reps.setdefault(("iso", op, idle), []).append(int(f["ns"]) / 1e6)
        for key, v in reps.items():
            if key[0] in ("callbacks", "isoflags"):
                vals.setdefault(key, []).extend(v)
            else:
                vals.setdefault(key, []).append(statistics.median(v))
    return vals


def fmt_num(x, digits=0):
    if isinstance(x, float) and digits:
        return f"{x:,.{digits}f}"
    return f"{round(x):,}"


def fmt_sig(x):
    """x with 3 significant digits (whole numbers from 100 up, at most 4
    decimals), never as an exponent."""
    if x == 0 or abs(x) >= 100:
        return f"{round(x):,}"
    digits = min(4, max(0, 2 - math.floor(math.log10(abs(x)))))
    return f"{x:.{digits}f}"


def stat(vals, digits=0, fmt=None):
    """'median [min-max]' of one metric's rounds."""
    if fmt is None:
        def fmt(x):
            return fmt_num(x, digits)
    med = statistics.median(vals)
    if len(vals) == 1:
        return med, fmt(med)
    return med, f"{fmt(med)} [{fmt(min(vals))}-{fmt(max(vals))}]"


def ratio(ours, upstream, small=False):
    """ours / upstream; with small, a ratio below 0.01 as 1/N (2 significant digits)."""
    if upstream is None or ours is None or isinstance(upstream, str) or isinstance(ours, str):
        return "-"
    if upstream == 0:
        return "-" if ours == 0 else "inf"
    r = ours / upstream
    if small and 0 < r < 0.01:
        return f"1/{float(f'{1 / r:.2g}'):,.0f}"
    return f"{r:,.0f}" if r >= 100 else f"{r:.2f}"


class Table:
    W = (50, 24, 24, 9, 7)

    def __init__(self):
        self.rows = []

    def head(self, text):
        self.rows.append(("", text))

    def row(self, name, up, ours, rat, better):
        self.rows.append(("r", (name, up, ours, rat, better)))

    def note(self, text):
        self.rows.append(("n", text))

    def render(self):
        w = self.W
        out = [f"{'':<{w[0]}} {LABEL['upstream']:>{w[1]}} {LABEL['ours']:>{w[2]}} "
               f"{'ours/up':>{w[3]}} {'better':>{w[4]}}"]
        for kind, r in self.rows:
            if kind == "":
                out.append("")
                out.append(r)
            elif kind == "n":
                out.append(f"    {r}")
            else:
                out.append(f"  {r[0]:<{w[0] - 2}} {r[1]:>{w[1]}} {r[2]:>{w[2]}} "
                           f"{r[3]:>{w[3]}} {r[4]:>{w[4]}}")
        return "\n".join(out)


def at(value_t, unit, digits=0):
    v, t = value_t
    if t is None:
        return "0"
    return f"{fmt_num(v, digits)}{unit} @{t:,}us"


def plot(outdir, fid):
    dat = os.path.join(outdir, "ltr-fidelity.dat")
    gp = os.path.join(outdir, "ltr-fidelity.gp")
    png = os.path.join(outdir, "ltr-fidelity.png")
    noreq_y = 4.0
    sets = []
    with open(dat, "w") as f:
        f.write("# LTR fidelity: requested tolerance t (us), programmed/requested\n")
        f.write("# (programmed latency decoded from SW_LTR; 'no requirement' drawn at "
                f"y={noreq_y}); blocks: " + ", ".join(
                    f"{k} {kind}" for k in KERNELS for kind in ("finite", "no-req")) + "\n")
        idx = 0
        for k in KERNELS:
            finite = [(p["t"], p["ns"] / (p["t"] * 1000.0)) for p in fid[k]["points"]
                      if p["t"] > 0 and isinstance(p["ns"], int)]
            noreq = [(p["t"], noreq_y) for p in fid[k]["points"]
                     if p["t"] > 0 and p["ns"] is None]
            for kind, pts in (("finite", finite), ("noreq", noreq)):
                f.write(f"# {k} {kind}\n")
                for t, y in pts:
                    f.write(f"{t} {y:.6f}\n")
                f.write("\n\n")
                if pts:
                    sets.append((idx, k, kind))
                idx += 1
    style = {"upstream": "lc rgb '#d62728'", "ours": "lc rgb '#1f77b4'"}

    def plots(zoom):
        cmds = []
        # upstream drawn last, so that it shows where the two coincide
        for idx, k, kind in sorted(sets, key=lambda s: s[1] == "upstream"):
            if kind == "finite":
                cmds.append(f"'{dat}' index {idx} using 1:2 with linespoints pt 7 ps 0.5 "
                            f"{style[k]} title '{LABEL[k]}'")
            elif not zoom:
                cmds.append(f"'{dat}' index {idx} using 1:2 with points pt 2 ps 1 "
                            f"{style[k]} title '{LABEL[k]}: no requirement (unbounded)'")
        cmds.append("1 with lines dt 2 lc rgb 'gray40' notitle")
        return ", \\\n     ".join(cmds)

    with open(gp, "w") as f:
        f.write(f"""set terminal pngcairo size 1100,900 font ',10' noenhanced
set output '{png}'
set multiplot layout 2,1 title 'LTR fidelity on the emulated Intel LPSS device: latency programmed into SW_LTR / tolerance requested'
set logscale x
set xrange [0.8:2e7]
set xtics ('1 us' 1, '10 us' 10, '100 us' 100, '1 ms' 1e3, '10 ms' 1e4, '100 ms' 1e5, '1 s' 1e6, '10 s' 1e7)
set mxtics 10
set xlabel 'requested latency tolerance'
set grid
set key left bottom
set arrow from {REG_MAX_NS / 1000.0},graph 0 to {REG_MAX_NS / 1000.0},graph 1 nohead dt 3 lc rgb 'gray50'
set label 'SW_LTR max (33.52 ms)' at {REG_MAX_NS / 1000.0 * 1.15},graph 0.92 font ',8'
set title 'whole sweep (log scale; above 1 = the device may take longer than tolerated)'
set logscale y
set yrange [1e-3:10]
set ylabel 'programmed / requested'
plot {plots(False)}
unset logscale y
set title 'zoom: within 5 %'
set yrange [0.95:1.05]
set ytics 0.01
set key left top
plot {plots(True)}
unset multiplot
""")
    try:
        r = subprocess.run(["gnuplot", gp], capture_output=True, text=True)
    except OSError as e:
        return f"not drawn: gnuplot: {e.strerror}"
    if r.returncode:
        return f"not drawn: gnuplot failed: {r.stderr.strip()}"
    return png


def isolation(t, tim):
    """Section 5: operations on other devices while A's callback sleeps, and with A idle."""
    flags = {k: {key[1:]: v for key, v in tim[k].items() if key[0] == "isoflags"}
             for k in KERNELS}
    slow = sorted({fl[3] for k in KERNELS for v in flags[k].values() for fl in v} - {0})
    slow_txt = "/".join(str(ms) for ms in slow) if slow else "500"
    t.head(f"5. Isolation: while another device's callback sleeps {slow_txt} ms "
           "(ms, lower is better)")
    if not any(flags[k] for k in KERNELS):
        t.note("no BENCH isolation lines in the logs (pmqos_bench.ko without isolation=1?)")
        return

    def rounds(k, op, idle):
        return tim[k].get(("iso", op, idle))

    for idle, prefix in ((0, ""), (1, "baseline, A idle: ")):
        for op, short, what in ISO_OPS:
            name = what if not idle else prefix + short
            up, ou = rounds("upstream", op, idle), rounds("ours", op, idle)
            if not up or not ou:
                t.row(name, stat(up, fmt=fmt_sig)[1] if up else "n/a",
                      stat(ou, fmt=fmt_sig)[1] if ou else "n/a", "-", "lower")
                continue
            mu, su = stat(up, fmt=fmt_sig)
            mo, so = stat(ou, fmt=fmt_sig)
            t.row(name, su, so, ratio(mo, mu, small=True), "lower")

    # sleeping / idle, per round, from the rounds that have both
    for op, short, _ in ISO_OPS:
        cells, meds = [], []
        for k in KERNELS:
            busy, idle = rounds(k, op, 0), rounds(k, op, 1)
            if not busy or not idle or len(busy) != len(idle) or 0 in idle:
                cells.append("n/a")
                meds.append(None)
                continue
            m, s = stat([b / i for b, i in zip(busy, idle)], fmt=fmt_sig)
            cells.append(s)
            meds.append(m)
        t.row(f"sleeping / idle: {short}", cells[0], cells[1],
              ratio(meds[1], meds[0], small=True), "lower")

    invalid, waited, bad_cb = [], [], []
    for k in KERNELS:
        for op, _, _ in ISO_OPS:
            for idle in (0, 1):
                fl = flags[k].get((op, idle), [])
                bad = sum(1 for f in fl if not f[0])
                if bad:
                    invalid.append(f"{LABEL[k]} {op}{' idle' if idle else ''} {bad}/{len(fl)}")
                if any(f[2] != ISO_CALLBACKS[op] for f in fl):
                    bad_cb.append(f"{LABEL[k]} {op}{' idle' if idle else ''}")
        if not flags[k]:
            waited.append(f"{LABEL[k]}: no isolation lines")
            continue
        done = []
        for op, _, _ in ISO_OPS:
            fl = [f for f in flags[k].get((op, 0), []) if f[0]]
            done.append(f"{op} {sum(f[1] for f in fl)}/{len(fl)}")
        waited.append(f"{LABEL[k]}: " + ", ".join(done))
    t.note("A's ->set_latency_tolerance() callback sleeps, run by a kthread; each")
    t.note("operation is timed alone once the sleep has begun, then with A idle.")
    t.note("Measurements that started while A's callback slept (idle: while it did not):")
    t.note("all of them." if not invalid else
           "NOT all, these left out: " + ", ".join(invalid))
    t.note("Returned while A's callback still slept (did not wait for it):")
    for w in waited:
        t.note("  " + w)
    t.note("Callbacks counted (B's per update, D's per removal): as expected in every round."
           if not bad_cb else "Callbacks NOT as expected in: " + ", ".join(bad_cb))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--timings")
    ap.add_argument("dir")
    a = ap.parse_args()

    fid, trf, tim, version = {}, {}, {}, {}
    for k in KERNELS:
        kdir = os.path.join(a.dir, k)
        lines = bench_lines(os.path.join(kdir, "traffic.log"))
        version[k] = next((ln.split()[1] for ln in lines if ln.startswith("kernel ")), "?")
        fid[k] = fidelity(lines)
        trf[k] = traffic(lines, os.path.join(kdir, "mmio.txt"))
        tim[k] = timing(kdir, a.rounds)

    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f
                        if ln.startswith("model name")), "?")
    except OSError:
        pass
    try:
        qemu = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True,
                              text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        qemu = "qemu-system-x86_64 ?"

    print("make bench: latency tolerance device PM QoS, upstream 6.12 against ours")
    print(f"  upstream: pristine Debian linux-source-6.12 ({version['upstream']}), "
          "mainline's own implementation")
    print(f"  ours:     the base (upstream's removed) plus our series ({version['ours']})")
    print("  same config (configs/test.config + configs/bench.config), same QEMU rig")
    print(f"  host: {cpu}, {os.cpu_count()} CPUs; {qemu}, TCG (no KVM), 1 vCPU")
    print()
    print("  Absolute numbers under QEMU TCG mean little (emulated CPU, shared host):")
    print("  the ratios ours/upstream, measured in one run on the same machine, are")
    print(f"  the result.  Timings: median [min-max] over {a.rounds} rounds (one boot per")
    print("  kernel per round, the kernels taking turns) of each round's median of its")
    print("  repeated measurements.  Fidelity and register traffic are exact and")
    print("  deterministic: one boot per kernel.  Nothing here passes or fails.")

    t = Table()
    n = fid["ours"]["n"]
    t.head(f"1. LTR fidelity: {n} tolerances, 0 us to 10 s (scale boundaries + "
           "log sweep), SW_LTR read back")
    F = {k: fid[k] for k in KERNELS}
    t.row("tolerances the device may exceed (over or none)",
          str(F["upstream"]["exceeds"]), str(F["ours"]["exceeds"]),
          ratio(F["ours"]["exceeds"], F["upstream"]["exceeds"]), "lower")
    t.row("largest overshoot, ns (with a requirement)",
          at(F["upstream"]["over_ns"], ""), at(F["ours"]["over_ns"], ""),
          ratio(F["ours"]["over_ns"][0], F["upstream"]["over_ns"][0]), "lower")
    t.row("largest overshoot, %",
          at(F["upstream"]["over_pct"], "%", 2), at(F["ours"]["over_pct"], "%", 2),
          ratio(F["ours"]["over_pct"][0], F["upstream"]["over_pct"][0]), "lower")
    t.row("finite tolerances made 'no requirement'",
          str(F["upstream"]["noreq"]), str(F["ours"]["noreq"]),
          ratio(F["ours"]["noreq"], F["upstream"]["noreq"]), "lower")
    t.row("largest undershoot, %, up to 33 521 us",
          at(F["upstream"]["under_in"], "%", 2), at(F["ours"]["under_in"], "%", 2),
          ratio(F["ours"]["under_in"][0], F["upstream"]["under_in"][0]), "lower")
    t.row("largest undershoot, %, whole sweep (1)",
          at(F["upstream"]["under_all"], "%", 2), at(F["ours"]["under_all"], "%", 2),
          ratio(F["ours"]["under_all"][0], F["upstream"]["under_all"][0]), "lower")
    t.row("programmed exactly (ns == requested)",
          str(F["upstream"]["exact"]), str(F["ours"]["exact"]),
          ratio(F["ours"]["exact"], F["upstream"]["exact"]), "higher")
    for k in KERNELS:
        if F[k]["rejected"] or F[k]["auto"]:
            t.note(f"{LABEL[k]}: {F[k]['rejected']} writes rejected, "
                   f"{F[k]['auto']} left the device in auto mode")
    t.note("(1) SW_LTR holds at most 1023 x 32768 ns = 33.52 ms: above that a finite")
    t.note("    tolerance is either kept as the largest latency (undershoot) or dropped")
    t.note("    to 'no requirement' (unbounded overshoot); the first row counts the latter.")

    t.head("2. User path: writes/s to INT33C0:00/power/pm_qos_latency_tolerance_us")
    for mode, what in (("alternate", "10/20 alternating: every write changes"),
                       ("same", "10 again and again: no write changes")):
        up = tim["upstream"].get(("upath", mode))
        ou = tim["ours"].get(("upath", mode))
        if not up or not ou:
            t.row(what, "n/a", "n/a", "-", "higher")
            continue
        mu, su = stat(up)
        mo, so = stat(ou)
        t.row(what, su, so, ratio(mo, mu), "higher")

    t.head("3. Kernel path: ns per dev_pm_qos_update_request(), N active requests")
    ns = sorted({key[2] for k in KERNELS for key in tim[k] if key[0] == "kpath"})
    bad_cb = []
    for wl, what in (("change", "min changes"), ("nochange", "min unchanged")):
        for n in ns:
            up = tim["upstream"].get(("kpath", wl, n))
            ou = tim["ours"].get(("kpath", wl, n))
            if not up and not ou:
                continue
            if not up or not ou:
                t.row(f"{what}, N={n:,}", "n/a", "n/a", "-", "lower")
                continue
            mu, su = stat(up, 0)
            mo, so = stat(ou, 0)
            t.row(f"{what}, N={n:,}", su, so, ratio(mo, mu), "lower")
            want = 1.0 if wl == "change" else 0.0
            for k in KERNELS:
                if any(c != want for c in tim[k][("callbacks", wl, n)]):
                    bad_cb.append(f"{LABEL[k]} {wl} N={n}")
    t.note("min changes: the updated request alternates 10/20 us below N-1 others")
    t.note("(1000 us and up), so each update runs the device callback; min unchanged:")
    t.note("another request holds 5 us, the callback never runs.  Callbacks counted:")
    t.note("as expected in every round." if not bad_cb else
           "NOT as expected in: " + ", ".join(bad_cb))

    t.head("4. Register traffic: kernel MMIO accesses to the LPSS page (QEMU plugin)")
    ok = all(isinstance(trf[k], dict) for k in KERNELS)
    if not ok:
        for k in KERNELS:
            if not isinstance(trf[k], dict):
                t.note(f"{LABEL[k]}: {trf[k]}")
    else:
        def per(k, label, i):
            c = trf[k].get(label)
            return None if not c else c[i] / c[0]

        def rw(k, label):
            c = trf[k].get(label)
            if not c:
                return "n/a", None
            r, w = c[1] / c[0], c[2] / c[0]
            return f"{r:.2g} R + {w:.2g} W", r + w

        for i, what in ((1, "reads per effective change (sweep)"),
                        (2, "writes per effective change (sweep)")):
            up, ou = per("upstream", "sweep", i), per("ours", "sweep", i)
            t.row(what, f"{up:.2f}", f"{ou:.2f}", ratio(ou, up), "lower")
        for label, what in (("auto-to-value", "auto -> 500 us, per change"),
                            ("value-to-any", "700 us -> any, per change"),
                            ("any-to-auto", "any -> auto, per change"),
                            ("same-value", "700 us again: no change, per write"),
                            ("auto-again", "auto again: no change, per write")):
            su, tu = rw("upstream", label)
            so, to = rw("ours", label)
            t.row(what, su, so, ratio(to, tu), "lower")
        cnt = trf["ours"].get("sweep", [0])[0]
        t.note(f"exact counts from one boot ({cnt} changes in the sweep): every guest")
        t.note("access with a kernel virtual address to the page, between two markers")
        t.note("the guest reads around each sysfs write.  R = reads, W = writes.")

    isolation(t, tim)

    print()
    print(t.render())

    png = plot(a.dir, fid)
    print()
    print(f"plot: {png}")
    print(f"data: {os.path.join(a.dir, 'ltr-fidelity.dat')}; logs: {a.dir}/{{upstream,ours}}/")
    if a.timings:
        try:
            with open(a.timings) as f:
                parts = [ln.split() for ln in f if ln.strip()]
            print("wall time: " + ", ".join(f"{p[0]} {p[1]} s" for p in parts if len(p) == 2))
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        print(f"bench/report.py: {e}", file=sys.stderr)
        sys.exit(1)
