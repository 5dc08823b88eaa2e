#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table of `make bench`, from the logs bench/bench.sh left in DIR.

    report.py [--rounds N] [--timings FILE] [--layouts FILE] [--quick] DIR

DIR/upstream/ and DIR/ours/ each hold traffic.log (the boot with the
mmio-count QEMU plugin: BENCH ltr and BENCH window lines), mmio.txt (the
plugin's counts, one line per window), round-N.log (the timing boots:
BENCH upath, kpath, isolation and rate lines) and smp-N.log (the two-CPU
boots: BENCH smp lines; optional); DIR/ours/pcie.log (the test kernel's
boot: BENCH pcie lines; optional) gives section 1b, ours alone, not judged.
Prints one table with both kernels, ours / upstream and which direction is
better, then the per-round ratios ours / upstream (each from the same
round's two boots) with their median and spread, and a verdict (with the
user path rows less the same boot's power/control, in ns per write, as
evidence beside it); with --quick (make bench QUICK=1) it says, first and
last, that the run is a smoke test and gives no verdict.  --layouts FILE
(bench.sh's 'R PAD' lines: the bytes round R moved the kernels' text by)
lists each round's code layout in the header.  Writes DIR/ltr-fidelity.dat,
DIR/ltr-fidelity.gp and, with gnuplot, DIR/ltr-fidelity.png.  Exits 1 if
traffic.log is missing or malformed, or (after the table) if a timing or
smp log is missing, malformed or holds a BENCH error line (pcie.log too, if
it is there); rows it cannot fill say so.  The verdict never changes the
exit status.
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
# PCIe Max Snoop/No-Snoop Latency registers: scales 0-5 (6 and 7 reserved),
# at most 1023 << 25 ns; the two words of BENCH pcie lines and their names
PCIE_SCALE_MAX = 5
PCIE_MAX_NS = 1023 << 25
PCIE_WORDS = (("snoop", "snoop"), ("nosnoop", "no-snoop"))
# The ceiling bench/bench.sh gives both (firmware's values, on the kernel
# command line): the largest latency they hold, 34.33 s, above the sweep
PCIE_CEILING = 0x17FF
# The operations of the isolation workload, as pmqos_bench names them
ISO_OPS = (("lt_other", "latency tolerance update", "latency tolerance update, other device"),
           ("resume_other", "resume latency update", "resume latency update, other device"),
           ("remove_other", "removal of another device", "removal of another device"))
# Callback runs per operation: B's per update, none for C, D's per removal
ISO_CALLBACKS = {"lt_other": 1, "resume_other": 0, "remove_other": 1}


class BenchError(Exception):
    pass


def bench_lines(path):
    """The BENCH lines of a console log, without the prefix: "BENCH "
    wherever it stands in its line (after console noise, or indented as
    the output of a KTAP subtest)."""
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


def new_score(n):
    """The counts of a fidelity sweep of n tolerances, before any."""
    return {"n": n, "noreq": 0, "exceeds": 0, "exact": 0, "over_ns": (0, None),
            "over_pct": (0.0, None), "under_in": (0.0, None), "under_all": (0.0, None)}


def score(res, t, ns, max_ns):
    """Counts into res one tolerance of t us programmed as ns (None: no
    requirement); under_in only for tolerances up to max_ns, what the
    register holds at most."""
    req = t * 1000
    if ns is None:
        res["noreq"] += 1
        res["exceeds"] += 1
        return
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
        if req <= max_ns and under > res["under_in"][0]:
            res["under_in"] = (under, t)


def fidelity(lines):
    pts = []
    for ln in lines:
        if ln.startswith("ltr "):
            f = fields(ln)
            pts.append({"t": int(f["t"]), "rc": int(f["rc"]),
                        "sw": int(f["sw"], 0), "gen": int(f["gen"], 0)})
    if not pts:
        raise BenchError("no LTR sweep in the traffic log")
    res = new_score(len(pts))
    res.update({"points": pts, "rejected": 0, "auto": 0})
    for p in pts:
        if p["rc"]:
            res["rejected"] += 1
            p["ns"] = "rejected"
            continue
        if not p["gen"] & 4:
            res["auto"] += 1
        p["ns"] = decode(p["sw"])
        score(res, p["t"], p["ns"], REG_MAX_NS)
    return res


def decode_max_lat(word):
    """Latency in ns allowed by a PCIe Max Snoop/No-Snoop Latency register
    word (value bits 9:0, scale bits 12:10), None for a reserved scale (6,
    7): no usable bound, counted as 'no requirement'."""
    scale = (word >> 10) & 7
    if scale > PCIE_SCALE_MAX:
        return None
    return (word & 0x3FF) << (5 * scale)


def pcie_fidelity(path, problems):
    """The PCIe sweep of the test kernel's boot (BENCH pcie lines): per
    register word (PCIE_WORDS) its score, and "keywords": {auto/any:
    (snoop, nosnoop)}.  None if the log is absent (a run without the PCIe
    boot); a string saying why if it cannot be used, with a line in problems."""
    if not os.path.exists(path):
        return None
    try:
        lines = bench_lines(path)
        pts, keywords = [], {}
        for ln in lines:
            if not ln.startswith("pcie "):
                continue
            f = fields(ln)
            words = tuple(int(f[w], 16) for w, _ in PCIE_WORDS)
            if f["us"] in ("auto", "any"):
                keywords[f["us"]] = words
            else:
                pts.append((int(f["us"]), words))
    except (BenchError, KeyError, ValueError) as e:
        why = str(e) if isinstance(e, BenchError) else f"{path}: malformed: {e!r}"
        problems.append(why)
        return why
    if not pts:
        problems.append(f"{path}: no BENCH pcie lines")
        return f"{path}: no BENCH pcie lines"
    res = {"n": len(pts), "keywords": keywords}
    for i, (w, _) in enumerate(PCIE_WORDS):
        res[w] = new_score(len(pts))
        for t, words in pts:
            score(res[w], t, decode_max_lat(words[i]), PCIE_MAX_NS)
    return res


