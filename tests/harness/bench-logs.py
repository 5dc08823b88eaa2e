#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Writes a synthetic `make bench` output for bench/report.py's tests.

    bench-logs.py [options] OLD DIR

OLD is a real bench output (traffic.log and mmio.txt of each kernel are
copied from it); DIR/{upstream,ours}/ get round-N.log and smp-N.log with
BENCH upath (power/control's too: CONTROL), kpath, isolation, rate, cpus
and smp lines whose per-round ratios ours/upstream are the ones below
(RATIOS), each round's value being the median of three repetitions that
differ (x1, x1.5, x0.9).
"""

import argparse
import os
import shutil

KERNELS = ("upstream", "ours")
ROUNDS = 5
# ours / upstream per round, rounds 1 to 5, for each row
RATIOS = {
    ("upath", "alternate"): (1.10, 1.11, 1.12, 1.13, 1.14),
    # straddles 1.00: median 1.06
    ("upath", "same"): (0.98, 1.05, 1.06, 1.07, 1.08),
    ("kpath", "change", 1): (0.91, 0.92, 0.93, 0.94, 0.95),
    ("kpath", "change", 100): (0.91, 0.92, 0.93, 0.94, 0.95),
    ("kpath", "change", 10000): (0.91, 0.92, 0.93, 0.94, 0.95),
    ("kpath", "nochange", 100): (0.91, 0.92, 0.93, 0.94, 0.95),
    # spread 0.90-0.99 (0.09) wider than the effect |0.97 - 1| = 0.03
    ("kpath", "nochange", 10000): (0.90, 0.99, 0.97, 0.98, 0.96),
    ("rate", "lt_other", "idle"): (0.90,) * 5,
    ("rate", "resume_other", "idle"): (0.80,) * 5,
    ("smp", 2): (1.80,) * 5,
    ("smp", 1): (1.00,) * 5,
}
# ours / upstream of the control per round; upstream writes
# power/control 500,000 times a second: 2,000 ns a write, 500 ns less than
# the 2,500 of its two upath rows
CONTROL = (1.10, 1.11, 1.12, 1.13, 1.14)
UP = {"upath": 400000.0, "control": 500000.0, "kpath": 300.0, "rate_idle": 1e6,
      "rate_busy": 50.0, "smp": 1e6}
REPS = (1.0, 1.5, 0.9)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", type=float, default=0.95,
                    help="ours: busy / idle update rate")
    ap.add_argument("--slower", action="store_true",
                    help="ours 1.02x upstream's time in every kernel path row")
    ap.add_argument("--no-smp", action="store_true", help="no smp-N.log")
    ap.add_argument("--smp-error", type=int, default=0,
                    help="round whose ours smp-N.log has an error line")
    ap.add_argument("--no-round", type=int, default=0,
                    help="round whose ours round-N.log is missing")
    ap.add_argument("--control-flat", type=int, default=0,
                    help="round whose upstream control is as slow as the two rows")
    ap.add_argument("old")
    ap.add_argument("dir")
    a = ap.parse_args()

    for k in KERNELS:
        os.makedirs(os.path.join(a.dir, k), exist_ok=True)
        for f in ("traffic.log", "mmio.txt"):
            shutil.copy(os.path.join(a.old, k, f), os.path.join(a.dir, k, f))
        for r in range(1, ROUNDS + 1):
            def mul(key):
                if k == "upstream":
                    return 1.0
                if a.slower and key[0] == "kpath":
                    return 1.02
                return RATIOS[key][r - 1]
            lines = [f"BENCH kernel 6.12.118{'+' if k == 'ours' else ''}"]
            rates = {mode: UP["upath"] * mul(("upath", mode))
                     for mode in ("alternate", "same")}
            rates["control"] = (UP["control"] * CONTROL[r - 1] if k == "ours" else
                                UP["upath"] if a.control_flat == r else UP["control"])
            for mode, rate in rates.items():
                for i, x in enumerate(REPS):
                    lines.append(f"BENCH upath {mode} writes=20000 "
                                 f"ns={round(20000 / (rate * x) * 1e9)} rep={i}")
            for key in RATIOS:
                if key[0] != "kpath":
                    continue
                ns = UP["kpath"] * mul(key)
                cb = 1000 if key[1] == "change" else 0
                for i, x in enumerate(REPS):
                    lines.append(f"BENCH kpath {key[1]} n={key[2]} iters=1000 rep={i} "
                                 f"ns={round(ns * x * 1000)} callbacks={cb}")
            for i in range(3):
                for op, cb in (("lt_other", 1), ("resume_other", 0), ("remove_other", 1)):
                    busy_ns = 510e6 if k == "upstream" else 2000
                    lines.append(f"BENCH isolation op={op} idle=1 rep={i} ns=5000 "
                                 f"overlapped=0 sleeping_after=0 callbacks={cb} slow_ms=500")
                    lines.append(f"BENCH isolation op={op} idle=0 rep={i} "
                                 f"ns={round(busy_ns)} overlapped=1 "
                                 f"sleeping_after={int(k == 'ours')} callbacks={cb} "
                                 "slow_ms=500")
            for op in ("lt_other", "resume_other"):
                idle = UP["rate_idle"] * mul(("rate", op, "idle"))
                busy = UP["rate_busy"] if k == "upstream" else idle * a.keep
                for i, x in enumerate(REPS):
                    for state, rate, calls in (("idle", idle, 0), ("busy", busy, 25)):
                        u = round(rate * x / 2)
                        cb = u if op == "lt_other" else 0
                        lines.append(f"BENCH rate op={op} a={state} rep={i} updates={u} "
                                     f"ns=500000000 a_calls={calls} callbacks={cb} "
                                     "rate_ms=500 busy_ms=10")
            lines.append("BENCH end")
            if a.no_round != r or k != "ours":
                with open(os.path.join(a.dir, k, f"round-{r}.log"), "w") as f:
                    f.write("\n".join(lines) + "\n")
            if a.no_smp:
                continue
            lines = [f"BENCH kernel 6.12.118{'+' if k == 'ours' else ''}", "BENCH cpus 2"]
            if a.smp_error == r and k == "ours":
                lines.append("BENCH error pmqos_bench: error: smp: 1 CPU online, "
                             "2 needed: skipped")
            else:
                for i, x in enumerate(REPS):
                    for cpus in (2, 1):
                        rate = UP["smp"] * mul(("smp", cpus))
                        u = 20000 * cpus
                        lines.append(f"BENCH smp cpus={cpus} rep={i} updates={u} "
                                     f"ns={round(u / (rate * x) * 1e9)} callbacks={u}")
            lines.append("BENCH end")
            with open(os.path.join(a.dir, k, f"smp-{r}.log"), "w") as f:
                f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
