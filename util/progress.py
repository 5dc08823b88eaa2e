#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Show the progress of a long command from the lines it prints.

    progress.py [OPTIONS] -- CMD [ARG...]   run CMD, exit with its status
    progress.py [OPTIONS]                   filter standard input, exit 0
    progress.py --estimate KEY...           how long those steps take

"LABEL ABOUT (TIME)" comes first: --about says what or where, TIME how
long the step --step KEY took the last time its CMD succeeded here ("last
time 4 min 12 s", kept in $CACHE/times/KEY; nothing is kept when CACHE is
unset) or, never measured, the estimate of ESTIMATES below ("about 8
min"); a part with nothing to say is left out, and so is the line.

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
import fnmatch
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import time


# The one place durations are written by hand: what a step took on 2 cores
# without KVM (TCG), said until it has been measured here.  KEY (--step;
# a pattern stands for the keys not named before it): (seconds, the lines
# it counts, for --total 0; 0 if none).
ESTIMATES = {
    "deps": (60, 0),                    # apt on a new machine
    "get-source-install": (90, 0),      # about 150 MB
    "get-source-unpack": (60, 0),
    "tree": (120, 0),                   # base, pristine + upstream/, the first time
    "kernel-base": (540, 1236),         # a build from nothing, objects
    "kernel-test": (480, 1256),         # counted on 6.12
    "kernel-debug": (360, 1330),        # objects estimated
    "kernel-*": (480, 1300),            # any other kernel, estimated
    "each-patch-builds": (180, 0),      # W=1, the files each one touches
    "upstream-*": (120, 0),              # a posting's commits, built
    "guest-test": (40, 0),
    "guest-debug": (240, 0),            # KASAN, lockdep
    "guest-demo": (40, 0),
}


def estimate(key):
    """(seconds, lines) of KEY's entry in ESTIMATES, or (None, 0)."""
    for pattern, value in ESTIMATES.items():
        if fnmatch.fnmatchcase(key, pattern):
            return value
    return None, 0


def times_file(key):
    """$CACHE/times/KEY, where KEY's last time is kept; "" without CACHE."""
    cache = os.environ.get("CACHE")
    return os.path.join(cache, "times", key) if cache else ""


def expected(key):
    """(seconds, words): how long KEY took the last time it succeeded
    here, else its estimate; (None, None) if neither is known."""
    path = times_file(key)
    try:
        with open(path) as f:
            last = int(f.read())
        return last, f"last time {duration(last)}"
    except (OSError, ValueError):       # not measured (yet)
        pass
    seconds = estimate(key)[0]
    return seconds, None if seconds is None else f"about {rough(seconds)}"


def record(key, seconds):
    """Keep KEY's time for the next run, if there is a $CACHE."""
    path = times_file(key)
    if path:
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path + ".new", "w") as f:
                f.write(f"{int(seconds)}\n")
            os.replace(path + ".new", path)  # a reader sees old or new
        except OSError:
            pass


def duration(seconds):
    """1 min 05 s, 42 s"""
    s = int(seconds)
    if s < 60:
        return f"{s} s"
    return f"{s // 60} min {s % 60:02d} s"


def rough(seconds):
    """40 s, 8 min: an estimate"""
    return f"{seconds} s" if seconds < 60 else f"{round(seconds / 60)} min"


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
    p.add_argument("--about", help="said first, after the label: what, "
                   "where")
    p.add_argument("--step", default="", metavar="KEY", help="the step's "
                   "key (e.g. kernel-test): its last time or estimate said "
                   "first, its time kept when CMD succeeds")
    p.add_argument("--estimate", nargs="+", metavar="KEY", help="only say "
                   "how long the steps KEY... take and in all")
    p.add_argument("--unit", default="lines", help="what --count counts")
    p.add_argument("--count", help="regular expression: lines that count")
    p.add_argument("--total", type=int, default=0,
                   help="expected number of counted lines (0: the "
                   "estimate of --step, else unknown)")
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
    if args.estimate:
        known = [(k, *expected(k)) for k in args.estimate]
        known = [(k, s, w) for k, s, w in known if w]
        if known:
            print(", ".join(f"{k} {w}" for k, _, w in known) +
                  f": about {rough(sum(s for _, s, _ in known))} in all")
        return 0
    if args.total <= 0 and args.step:
        args.total = estimate(args.step)[1]

    count_re = re.compile(args.count.encode()) if args.count else None
    pfd = progress_fd()
    shared = same_file(1, pfd)
    quiet_re = re.compile(args.quiet.encode()) if args.quiet else None
    echo = args.echo and not shared
    log = open(args.log, "wb") if args.log else None
    prog = Progress(args, pfd)
    said = expected(args.step)[1] if args.step else None
    if args.about or said:
        line = f"{args.label} {args.about}" if args.about else args.label
        prog.plain(line + (f" ({said})" if said else ""))

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
    if child and status == 0 and args.step:
        record(args.step, time.monotonic() - prog.start)
    line = prog.end(status)
    prog.plain(line)
    return status


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