def holder_figures(path, problems):
    """The requests held through /dev/latency_tolerance in the test kernel's
    boot (BENCH holders lines of hold-bench): {"rate": holds per second,
    "update": {n: ns per write}}.  None without the log; a string saying why
    if it cannot be used, with a line in problems."""
    if not os.path.exists(path):
        return None
    res = {"rate": None, "update": {}}
    try:
        for ln in bench_lines(path):
            if not ln.startswith("holders "):
                continue
            f = fields(ln)
            if ln.startswith("holders rate "):
                res["rate"] = int(f["holds"]) * 1e9 / int(f["ns"])
            elif ln.startswith("holders update "):
                res["update"][int(f["n"])] = int(f["ns"]) / int(f["writes"])
    except (BenchError, KeyError, ValueError, ZeroDivisionError) as e:
        why = str(e) if isinstance(e, BenchError) else f"{path}: malformed: {e!r}"
        problems.append(why)
        return why
    if res["rate"] is None or not res["update"]:
        problems.append(f"{path}: no BENCH holders lines")
        return f"{path}: no BENCH holders lines"
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


# The keys whose values are kept per measurement (checks), not per round
FLAG_KEYS = ("callbacks", "isoflags", "rateflags", "smpflags")


def timing(kdir, rounds, problems):
    """{metric: {round: value}} from round-N.log and smp-N.log; a round's
    value is the median of its measurements (BENCH_REPS of each kind).
    Isolation: the median of the valid measurements only (started while A's
    callback slept, or with A idle for the baseline), in ms; their checks
    under "isoflags", one (valid, sleeping_after, callbacks, slow_ms) per
    measurement.  Rates: updates/s, checks under "rateflags", one
    (a_calls, callbacks, updates, rate_ms, busy_ms) per window; smp:
    updates/s, checks under "smpflags", one (callbacks, updates) per run.
    A log that cannot be read or holds an error line is left out, with a
    line in problems; missing smp logs (BENCH_SMP=0) only leave
    "smp_logs" 0."""
    vals = {}
    smp_logs = 0
    for r in range(1, rounds + 1):
        reps = {}
        paths = [os.path.join(kdir, f"round-{r}.log")]
        smp_path = os.path.join(kdir, f"smp-{r}.log")
        if os.path.exists(smp_path):
            paths.append(smp_path)
            smp_logs += 1
        for path in paths:
            try:
                lines = bench_lines(path)
            except BenchError as e:
                problems.append(str(e))
                continue
            for ln in lines:
                parse_timing_line(ln, reps)
        for key, v in reps.items():
            if key[0] in FLAG_KEYS:
                vals.setdefault(key, []).extend(v)
            else:
                vals.setdefault(key, {})[r] = statistics.median(v)
    vals["smp_logs"] = smp_logs
    return vals


def parse_timing_line(ln, reps):
    """One BENCH line of a timing or smp boot into reps {key: [values]}."""
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
             int(f["slow_ms"])))
        if valid:
            reps.setdefault(("iso", op, idle), []).append(int(f["ns"]) / 1e6)
    elif ln.startswith("rate "):
        op, a = f["op"], f["a"]
        updates, ns = int(f["updates"]), int(f["ns"])
        reps.setdefault(("rateflags", op, a), []).append(
            (int(f["a_calls"]), int(f["callbacks"]), updates, int(f["rate_ms"]),
             int(f["busy_ms"])))
        if ns > 0:
            reps.setdefault(("rate", op, a), []).append(updates / (ns / 1e9))
    elif ln.startswith("cpus "):
        reps.setdefault(("cpus",), []).append(int(ln.split()[1]))
    elif ln.startswith("smp "):
        cpus = int(f["cpus"])
        updates, ns = int(f["updates"]), int(f["ns"])
        reps.setdefault(("smpflags", cpus), []).append(
            (int(f["callbacks"]), updates))
        if ns > 0:
            reps.setdefault(("smp", cpus), []).append(updates / (ns / 1e9))


def per_round(tim, key):
    """[(round, ours / upstream)] over the rounds where both kernels have
    key (each round's own two boots) and upstream's value is above zero
    (a difference, such as ns above the control, may not be), by round."""
    up, ou = tim["upstream"].get(key) or {}, tim["ours"].get(key) or {}
    return [(r, ou[r] / up[r]) for r in sorted(set(up) & set(ou)) if up[r] > 0]


def divide(a, b):
    return a / b


def ns_above(rate, control):
    """ns per write at rate above ns per write at control (both writes/s)."""
    return 1e9 / rate - 1e9 / control


