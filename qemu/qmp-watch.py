#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read guest registers from the host while a guest test runs.

Usage: qmp-watch.py SOCKET LOG OUT

Follows the serial console LOG of a running QEMU.  For each line
"HOST-XP ADDR EXPECTED DESC" a guest test prints (it then waits), reads
the 32-bit word at guest-physical ADDR through the QEMU monitor (one QMP
connection on SOCKET, qemu/qmp.py) and compares its low 16 bits with
EXPECTED.  "HOST-XP-PLAN N" announces how many reads to expect.

Writes a KTAP document named lpss_host to OUT, a file of its own, line by
line as the reads happen (each line flushed, so whatever was read
survives QEMU or this script dying; a short document then fails on its
plan).  It never writes GUEST-END: only the guest does, in LOG.  Stops at
the guest's GUEST-END, at SIGTERM or at its deadline (env TIMEOUT, in
seconds, default 900); if the guest announced no plan, the document ends
with a failing result saying so.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qmp import QMP  # noqa: E402  qemu/qmp.py


class Reader:
    """Guest words through one QMP connection, opened again after an error."""

    def __init__(self, sock):
        self.sock = sock
        self.qmp = None

    def word(self, addr):
        try:
            if self.qmp is None:
                self.qmp = QMP(self.sock)
            return self.qmp.xp(int(addr, 0))[0]
        except (OSError, RuntimeError, ValueError):
            if self.qmp is not None:
                self.qmp.close()
                self.qmp = None
            raise


def follow(path, deadline):
    """Yield the lines of a growing file until GUEST-END or the deadline."""
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.05)
    if not os.path.exists(path):
        return
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
            if line.rstrip() == 'GUEST-END':
                return


def stop(signum, frame):
    raise SystemExit(0)


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    sock, log, out = argv[1:]
    signal.signal(signal.SIGTERM, stop)
    reader = Reader(sock)
    plan, n = None, 0
    deadline = time.time() + float(os.environ.get('TIMEOUT', 900))
    with open(out, 'w', buffering=1) as f:  # line-buffered: flushed as it goes
        f.write('KTAP version 1\n# Subtest: lpss_host\n')
        try:
            for line in follow(log, deadline):
                words = line.strip().split(None, 3)
                if (len(words) == 2 and words[0] == 'HOST-XP-PLAN'
                        and words[1].isdigit() and plan is None):
                    plan = int(words[1])
                    f.write('1..%d\n' % plan)
                elif len(words) >= 3 and words[0] == 'HOST-XP':
                    addr, want = words[1], words[2]
                    desc = words[3] if len(words) > 3 else addr
                    try:
                        want = int(want, 16)
                        got = reader.word(addr)
                        ok = (got & 0xffff) == want
                        note = ('host reads %s = 0x%08x, expected low half '
                                '0x%04x' % (addr, got, want))
                    except (OSError, RuntimeError, ValueError) as e:
                        ok, note = False, 'host read of %s failed: %s' % (
                            addr, e)
                    n += 1
                    f.write('%s %d %s: %s\n' % ('ok' if ok else 'not ok', n,
                                                desc, note))
            if time.time() >= deadline:
                f.write('# qmp-watch: deadline passed before GUEST-END\n')
        finally:
            if plan is None:
                f.write('1..%d\nnot ok %d the guest announced no '
                        'HOST-XP-PLAN\n' % (n + 1, n + 1))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
