#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read 32-bit words of guest physical memory from a running QEMU via QMP.

Usage: qemu/qmp-read.py SOCKET ADDR [COUNT]

SOCKET is the QMP unix socket (qemu/run-qemu.sh: $QMP_SOCK), ADDR a
guest physical address (e.g. an LPSS register: lpss_base= on the guest's
command line, from qemu/ssdt.asl, + 0x810), COUNT the number of words
(default 1).  Runs the HMP command "xp /COUNTwx ADDR" and prints each word
as 0x%08x, one per line.  Exit 1 on any error.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qmp import QMP  # noqa: E402  qemu/qmp.py


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    try:
        addr = int(argv[2], 0)
        count = int(argv[3], 0) if len(argv) == 4 else 1
        if addr < 0 or not 1 <= count <= 4096:
            raise ValueError
    except ValueError:
        print('qmp-read: bad ADDR or COUNT', file=sys.stderr)
        return 2
    try:
        qmp = QMP(argv[1])
        words = qmp.xp(addr, count)
    except (OSError, RuntimeError, ValueError) as e:
        print('qmp-read: %s' % e, file=sys.stderr)
        return 1
    for w in words:
        print('0x%08x' % w)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