def derived(tim, key, num, den, op=divide):
    """Per kernel, per round: op(num, den) of that round (by default num /
    den, e.g. busy / idle, N=10,000 / N=1), stored under key; rounds
    lacking either are left out."""
    for k in KERNELS:
        a, b = tim[k].get(num) or {}, tim[k].get(den) or {}
        d = {r: op(a[r], b[r]) for r in sorted(set(a) & set(b)) if b[r]}
        if d:
            tim[k][key] = d


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


def stat(vals, fmt):
    """'median [min-max]' of one metric's rounds."""
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt(med)
    return f"{fmt(med)} [{fmt(min(vals))}-{fmt(max(vals))}]"


def ratio(ours, upstream, small=False):
    """ours / upstream; with small, a ratio below 0.01 as 1/N (2 significant digits)."""
    if upstream is None or ours is None:
        return "-"
    if upstream == 0:
        return "-" if ours == 0 else "inf"
    return fmt_ratio(ours / upstream, small)


def fmt_ratio(r, small=False):
    """A ratio: 2 decimals, whole from 100 up; with small, below 0.01 as 1/N."""
    if small and 0 < r < 0.01:
        return f"1/{float(f'{1 / r:.2g}'):,.0f}"
    return f"{r:,.0f}" if r >= 100 else f"{r:.2f}"


class Ratios:
    """The rows compared round by round: ours / upstream from each round's
    own two boots, their median and spread.  Filled as the table is made,
    printed after it (section 8) and judged by the verdict."""

    def __init__(self):
        self.rows = []      # (group, name, better, [(round, ratio)], small)
        self.missing = []   # (group, name, why)

    def add(self, group, name, better, pairs, small=False):
        self.rows.append((group, name, better, pairs, small))

    def lack(self, group, name, why):
        self.missing.append((group, name, why))

    def get(self, group):
        return [r for r in self.rows if r[0] == group]

    @staticmethod
    def spread_note(name, pairs):
        """The note on a row whose spread is wider than its effect, or None."""
        rs = [r for _, r in pairs]
        if len(rs) < 2:
            return None
        med, lo, hi = statistics.median(rs), min(rs), max(rs)
        width, effect = hi - lo, abs(med - 1)
        if lo <= 1 <= hi and lo < hi:
            return (f"{name}: the per-round ratios straddle 1.00 "
                    f"({lo:.2f}-{hi:.2f}, median {med:.2f}): this run does not say "
                    "which kernel is ahead")
        if width > effect:
            return (f"{name}: spread {lo:.2f}-{hi:.2f} ({width:.2f}) is wider than "
                    f"the effect |{med:.2f} - 1| = {effect:.2f}")
        return None

    def render(self):
        """A markdown table (to paste into a closing note), then the notes."""
        rounds = sorted({r for _, _, _, p, _ in self.rows for r, _ in p})
        head = (["row", "better"] + [f"r{r}" for r in rounds] +
                ["median", "spread", "n"])
        body, notes = [], []
        for group, name, better, pairs, small in self.rows:
            rd = dict(pairs)
            rs = [r for _, r in pairs]
            if rs:
                med = fmt_ratio(statistics.median(rs), small)
                spr = (f"{fmt_ratio(min(rs), small)}-{fmt_ratio(max(rs), small)}"
                       if len(rs) > 1 else "-")
            else:
                med = spr = "n/a"
            note = self.spread_note(f"{group}: {name}", pairs)
            mark = "!" if note else ""
            if note:
                notes.append(note)
            body.append([f"{group}: {name}", better] +
                        [fmt_ratio(rd[r], small) if r in rd else "-" for r in rounds] +
                        [med + mark, spr, str(len(rs))])
        for group, name, why in self.missing:
            body.append([f"{group}: {name}", "-"] + ["-"] * len(rounds) +
                        ["missing", "-", "0"])
            notes.append(f"{group}: {name}: missing ({why})")
        if not body:
            return ["(no rows)"], notes
        widths = [max(len(row[i]) for row in [head] + body) for i in range(len(head))]

        def line(cells):
            return "| " + " | ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths))) + " |"
        out = [line(head),
               "|" + "|".join(("-" * (w + 1) + ":") if i else ("-" * (w + 2))
                              for i, w in enumerate(widths)) + "|"]
        out += [line(row) for row in body]
        return out, notes


def compare(t, run, group, name, key, better, fmt=fmt_num, small=False, listed=True):
    """One table row for key: each kernel's median [min-max] over the rounds,
    and the median of the per-round ratios ours / upstream; listed in
    section 8 (as missing when a kernel has no value) unless not listed."""
    up, ou = run.tim["upstream"].get(key), run.tim["ours"].get(key)
    cells = [stat(list(v.values()), fmt) if v else "n/a" for v in (up, ou)]
    pairs = per_round(run.tim, key)
    if not pairs:
        t.row(name, cells[0], cells[1], "-", better)
        why = ("no value for " + " or ".join(
            LABEL[k] for k, v in (("upstream", up), ("ours", ou)) if not v)
            if not (up and ou) else "no round with both kernels")
        if listed:
            run.ratios.lack(group, name, why)
        return
    t.row(name, cells[0], cells[1], fmt_ratio(statistics.median(r for _, r in pairs), small),
          better)
    if listed:
        run.ratios.add(group, name, better, pairs, small)


def good_or(bad, good, prefix):
    """A check's note: good if nothing is in bad, else prefix and bad."""
    return prefix + ", ".join(bad) if bad else good


