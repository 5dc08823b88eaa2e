#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read guest registers from the host while a guest test runs.

Usage: qmp-watch.py SOCKET LOG OUT

Follows the serial console LOG of a running QEMU.  For each line
"HOST-XP ADDR EXPECTED DESC" a guest test prints (it then waits), reads
the 32-bit word at guest-physical ADDR through the QEMU monitor
(scripts/qmp-xp.py on the QMP SOCKET) and compares its low 16 bits with
EXPECTED.  "HOST-XP-PLAN N" announces how many reads to expect.  When the
guest prints GUEST-END, or QEMU goes away, writes a KTAP document named
lpss_host to OUT.
"""

import os
import subprocess
import sys
import time

XP = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'qmp-xp.py')


def read_word(sock, addr):
    out = subprocess.run([sys.executable, XP, sock, addr], capture_output=True,
                         text=True, timeout=10, check=False)
    if out.returncode:
        raise RuntimeError(out.stderr.strip() or 'qmp-xp failed')
    return int(out.stdout.split()[0], 16)


def follow(path, deadline):
    """Yield the lines of a growing file until GUEST-END or the deadline."""
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.05)
    with open(path, errors='replace') as f:
        buf = ''
        while time.time() < deadline:
            chunk = f.readline()
            if not chunk:
                time.sleep(0.05)
                continue
            buf += chunk
            if not buf.endswith('\n'):
                continue
            line, buf = buf.rstrip('\r\n'), ''
            yield line
            if line.strip() == 'GUEST-END':
                return


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    sock, log, out = argv[1:]
    plan, results = None, []
    for line in follow(log, time.time() + float(os.environ.get('TIMEOUT', 900))):
        words = line.strip().split(None, 3)
        if len(words) == 2 and words[0] == 'HOST-XP-PLAN':
            plan = int(words[1])
        elif len(words) >= 3 and words[0] == 'HOST-XP':
            addr, want = words[1], int(words[2], 16)
            desc = words[3] if len(words) > 3 else addr
            try:
                got = read_word(sock, addr)
                ok = (got & 0xffff) == want
                note = 'host reads %s = 0x%08x, expected low half 0x%04x' % (
                    addr, got, want)
            except (OSError, RuntimeError, subprocess.SubprocessError) as e:
                ok, note = False, 'host read of %s failed: %s' % (addr, e)
            results.append((ok, '%s: %s' % (desc, note)))
    with open(out, 'w') as f:
        f.write('KTAP version 1\n# Subtest: lpss_host\n')
        f.write('1..%d\n' % (plan if plan is not None else len(results) + 1))
        for i, (ok, desc) in enumerate(results, 1):
            f.write('%s %d %s\n' % ('ok' if ok else 'not ok', i, desc))
        if plan is None:
            f.write('not ok %d the guest announced no HOST-XP-PLAN\n'
                    % (len(results) + 1))
        f.write('GUEST-END\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
