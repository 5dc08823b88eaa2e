#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A stand-in for QEMU's QMP socket, for tests/harness/run.sh.

Usage: fake-qmp.py SOCKET COUNT_FILE

Listens on the unix socket SOCKET and serves one client at a time, as
QEMU does: the greeting, qmp_capabilities, and human-monitor-command
"xp /Nwx ADDR", answered as if the word at every address A were
0xabcd0000 | (A & 0xffff).  After each connection it accepts, writes the
number of connections so far to COUNT_FILE.  Runs until killed.
"""

import json
import os
import re
import socket
import sys


def serve(conn):
    conn.sendall(b'{"QMP": {"version": {}, "capabilities": []}}\n')
    buf = b''
    while True:
        data = conn.recv(65536)
        if not data:
            return
        buf += data
        while b'\n' in buf:
            line, buf = buf.split(b'\n', 1)
            msg = json.loads(line)
            cmd = msg.get('execute')
            if cmd == 'qmp_capabilities':
                reply = {'return': {}}
            elif cmd == 'human-monitor-command':
                m = re.match(r'xp /(\d+)wx (0x[0-9a-fA-F]+)$',
                             msg['arguments']['command-line'])
                if not m:
                    reply = {'error': {'desc': 'fake-qmp: only xp'}}
                else:
                    addr = int(m.group(2), 16)
                    words = ['0x%08x' % (0xabcd0000 | ((addr + 4 * i) & 0xffff))
                             for i in range(int(m.group(1)))]
                    reply = {'return': '%016x: %s\r\n' % (addr, ' '.join(words))}
            else:
                reply = {'error': {'desc': 'fake-qmp: unknown %s' % cmd}}
            # an event first, as QEMU may send one at any time
            conn.sendall(b'{"event": "FAKE", "timestamp": {}}\n')
            conn.sendall(json.dumps(reply).encode() + b'\n')


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    path, count_file = argv[1:]
    if os.path.exists(path):
        os.unlink(path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    count = 0
    while True:
        conn, _ = srv.accept()
        count += 1
        with open(count_file, 'w') as f:
            f.write('%d\n' % count)
        with conn:
            try:
                serve(conn)
            except (OSError, ValueError):
                pass


if __name__ == '__main__':
    sys.exit(main(sys.argv))