class Table(list):
    """The lines of one section of the table: its head, rows (a name, each
    kernel's cell, ours/up, which is better) and notes."""
    W = (50, 24, 24, 9, 7)

    def head(self, text):
        self.extend(["", text])

    def row(self, name, up, ours, rat, better):
        w = self.W
        self.append(f"  {name:<{w[0] - 2}} {up:>{w[1]}} {ours:>{w[2]}} "
                    f"{rat:>{w[3]}} {better:>{w[4]}}")

    def note(self, *texts):
        self.extend(f"    {text}" for text in texts)


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


SMOKE = ("QUICK RUN: a smoke test, not evidence.  Fewer rounds, request counts,",
         "iterations and shorter windows: it shows that the bench runs on both",
         "kernels, not which one is faster.  No verdict; run make bench for one.")


def read_layouts(path):
    """The pad of each round, in round order, from bench.sh's layouts file."""
    if not path or not os.path.exists(path):
        return []
    pads = {}
    with open(path) as f:
        for line in f:
            r, pad = line.split()
            pads[int(r)] = pad
    return [pads[r] for r in sorted(pads)]


def holders_section(run):
    """Section 1c: requests held by open files, ours only (mainline has no
    /dev/latency_tolerance), not judged; nothing for a run without pcie.log."""
    t, h = Table(), run.holders
    if h is None:
        return t
    head = "1c. Requests held by open files (ours only: /dev/latency_tolerance)"
    t.head(head)
    if isinstance(h, str):
        t.note(f"missing: {h}")
        return t
    t.row("holds + releases per second", "-", fmt_num(h["rate"], 0), "-", "higher")
    ns = h["update"]
    for n in sorted(ns):
        t.row(f"ns per held request update, {n:,} holders", "-", fmt_num(ns[n], 0),
              "-", "lower")
    lo, hi = min(ns), max(ns)
    if hi > lo:
        t.row(f"growth, {hi:,} holders / {lo:,}", "-", f"{ns[hi] / ns[lo]:.2f}x", "-",
              "lower")
    t.note("The test kernel's boot, bench/hold-bench.c on ep0's attribute (set to 1 us, so",
           "no callback runs): open + ioctl + write + close per hold; a write of a holder",
           "amid N-1 others, each holding a value of its own (the sorted list's worst",
           "case).  Not judged.")
    return t


def load(run):
    """run (the parsed arguments) with the parsed logs of run.dir."""
    run.fid, run.trf, run.tim, run.version, run.problems = {}, {}, {}, {}, []
    for k in KERNELS:
        kdir = os.path.join(run.dir, k)
        lines = bench_lines(os.path.join(kdir, "traffic.log"))
        run.version[k] = next((ln.split()[1] for ln in lines if ln.startswith("kernel ")),
                              "?")
        run.fid[k] = fidelity(lines)
        run.trf[k] = traffic(lines, os.path.join(kdir, "mmio.txt"))
        run.tim[k] = timing(kdir, run.rounds, run.problems)
    run.pcie = pcie_fidelity(os.path.join(run.dir, "ours", "pcie.log"), run.problems)
    run.holders = holder_figures(os.path.join(run.dir, "ours", "pcie.log"), run.problems)
    run.ratios = Ratios()
    run.smoke = run.quick or run.rounds < 3
    return run


# The report's parts, in order: each takes the run (load()) and returns its
# lines; those of sections 1 to 7 a Table.

def smoke_head(run):
    return [*SMOKE, ""] if run.smoke else []


def header(run):
    """What was compared, on what, how to read the table; the table's columns."""
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
    out = [
        "make bench: latency tolerance device PM QoS, upstream 6.12 against ours",
        f"  upstream: pristine Debian linux-source-6.12 ({run.version['upstream']}), "
        "mainline's own implementation",
        f"  ours:     the base (upstream's removed) plus our series ({run.version['ours']})",
        "  same config (configs/test.config + configs/bench.config), same QEMU rig",
        f"  host: {cpu}, {os.cpu_count()} CPUs; {qemu}, TCG (no KVM), 1 vCPU",
        "  (section 7: the same kernels with CONFIG_SMP, 2 vCPUs)",
        "",
        "  Absolute numbers under QEMU TCG mean little (emulated CPU, shared host):",
        "  the ratios ours/upstream, measured in one run on the same machine, are",
        f"  the result.  Timings: median [min-max] over {run.rounds} rounds (one boot per",
        "  kernel per round, the kernels taking turns) of each round's median of its",
        "  repeated measurements; ours/up: the median of the per-round ratios, each",
        "  from one round's two boots (section 8 lists them).  Fidelity and register",
        "  traffic are exact and deterministic: one boot per kernel.  The verdict",
        "  never changes the exit status."]
    pads = read_layouts(run.layouts)
    if pads:
        out += ["  Code layout: in each round both kernels' text after .head.text is",
                "  moved by the same number of bytes, so that the rounds sample where",
                "  functions lie in their 4 KiB pages, which QEMU's TCG charges for,",
                "  instead of comparing one layout of each kernel (timing boots only:",
                "  sections 2, 3, 5 and 6); bytes moved in rounds 1, 2, ...:",
                "  " + ", ".join(pads) + "."]
    t = Table([""])
    t.row("", LABEL["upstream"], LABEL["ours"], "ours/up", "better")
    return out + t


