#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Show the progress of a long command from the lines it prints.

    progress.py [OPTIONS] -- CMD [ARG...]   run CMD, exit with its status
    progress.py [OPTIONS]                   filter standard input, exit 0

"LABEL ABOUT" comes first (--about: where, how long it usually takes).
CMD's output (standard output and error, merged) is copied to standard
output, byte for byte.  Lines matching --count are counted against --total
and the progress line "LABEL: 1234/2345 objects (52 %), 4 min 12 s" goes to
the progress stream: file descriptor $PROGRESS_FD if that is set and open
(scripts/check.sh points it at its terminal while the step's output goes to
a log), standard error otherwise.

On a terminal the progress line is updated in place (\\r) several times a
second; elsewhere a plain line is printed at every 10 % and whenever
--every seconds (default 30) have passed without one.  When standard
output and the progress stream are the same file (a terminal, or one log
for both), lines matching --quiet (e.g. kbuild's "  CC      x.o") are not
copied to it, so that warnings and errors stand out; when they differ,
--echo shows the other lines on the progress stream too.  --log FILE gets
every line in any case.  The last progress line says how it ended and how
long it took; progress never goes to standard output unless that is the
progress stream (so a command's last line stays its last line).
"""

import argparse
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import time


def duration(seconds):
    """1 min 05 s, 42 s"""
    s = int(seconds)
    if s < 60:
        return f"{s} s"
    return f"{s // 60} min {s % 60:02d} s"


def progress_fd():
    """The descriptor progress goes to: $PROGRESS_FD if open, else 2."""
    want = os.environ.get("PROGRESS_FD", "")
    if want.isdigit():
        try:
            os.fstat(int(want))
            return int(want)
        except OSError:
            pass
    return 2


def same_file(a, b):
    try:
        sa, sb = os.fstat(a), os.fstat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino, sa.st_rdev) == (sb.st_dev, sb.st_ino, sb.st_rdev)


def write(fd, data):
    try:
        while data:
            data = data[os.write(fd, data):]
    except BrokenPipeError:
        pass


class Progress:
    """Counts lines and draws the progress line."""

    def __init__(self, args, fd):
        self.args = args
        self.fd = fd
        self.tty = os.isatty(fd) and os.environ.get("TERM", "") != "dumb"
        self.start = time.monotonic()
        self.count = 0
        self.shown = False      # a progress line is on the terminal now
        self.last_draw = 0.0
        self.last_line = self.start
        self.decile = 0

    def text(self):
        a = self.args
        elapsed = duration(time.monotonic() - self.start)
        if a.total > 0:
            total = max(a.total, self.count)
            pct = min(99, self.count * 100 // total)
            return f"{a.label}: {self.count}/{total} {a.unit} ({pct} %), {elapsed}"
        if a.count:
            return f"{a.label}: {self.count} {a.unit}, {elapsed}"
        return f"{a.label}: {elapsed}"

    def draw(self):
        """In place on a terminal, cut to its width."""
        try:
            width = os.get_terminal_size(self.fd).columns
        except OSError:
            width = 0
        if width <= 0:     # a terminal that does not say: $COLUMNS or 80
            width = shutil.get_terminal_size().columns
        line = self.text()[:max(width - 1, 20)]
        write(self.fd, b"\r" + line.encode() + b"\033[K")
        self.shown = True
        self.last_draw = time.monotonic()

    def clear(self):
        """Take the in-place line away before other output."""
        if self.shown:
            write(self.fd, b"\r\033[K")
            self.shown = False

    def plain(self, line):
        write(self.fd, line.encode() + b"\n")
        self.last_line = time.monotonic()

    def counted(self):
        self.count += 1
        if self.tty:
            return
        if self.args.total > 0:
            decile = min(9, self.count * 10 // self.args.total)
            if decile > self.decile:
                self.decile = decile
                self.plain(self.text())

    def tick(self):
        """Called at least once a second and after every chunk read."""
        now = time.monotonic()
        if self.tty:
            if not self.shown or now - self.last_draw >= 0.25:
                self.draw()
        elif now - self.last_line >= self.args.every:
            self.plain(self.text())

    def end(self, status):
        self.clear()
        a = self.args
        elapsed = duration(time.monotonic() - self.start)
        done = f"{self.count} {a.unit}, " if a.count else ""
        if status == 0:
            return f"{a.label}: done, {done}{elapsed}"
        return f"{a.label}: failed (exit status {status}) after {done}{elapsed}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--label", default="working", help="what is being done")
    p.add_argument("--about", help="said first, after the label: where, "
                   "how long it usually takes")
    p.add_argument("--unit", default="lines", help="what --count counts")
    p.add_argument("--count", help="regular expression: lines that count")
    p.add_argument("--total", type=int, default=0,
                   help="expected number of counted lines (0: unknown)")
    p.add_argument("--quiet", help="regular expression: lines left out of "
                   "standard output when it is the progress stream too")
    p.add_argument("--echo", action="store_true", help="when standard "
                   "output is not the progress stream, show the lines that "
                   "are not --quiet on the progress stream too")
    p.add_argument("--log", help="file that gets every line")
    p.add_argument("--every", type=float, default=30,
                   help="seconds between plain lines when not on a terminal")
    p.add_argument("cmd", nargs="*", help="command to run (after --)")
    args = p.parse_args()

    count_re = re.compile(args.count.encode()) if args.count else None
    pfd = progress_fd()
    shared = same_file(1, pfd)
    quiet_re = re.compile(args.quiet.encode()) if args.quiet else None
    echo = args.echo and not shared
    log = open(args.log, "wb") if args.log else None
    prog = Progress(args, pfd)
    if args.about:
        line = f"{args.label} {args.about}"
        prog.plain(line)

    child = None
    if args.cmd:
        try:
            child = subprocess.Popen(args.cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        except OSError as e:
            write(pfd, f"{args.label}: cannot run {args.cmd[0]}: {e}\n".encode())
            return 127
        src = child.stdout.fileno()
        # pass SIGTERM and SIGHUP on to the command, and still end cleanly
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, lambda n, f: child.send_signal(n))
    else:
        src = 0

    sel = selectors.DefaultSelector()
    sel.register(src, selectors.EVENT_READ)
    buf = b""
    interrupted = False
    eof = False
    while not eof:
        try:
            ready = sel.select(timeout=1.0)
            data = os.read(src, 65536) if ready else None
        except KeyboardInterrupt:
            # the command got the SIGINT too: read on to its end
            interrupted = True
            if child:
                continue
            break
        if data == b"":
            eof = True
            data = b"\n" if buf else b""
        if data:
            buf += data
            *lines, buf = buf.split(b"\n")
            out, shown = [], []
            for line in lines:
                line += b"\n"
                if log:
                    log.write(line)
                if count_re and count_re.search(line):
                    prog.counted()
                quiet = quiet_re and quiet_re.search(line)
                if not (quiet and shared):
                    out.append(line)
                if echo and not quiet:
                    shown.append(line)
            if out and shared:
                prog.clear()
            if shown:
                prog.clear()
                write(pfd, b"".join(shown))
            if out:
                write(1, b"".join(out))
        prog.tick()
    if log:
        log.close()

    status = 0
    if child:
        while True:
            try:
                rc = child.wait()
                break
            except KeyboardInterrupt:
                interrupted = True
        status = rc if rc >= 0 else 128 - rc
    elif interrupted:
        status = 130
    line = prog.end(status)
    prog.plain(line)
    return status


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
