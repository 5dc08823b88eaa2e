#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read 32-bit words of guest physical memory from a running QEMU via QMP.

Usage: scripts/qmp-xp.py SOCKET ADDR [COUNT]

SOCKET is the QMP unix socket (scripts/run-qemu.sh: $QMP_SOCK), ADDR a
guest physical address (e.g. 0x1F000810), COUNT the number of words
(default 1).  Runs the HMP command "xp /COUNTwx ADDR" and prints each word
as 0x%08x, one per line.  Exit 1 on any error.
"""

import json
import re
import socket
import sys


class QMP:
    def __init__(self, path, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buf = b''
        greeting = self.recv()
        if 'QMP' not in greeting:
            raise RuntimeError('no QMP greeting: %r' % greeting)
        self.execute('qmp_capabilities')

    def recv(self):
        while b'\n' not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise RuntimeError('QMP connection closed')
            self.buf += data
        line, self.buf = self.buf.split(b'\n', 1)
        return json.loads(line)

    def execute(self, cmd, **args):
        msg = {'execute': cmd}
        if args:
            msg['arguments'] = args
        self.sock.sendall(json.dumps(msg).encode() + b'\n')
        while True:
            reply = self.recv()
            if 'event' in reply:
                continue
            if 'error' in reply:
                raise RuntimeError('%s: %s' % (cmd, reply['error']))
            return reply['return']


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
        print('qmp-xp: bad ADDR or COUNT', file=sys.stderr)
        return 2
    try:
        qmp = QMP(argv[1])
        out = qmp.execute('human-monitor-command',
                          **{'command-line': 'xp /%dwx 0x%x' % (count, addr)})
    except (OSError, RuntimeError, ValueError) as e:
        print('qmp-xp: %s' % e, file=sys.stderr)
        return 1
    # HMP prints lines like "000000001f000810: 0x00008801 0x00000000"
    words = []
    for line in out.splitlines():
        if ':' not in line:
            continue
        words += re.findall(r'0x[0-9a-fA-F]+', line.split(':', 1)[1])
    if len(words) != count:
        print('qmp-xp: unexpected monitor output: %r' % out, file=sys.stderr)
        return 1
    for w in words:
        print('0x%08x' % int(w, 16))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