def score_cell(F, key, unit):
    """The cell of a fidelity score and the value compared: a count (unit
    None), or the largest value in unit with the tolerance it was seen at."""
    if unit is None:
        return str(F[key]), F[key]
    return at(F[key], unit, 2 if unit == "%" else 0), F[key][0]


# Section 1's rows: (name, score key, unit (None: a count), better)
FID_ROWS = (("tolerances the device may exceed (over or none)", "exceeds", None, "lower"),
            ("largest overshoot, ns (with a requirement)", "over_ns", "", "lower"),
            ("largest overshoot, %", "over_pct", "%", "lower"),
            ("finite tolerances made 'no requirement'", "noreq", None, "lower"),
            ("largest undershoot, %, up to 33 521 us", "under_in", "%", "lower"),
            ("largest undershoot, %, whole sweep (1)", "under_all", "%", "lower"),
            ("programmed exactly (ns == requested)", "exact", None, "higher"))


def ltr_fidelity(run):
    """Section 1: the LTR sweep of both kernels, SW_LTR read back."""
    t, F = Table(), run.fid
    t.head(f"1. LTR fidelity: {F['ours']['n']} tolerances, 0 us to 10 s (scale boundaries + "
           "log sweep), SW_LTR read back")
    for name, key, unit, better in FID_ROWS:
        (up, u), (ou, o) = (score_cell(F[k], key, unit) for k in KERNELS)
        t.row(name, up, ou, ratio(o, u), better)
    for k in KERNELS:
        if F[k]["rejected"] or F[k]["auto"]:
            t.note(f"{LABEL[k]}: {F[k]['rejected']} writes rejected, "
                   f"{F[k]['auto']} left the device in auto mode")
    t.note("(1) SW_LTR holds at most 1023 x 32768 ns = 33.52 ms: above that a finite",
           "    tolerance is either kept as the largest latency (undershoot) or dropped",
           "    to 'no requirement' (unbounded overshoot); the first row counts the latter.")
    return t


# Section 1b's rows of each register word, as FID_ROWS
PCIE_ROWS = (("tolerances the device may exceed", "exceeds", None, "lower"),
             ("largest overshoot, ns", "over_ns", "", "lower"),
             ("largest overshoot, %", "over_pct", "%", "lower"),
             ("tolerances made 'no requirement'", "noreq", None, "lower"),
             ("largest undershoot, %", "under_all", "%", "lower"),
             ("programmed exactly (ns == requested)", "exact", None, "higher"))


def pcie_ltr_fidelity(run):
    """Section 1b: the PCIe sweep of the test kernel, ours only, not judged;
    nothing for a run without pcie.log."""
    t, pcie = Table(), run.pcie
    if pcie is None:
        return t
    head = "1b. PCIe LTR fidelity (ours only: mainline has no PCIe LTR backend)"
    if isinstance(pcie, str):
        t.head(head)
        t.note(f"missing: {pcie}")
        return t
    t.head(f"{head}: {pcie['n']} tolerances, Max Snoop/No-Snoop Latency read back")
    for w, name in PCIE_WORDS:
        for what, key, unit, better in PCIE_ROWS:
            t.row(f"{name}: {what}", "-", score_cell(pcie[w], key, unit)[0], "-", better)
    kw = pcie["keywords"]
    bad = [f"{k}: " + (f"snoop {kw[k][0]:#06x}, no-snoop {kw[k][1]:#06x}" if k in kw
                       else "no line")
           for k in ("auto", "any") if kw.get(k) != (PCIE_CEILING, PCIE_CEILING)]
    t.note(f"auto and any: both registers at the ceiling {PCIE_CEILING:#06x}: " +
           ("yes" if not bad else "NO (" + "; ".join(bad) + ")"))
    ceil_ns = decode_max_lat(PCIE_CEILING)
    t.note("The test kernel's PCIe Endpoint ep0 (kmod/test_pcie_ltr_qos.c), one boot: each",
           "tolerance written to its pm_qos_latency_tolerance_us, both register words read",
           "back from its configuration space; latency = value (bits 9:0) x 2^(5 x scale",
           "(bits 12:10)) ns, a reserved scale (6, 7) counted as 'no requirement'.",
           f"Firmware's values, the ceiling (never exceeded): {PCIE_CEILING:#06x} = "
           f"{ceil_ns / 1e9:.2f} s in both,",
           "above every tolerance of the sweep: the rows measure the encoder.  Not judged.")
    return t


# Section 2's rows less the control: (mode, row name)
ABOVE = (("alternate", "every write changes: ns/write above power/control"),
         ("same", "no write changes: ns/write above power/control"))


