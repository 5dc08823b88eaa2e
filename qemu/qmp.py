# SPDX-License-Identifier: GPL-2.0
"""A QMP client for the QEMU monitor socket of qemu/run-qemu.sh.

Imported by qemu/qmp-watch.py (the guest's HOST-XP reads, one connection
for all).
"""

import json
import re
import socket


class QMP:
    def __init__(self, path, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(path)
            self.buf = b''
            greeting = self.recv()
            if 'QMP' not in greeting:
                raise RuntimeError('no QMP greeting: %r' % greeting)
            self.execute('qmp_capabilities')
        except BaseException:
            self.sock.close()
            raise

    def close(self):
        self.sock.close()

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

    def xp(self, addr, count=1):
        """COUNT 32-bit words of guest physical memory at ADDR (ints)."""
        out = self.execute('human-monitor-command',
                           **{'command-line': 'xp /%dwx 0x%x' % (count, addr)})
        # HMP prints lines like "000000001f000810: 0x00008801 0x00000000"
        words = []
        for line in out.splitlines():
            if ':' not in line:
                continue
            words += re.findall(r'0x[0-9a-fA-F]+', line.split(':', 1)[1])
        if len(words) != count:
            raise RuntimeError('unexpected monitor output: %r' % out)
        return [int(w, 16) for w in words]