def user_path(run):
    """Section 2: sysfs writes/s; power/control written the same way, a
    control; per kernel and round, ns per write of each row less ns per
    write of the control from the same boot, not judged: the verdict reports
    them as evidence (group "store()")."""
    t, tim = Table(), run.tim
    t.head("2. User path: writes/s to INT33C0:00/power/pm_qos_latency_tolerance_us")
    for mode, what in (("alternate", "10/20 alternating: every write changes"),
                       ("same", "10 again and again: no write changes")):
        compare(t, run, "sysfs", what, ("upath", mode), "higher")
    # The control, not judged: an attribute the series does not touch, written
    # the same way on the same device.  Where it moves like the two rows
    # above, they measure the kernels' layout under TCG, not our path.
    compare(t, run, "control", "power/control 'on' again and again (untouched)",
            ("upath", "control"), "higher")
    left = set()
    for mode, name in ABOVE:
        derived(tim, ("above", mode), ("upath", mode), ("upath", "control"), ns_above)
        up, ou = (tim[k].get(("above", mode)) or {} for k in KERNELS)
        left |= {r for r in set(up) & set(ou) if up[r] <= 0}
        compare(t, run, "store()", name, ("above", mode), "lower")
    t.note("ns/write above power/control: per boot, 1e9 / (writes/s of the row) less",
           "1e9 / (writes/s of power/control), the same boot's control subtracted: what",
           "every sysfs write shares (syscall, kernfs, the copy) cancels, what is left is",
           "the store() of each attribute; power/control's own store() is the same code",
           "in both kernels.  Not judged: the verdict gives them as further evidence.")
    if left:
        t.note("Left out of the ratios (upstream at or below its control): " +
               ", ".join(f"r{r}" for r in sorted(left)))
    return t


def kernel_path(run):
    """Section 3: ns per dev_pm_qos_update_request() with N requests, and
    each kernel's growth from the smallest N to the largest."""
    t, tim = Table(), run.tim
    t.head("3. Kernel path: ns per dev_pm_qos_update_request(), N active requests")
    ns = sorted({key[2] for k in KERNELS for key in tim[k] if key[0] == "kpath"})
    bad_cb = []
    for wl, what in (("change", "min changes"), ("nochange", "min unchanged")):
        for n in ns:
            up = tim["upstream"].get(("kpath", wl, n))
            ou = tim["ours"].get(("kpath", wl, n))
            if not up and not ou:
                continue
            compare(t, run, "kernel path", f"{what}, N={n:,}", ("kpath", wl, n), "lower")
            for k in KERNELS:
                want = 1.0 if wl == "change" else 0.0
                if any(c != want for c in tim[k].get(("callbacks", wl, n), [])):
                    bad_cb.append(f"{LABEL[k]} {wl} N={n}")
    if not ns:
        t.note("missing: no BENCH kpath lines in the logs")
        run.ratios.lack("kernel path", "every row", "no BENCH kpath lines")
    # growth: each kernel's cost at the largest N over its cost at the smallest
    for wl, what in (("change", "min changes"), ("nochange", "min unchanged")):
        have = [n for n in ns if any(("kpath", wl, n) in tim[k] for k in KERNELS)]
        if len(have) < 2:
            continue
        lo, hi = have[0], have[-1]
        derived(tim, ("growth", wl), ("kpath", wl, hi), ("kpath", wl, lo))
        compare(t, run, "growth", f"{what}: N={hi:,} / N={lo:,}", ("growth", wl),
                "lower", fmt=fmt_sig)
    t.note("min changes: the updated request alternates 10/20 us below N-1 others",
           "(1000 us and up), so each update runs the device callback; min unchanged:",
           "another request holds 5 us, the callback never runs.  Callbacks counted:",
           good_or(bad_cb, "as expected in every round.", "NOT as expected in: "),
           "N=large / N=small: each kernel's cost growth (flat: near 1.00), per round.")
    return t


def register_traffic(run):
    """Section 4: MMIO accesses per change, counted by the QEMU plugin."""
    t, trf = Table(), run.trf
    t.head("4. Register traffic: kernel MMIO accesses to the LPSS page (QEMU plugin)")
    if not all(isinstance(trf[k], dict) for k in KERNELS):
        for k in KERNELS:
            if not isinstance(trf[k], dict):
                t.note(f"{LABEL[k]}: {trf[k]}")
        return t

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
    t.note(f"exact counts from one boot ({cnt} changes in the sweep): every guest",
           "access with a kernel virtual address to the page, between two markers",
           "the guest reads around each sysfs write.  R = reads, W = writes.")
    return t


def isolation(run):
    """Section 5: operations on other devices while A's callback sleeps, and with A idle."""
    t, tim = Table(), run.tim
    flags = {k: {key[1:]: v for key, v in tim[k].items() if key[0] == "isoflags"}
             for k in KERNELS}
    slow = sorted({fl[3] for k in KERNELS for v in flags[k].values() for fl in v})
    t.head(f"5. Isolation: while another device's callback sleeps "
           f"{'/'.join(map(str, slow)) or '?'} ms (ms, lower is better)")
    for idle, prefix in ((0, ""), (1, "baseline, A idle: ")):
        for op, short, what in ISO_OPS:
            compare(t, run, "isolation", what if not idle else prefix + short,
                    ("iso", op, idle), "lower", fmt=fmt_sig, small=True, listed=not idle)

    # sleeping / idle, per kernel and round
    for op, short, _ in ISO_OPS:
        derived(tim, ("isoslow", op), ("iso", op, 0), ("iso", op, 1))
        compare(t, run, "isolation", f"sleeping / idle: {short}", ("isoslow", op), "lower",
                fmt=fmt_sig, small=True, listed=False)

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
    t.note("A's ->set_latency_tolerance() callback sleeps, run by a kthread; each",
           "operation is timed alone once the sleep has begun, then with A idle.",
           "Measurements that started while A's callback slept (idle: while it did not):",
           good_or(invalid, "all of them.", "NOT all, these left out: "),
           "Returned while A's callback still slept (did not wait for it):")
    for w in waited:
        t.note("  " + w)
    t.note(good_or(bad_cb, "Callbacks counted (B's per update, D's per removal): as expected "
                   "in every round.", "Callbacks NOT as expected in: "))
    return t


# The operations of the rate workload: (op, name)
RATE_OPS = (("lt_other", "latency tolerance updates/s, device B"),
            ("resume_other", "resume latency updates/s, device C"))
# The goal: ours keeps this much of its rate with A idle while A is busy
RATE_GOAL = 0.9


def rates(run):
    """Section 6: update rates on other devices while A2's callback is kept
    busy, and with A2 idle; busy / idle per kernel."""
    t, tim = Table(), run.tim
    flags = {k: {key[1:]: v for key, v in tim[k].items() if key[0] == "rateflags"}
             for k in KERNELS}
    busy_ms = sorted({f[4] for k in KERNELS for v in flags[k].values() for f in v})
    win = sorted({f[3] for k in KERNELS for v in flags[k].values() for f in v})
    t.head("6. Busy neighbour: updates/s on other devices while device A's callback "
           f"sleeps {'/'.join(map(str, busy_ms)) or '?'} ms per call in a loop "
           "(higher is better)")
    for a, prefix in (("busy", ""), ("idle", "baseline, A idle: ")):
        for op, name in RATE_OPS:
            compare(t, run, "busy A", f"{prefix}{name}" if prefix else f"{name}, A busy",
                    ("rate", op, a), "higher")
    for op, name in RATE_OPS:
        derived(tim, ("ratekeep", op), ("rate", op, "busy"), ("rate", op, "idle"))
        compare(t, run, "busy A", f"busy / idle: {name.split(' updates')[0]}",
                ("ratekeep", op), "higher", fmt=fmt_sig, small=True, listed=False)
    no_a, bad_cb = [], []
    for k in KERNELS:
        for (op, a), fl in sorted(flags[k].items()):
            if a == "busy" and any(f[0] == 0 for f in fl):
                no_a.append(f"{LABEL[k]} {op}")
            want = (lambda f: f[1] == f[2]) if op == "lt_other" else (lambda f: f[1] == 0)
            if not all(want(f) for f in fl):
                bad_cb.append(f"{LABEL[k]} {op} A {a}")
    calls = {k: [f[0] for (op, a), fl in flags[k].items() if a == "busy" for f in fl]
             for k in KERNELS}
    t.note(f"Each window {'/'.join(map(str, win)) or '?'} ms: the loading thread updates "
           "B's (or C's) request",
           "as often as it can; \"A busy\": meanwhile a kthread moves A's latency tolerance",
           "request back and forth and A's callback sleeps on every call.  Goal: busy /",
           f"idle at least {RATE_GOAL:.1f} (mainline: near zero, its callbacks run under "
           "dev_pm_qos_mtx).",
           "A's callback runs per busy window: " + "; ".join(
        f"{LABEL[k]} {min(c)}-{max(c)}" if c else f"{LABEL[k]} none"
        for k, c in calls.items()) + ("" if not no_a else
                                      "; NONE in some windows of: " + ", ".join(no_a)),
           good_or(bad_cb, "B's callback ran once per update, never for C's: as expected "
                   "in every window.", "Callbacks NOT as expected in: "))
    return t


def two_cpus(run):
    """Section 7: dev_pm_qos_update_request() from two CPUs on two devices at once."""
    t, tim = Table(), run.tim
    cpus = {k: sorted(set((tim[k].get(("cpus",)) or {}).values())) for k in KERNELS}
    t.head("7. Two CPUs: dev_pm_qos_update_request() on two devices at once, "
           "total updates/s (higher is better)")
    if not any(tim[k]["smp_logs"] for k in KERNELS):
        t.note("missing: no smp-N.log (bench.sh with BENCH_SMP=0)")
        run.ratios.lack("two CPUs", "total updates/s, two CPUs", "no smp-N.log")
        return t
    compare(t, run, "two CPUs", "total updates/s, two CPUs, devices E and F", ("smp", 2),
            "higher")
    compare(t, run, "two CPUs", "updates/s, one CPU alone, device E", ("smp", 1), "higher")
    derived(tim, "smpscale", ("smp", 2), ("smp", 1))
    compare(t, run, "two CPUs", "two CPUs / one CPU", "smpscale", "higher", fmt=fmt_sig,
            listed=False)
    bad = [LABEL[k] for k in KERNELS
           if any(f[0] != f[1] for f in tim[k].get(("smpflags", 2), []) +
                  tim[k].get(("smpflags", 1), []))]
    t.note("Two kthreads bound to two CPUs, started together, each updating its own",
           "device's latency tolerance request (alternating values, every update runs the",
           "callback); updates over the time from the first start to the last finish.",
           "SMP kernels (configs/bench-smp.config) booted with 2 vCPUs"
           + (" (CPUs seen by the guests: " + ", ".join(
               f"{LABEL[k]} {'/'.join(f'{c:g}' for c in v)}" for k, v in cpus.items() if v)
               + ")" if any(cpus.values()) else "") + ".",
           good_or(bad, "Callbacks: one per update in every run.",
                   "Callbacks NOT one per update in: "))
    return t


def per_round_ratios(run):
    """Section 8: the per-round ratios of the rows above, their notes."""
    table, notes = run.ratios.render()
    return (["", "8. Per-round ratios ours/upstream (r1, r2, ...: round; each ratio from that",
             "   round's boot of each kernel, a boot's value the median of its repetitions;",
             "   median and spread (min-max) of the ratios; \"!\": see the notes below;",
             "   better: which way is better for ours)", ""] + table +
            ([""] + [f"  note: {ln}" for ln in notes] if notes else []))


def verdict(run):
    """The verdict of a full run against the marks (ours/upstream <= 1.00 for
    dev_pm_qos_update_request(), >= 1.00 for sysfs writes, busy/idle >=
    RATE_GOAL, the two-CPU rows there); none for a smoke test."""
    if run.smoke:
        why = "QUICK=1" if run.quick else f"only {run.rounds} rounds"
        return ["", f"No verdict: a smoke test ({why})."]
    ratios = run.ratios
    out = []
    missing = [(g, n) for g, n, _ in ratios.missing]
    unsettled = []

    def judge(group, want, what, settle=True):
        """One line for group's rows; without settle, the rows whose spread
        is wider than their effect are counted on it, not listed below."""
        rows = ratios.get(group)
        bad, shaky = [], []
        for _, name, _, pairs, _ in rows:
            med = statistics.median(r for _, r in pairs)
            if (med > 1.0) if want == "le" else (med < 1.0):
                bad.append(f"{name} ({med:.2f})")
            if Ratios.spread_note(name, pairs):
                shaky.append(name)
        if settle:
            unsettled.extend(f"{group}: {name}" for name in shaky)
        miss = [n for g, n in missing if g == group]
        n = len(rows)
        if not rows and not miss:
            out.append(f"  {what}: no rows")
            return False
        ok = not bad and not miss
        state = "met" if ok else "NOT met"
        more = ("" if settle or not shaky else
                f"; {len(shaky)} with a spread wider than the effect, see section 8")
        out.append(f"  {what}: {state} ({n - len(bad)} of {n + len(miss)} rows at the mark"
                   f"{more})")
        for b in bad:
            out.append(f"      above the mark: {b}" if want == "le" else
                       f"      below the mark: {b}")
        for m in miss:
            out.append(f"      missing: {m}")
        return ok

    ok = judge("kernel path", "le",
               "dev_pm_qos_update_request() time, ours/upstream <= 1.00")
    ok = judge("sysfs", "ge", "sysfs writes/s, ours/upstream >= 1.00") and ok
    # Evidence beside the verdict, not part of it
    judge("store()", "le", "store(), ns/write above power/control, ours/upstream "
          "<= 1.00 (evidence, not counted)", settle=False)
    for op, name in RATE_OPS:
        up, ou = (run.tim[k].get(("ratekeep", op)) for k in KERNELS)
        if not ou:
            out.append(f"  busy A, {name.split(' updates')[0]}: missing")
            ok = False
            continue
        m = statistics.median(ou.values())
        good = m >= RATE_GOAL
        ok = ok and good
        out.append(f"  busy A, {name.split(' updates')[0]}: ours busy/idle {m:.2f} "
                   f"({'met' if good else 'NOT met'}: goal >= {RATE_GOAL:.1f}; upstream "
                   f"{fmt_sig(statistics.median(up.values())) if up else 'n/a'})")
    smp = [r for r in ratios.get("two CPUs") if r[1].startswith("total")]
    if smp:
        med = statistics.median(r for _, r in smp[0][3])
        out.append(f"  two CPUs, total updates/s: ours/upstream {fmt_ratio(med)} (no mark)")
    else:
        out.append("  two CPUs, total updates/s: missing")
        ok = False
    head = ("Verdict of this run: " + ("MET" if ok else "NOT MET") +
            " (claiming the marks needs two full runs in a row that are MET)" +
            ("; logs missing or failed, see PROBLEMS below" if run.problems else ""))
    if unsettled:
        out.append("  not settled by this run (spread wider than the effect): "
                   + ", ".join(unsettled))
    return ["", head] + out


def files(run):
    """Where the plot, its data and the logs are; the wall time of the steps."""
    out = ["", f"plot: {plot(run.dir, run.fid)}",
           f"data: {os.path.join(run.dir, 'ltr-fidelity.dat')}; logs: {run.dir}/{{upstream,ours}}/"]
    if run.timings:
        try:
            with open(run.timings) as f:
                parts = [ln.split() for ln in f if ln.strip()]
            out.append("wall time: " + ", ".join(f"{p[0]} {p[1]} s" for p in parts
                                                 if len(p) == 2))
        except OSError:
            pass
    return out


def problems(run):
    """The logs missing or failed."""
    if not run.problems:
        return []
    return (["", "PROBLEMS (rows above that lack these logs are incomplete):"] +
            [f"  {pr}" for pr in run.problems])


def smoke_tail(run):
    return ["", *SMOKE] if run.smoke else []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--timings")
    ap.add_argument("--layouts",
                    help="file of 'R PAD' lines: round R's code layout")
    ap.add_argument("--quick", action="store_true",
                    help="a QUICK=1 run: say it is a smoke test, give no verdict")
    ap.add_argument("dir")
    run = load(ap.parse_args())
    for part in (smoke_head, header, ltr_fidelity, pcie_ltr_fidelity, holders_section,
                 user_path, kernel_path, register_traffic, isolation, rates, two_cpus,
                 per_round_ratios, verdict, files, problems, smoke_tail):
        for ln in part(run):
            print(ln)
    return 1 if run.problems else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        print(f"bench/report.py: {e}", file=sys.stderr)
        sys.exit(1)
