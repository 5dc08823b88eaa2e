#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Decide pass/fail of a QEMU serial console log holding KTAP/TAP documents.

Usage: qemu/judge.py [--expect NAME ...] [--no-end] [--host-log FILE ...]
                             [--patterns FILE] [--vmlinux VMLINUX --tree TREE]
                             LOG

Each --host-log FILE holds KTAP documents the host wrote while the guest
ran (qemu/qmp-watch.py's lpss_host), judged like those of LOG; only LOG
may hold GUEST-END (a host file that does fails).

The log may hold several documents, with printk lines interleaved and an
optional "[   1.234567] " timestamp prefix on any line.  Lines that are not
TAP syntax (version, plan, result, "#" comment) are ignored.  A document
starts at every version line ("KTAP version N" / "TAP version N") with no
indentation; deeper-indented lines are subtests of the next result line at
the enclosing level.

Naming (what --expect matches): a document is named by its top-level
"# Subtest: <name>" line; else "kunit" if every top-level result has
subtests (KUnit's document at boot); else the first word (up to ':') of
its first top-level "# " comment before the first result; else "doc<i>"
(i counts from 1).  A top-level result with subtests (a KUnit suite, or a
guest script in guest/suite-runner.sh's document "guest") is named by its
description.  Guest scripts need not name themselves: suite-runner.sh's
document nests each one as a subtest named after its folder, and reports
a script that exited non-zero or was killed at its timeout as a "not ok"
result (with a directive such as "# exit=2" or "# TIMEOUT 240 s").

Checks: plan present (in a document and in each suite: the subtests of a
top-level result; deeper ones, such as KUnit's parameters, may omit it);
top-level result count == plan (nested plans are checked when present);
results numbered 1, 2, ... at every level; any "not ok" without
"# SKIP"/"# TODO" fails (a parent whose subtests all passed too, and one
that gives a reason such as "# TIMEOUT" or "# exit=2" always); every
--expect NAME exists and ran something (a document or suite whose every
case was skipped, or whose plan is "1..0 # SKIP why", fails); no kernel
report (BUG:, WARNING:, Oops, lockdep, KASAN:, ...: the patterns of
guest/kernel-reports, or --patterns FILE) on a non-TAP line; a line
exactly "GUEST-END", not indented, is present (unless --no-end).

Each kernel report (the matching line and the rest of its block: stack
trace, up to its end marker) is printed as "#   " lines, decoded by
TREE/scripts/decode_stacktrace.sh when --vmlinux and --tree are given.

Output: one line per leaf result ("PASS <doc>: <n> <desc>", where n is
dotted for nested results, e.g. "2.3", and desc is "suite/case"; SKIP for
a skipped case, and "SKIP <doc>: 1..0 <why>" for a document that skipped
everything), one "FAIL harness: <reason>" line per other problem, and last
"N passed, M failed, K skipped".  Exit 0 only if M == 0 and N > 0.
"""

import argparse
import os
import re
import subprocess
import sys

# the firmware's terminal escapes, which may precede the guest's first line
ESC_RE = re.compile(r'\x1b(?:\[[0-9;?]*[A-Za-z]|[A-Za-z])')
TS_RE = re.compile(r'^(?:\[\s*\d+\.\d+\])(?:\[\s*[TC]\d+\])? ?')
VERSION_RE = re.compile(r'^( *)(?:KTAP|TAP) version \d+\s*$')
PLAN_RE = re.compile(r'^( *)1\.\.(\d+)\s*(?:#\s*(.*?))?\s*$')
RESULT_RE = re.compile(
    r'^( *)(ok|not ok) (\d+)\b(?:\s+-)?\s*([^#]*?)\s*(?:#\s*(.*?))?\s*$')
COMMENT_RE = re.compile(r'^( *)#(?: (.*?))?\s*$')
SUBTEST_RE = re.compile(r'^Subtest:\s*(\S.*?)\s*$')

HERE = os.path.dirname(os.path.abspath(__file__))
# What the kernel prints that fails a run: one list, shared with the guest
PATTERNS = os.path.join(HERE, '..', 'guest', 'kernel-reports')
# A report is the matching line and what follows it: up to the end of a
# WARN/BUG ("---[ end trace"), KASAN's closing "=====" line, MAX_REPORT
# lines, or a pause of more than 0.25 s in the printk timestamps.
REPORT_END_RE = re.compile(r'---\[ end trace|^={20,}\s*$')
TS_VALUE_RE = re.compile(r'^\[\s*(\d+\.\d+)\]')
MAX_REPORT = 80
MAX_SHOWN = 5


class Line:
    """One TAP-syntax line: kind is version, plan, result or comment."""

    def __init__(self, lineno, indent, kind, **data):
        self.lineno = lineno
        self.indent = indent
        self.kind = kind
        self.__dict__.update(data)


class Result:
    """A test result, with the results of its subtests (if any)."""

    def __init__(self, line, children=None):
        self.num = line.num
        self.ok = line.ok
        self.desc = line.desc
        self.directive = line.directive
        self.lineno = line.lineno
        self.children = children

    @property
    def skipped(self):
        return re.match(r'(?i)(skip|todo)\b', self.directive or '') is not None


class Block:
    """Lines at one indentation level: plan, name, results."""

    def __init__(self):
        self.plan = None
        self.name = None
        self.comments = []
        self.results = []
        self.unfinished = None  # subtest block never closed by a result


def classify(lineno, raw):
    """Return a Line for TAP syntax, 'END' for GUEST-END, or None."""
    text = ESC_RE.sub('', raw.rstrip('\r\n'))
    text = TS_RE.sub('', text, count=1).rstrip()
    if text == 'GUEST-END':
        return 'END'
    m = VERSION_RE.match(text)
    if m:
        return Line(lineno, len(m.group(1)), 'version')
    m = PLAN_RE.match(text)
    if m:
        return Line(lineno, len(m.group(1)), 'plan', count=int(m.group(2)),
                    directive=m.group(3))
    m = RESULT_RE.match(text)
    if m:
        return Line(lineno, len(m.group(1)), 'result', ok=m.group(2) == 'ok',
                    num=int(m.group(3)), desc=m.group(4),
                    directive=m.group(5))
    m = COMMENT_RE.match(text)
    if m:
        return Line(lineno, len(m.group(1)), 'comment', text=m.group(2) or '')
    return None


def parse_block(lines, pos, indent):
    """Parse lines[pos:] at `indent` until a shallower line; return end."""
    block = Block()
    pending = None
    while pos < len(lines):
        line = lines[pos]
        if line.indent < indent:
            break
        if line.indent > indent:
            pending, pos = parse_block(lines, pos, line.indent)
            continue
        pos += 1
        if line.kind == 'version':
            continue
        if line.kind == 'plan':
            if block.plan is None:
                block.plan = line
            continue
        if line.kind == 'comment':
            m = SUBTEST_RE.match(line.text)
            if m and block.name is None and not block.results:
                block.name = m.group(1)
            elif not block.results:
                block.comments.append(line.text)
            continue
        block.results.append(Result(line, pending))
        pending = None
    block.unfinished = pending
    return block, pos


def split_documents(lines):
    """Split TAP lines into top-level documents (lists of lines)."""
    docs = []
    for line in lines:
        if line.kind == 'version' and line.indent == 0:
            docs.append([line])
        elif docs:
            docs[-1].append(line)
    return docs


def doc_name(block, index):
    if block.name:
        return block.name
    if all(r.children is not None for r in block.results):
        return 'kunit'
    for text in block.comments:
        word = text.split(':', 1)[0].strip()
        if word:
            return word.split()[0]
    return 'doc%d' % index


def describe(path, res):
    """A leaf's description: its path, and a failure's directive."""
    desc = '/'.join(path)
    if not res.ok and res.directive and not res.skipped:
        desc += ' # ' + res.directive
    return desc


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.out = []
        self.ran = {}  # document or suite name -> whether a case ran

    def harness(self, reason):
        self.failed += 1
        self.out.append('FAIL harness: %s' % reason)

    def leaf(self, doc, num, desc, status):
        if status == 'PASS':
            self.passed += 1
        elif status == 'FAIL':
            self.failed += 1
        else:
            self.skipped += 1
        self.out.append('%s %s: %s %s' % (status, doc, num, desc))

    def check_block(self, doc, block, prefix, path, toplevel,
                    finished=True):
        where = doc if toplevel else '%s: %s' % (doc, '/'.join(path) or '?')
        if block.plan is None:
            # a document and each suite (a top-level result's subtests)
            # must have one; deeper subtests (KUnit's parameters) need not
            if toplevel or (block.results and prefix.count('.') == 1):
                self.harness('%s: no plan' % where)
        elif toplevel and block.plan.count == 0 and not block.results:
            # "1..0 # SKIP why": the whole document skipped
            self.leaf(doc, '1..0', block.plan.directive or 'empty plan',
                      'SKIP')
        elif finished and len(block.results) != block.plan.count:
            self.harness('%s: planned %d, got %d results'
                         % (where, block.plan.count, len(block.results)))
        for expect, res in enumerate(block.results, 1):
            if res.num != expect:
                self.harness('%s: result numbered %d at line %d, expected %d'
                             % (where, res.num, res.lineno, expect))
                break
        for res in block.results:
            before = (self.passed, self.failed)
            self.check_result(doc, res, prefix, path)
            if toplevel and res.children is not None:
                self.ran_by(res.desc, before)
        if block.unfinished is not None:
            self.check_unfinished(doc, block, prefix, path, where)

    def check_result(self, doc, res, prefix, path):
        """One result: its subtests' leaves, or a leaf of its own."""
        num = prefix + str(res.num)
        rpath = path + [res.desc or str(res.num)]
        sub = res.children
        if sub is not None and sub.results:
            before = self.failed
            self.check_block(doc, sub, num + '.', rpath, False)
            # a failed case fails its parent: count the parent only when
            # no case failed, or when it says why (# TIMEOUT, # exit=N)
            if not res.ok and not res.skipped and (
                    res.directive or self.failed == before):
                self.leaf(doc, num, describe(rpath, res), 'FAIL')
            return
        status = 'PASS' if res.ok else 'FAIL'
        if sub is not None:
            self.check_block(doc, sub, num + '.', rpath, False)
            if sub.plan is not None and sub.plan.count == 0 and res.ok:
                status = 'SKIP'  # "1..0 # SKIP why": skipped everything
        if res.skipped:
            status = 'SKIP'
        self.leaf(doc, num, describe(rpath, res), status)

    def ran_by(self, name, before):
        """Note whether NAME passed or failed a case since BEFORE."""
        ran = before != (self.passed, self.failed)
        self.ran[name] = self.ran.get(name, False) or ran

    def check_unfinished(self, doc, block, prefix, path, where):
        """A subtest block that no result line closed (a crash)."""
        sub = block.unfinished
        num = prefix + str(len(block.results) + 1)
        name = sub.name or num
        self.harness('%s: subtest %s did not finish' % (where, name))
        self.check_block(doc, sub, num + '.', path + [name], False,
                         finished=False)


def load_patterns(path):
    """Return (report regexes, benign regexes) from a kernel-reports file."""
    reports, benign = [], []
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip('\r\n')
            if not line or line.startswith('#'):
                continue
            try:
                if line.startswith('!'):
                    benign.append(re.compile(line[1:]))
                else:
                    reports.append(re.compile(line))
            except re.error as e:
                raise ValueError('%s:%d: %s' % (path, lineno, e)) from e
    if not reports:
        raise ValueError('%s: no pattern' % path)
    return reports, benign


class Reports:
    """Kernel reports on the console: each a list of (lineno, text)."""

    def __init__(self, patterns):
        self.patterns, self.benign = patterns
        self.found = []
        self.current = None
        self.last_ts = None

    def is_report(self, text):
        if any(p.search(text) for p in self.benign):
            return False
        return any(p.search(text) for p in self.patterns)

    def feed(self, lineno, raw):
        """Take one console line that is not TAP syntax."""
        text = raw.rstrip('\r\n')
        bare = TS_RE.sub('', text, count=1)
        m = TS_VALUE_RE.match(text)
        ts = float(m.group(1)) if m else None
        cur = self.current
        if cur is not None:
            paused = (ts is not None and self.last_ts is not None
                      and ts - self.last_ts > 0.25)
            if paused or len(cur) >= MAX_REPORT:
                cur = self.current = None
            else:
                cur.append((lineno, text))
                if ts is not None:
                    self.last_ts = ts
                if REPORT_END_RE.search(bare):
                    self.current = None
                return
        if self.is_report(bare):
            self.current = [(lineno, text)]
            self.found.append(self.current)
            self.last_ts = ts


def decode(lines, vmlinux, tree):
    """Report lines decoded by the tree's decode_stacktrace.sh, or None."""
    script = os.path.join(tree, 'scripts', 'decode_stacktrace.sh')
    if not os.path.isfile(vmlinux):
        return None, 'no such file'
    try:
        out = subprocess.run([script, vmlinux, tree], capture_output=True,
                             text=True, timeout=300, check=False,
                             input=''.join(t + '\n' for t in lines))
    except (OSError, subprocess.SubprocessError) as e:
        return None, str(e)
    if out.returncode != 0 or not out.stdout.strip():
        return None, 'exit status %d: %s' % (out.returncode,
                                            out.stderr.strip()[-300:])
    return out.stdout.rstrip('\n').split('\n'), None


def show_reports(found, vmlinux, tree):
    """Print the reports: decoded with a vmlinux, else their raw lines."""
    for report in found[:MAX_SHOWN]:
        lines = [text for _, text in report]
        print('# kernel report at line %d:' % report[0][0])
        if vmlinux:
            decoded, err = decode(lines, vmlinux, tree)
            if decoded is None:
                print('# (decode_stacktrace.sh %s failed: %s; raw lines)'
                      % (vmlinux, err))
            else:
                lines = decoded
        for text in lines:
            print('#   %s' % text)
    if len(found) > MAX_SHOWN:
        print('# (%d more kernel reports not shown)'
              % (len(found) - MAX_SHOWN))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    ap.add_argument('--expect', action='append', default=[], metavar='NAME',
                    help='fail unless a document of this name exists')
    ap.add_argument('--no-end', action='store_true',
                    help='do not require the GUEST-END line')
    ap.add_argument('--host-log', action='append', default=[],
                    metavar='FILE', help='KTAP documents the host wrote '
                    'during the run (qemu/qmp-watch.py), judged too')
    ap.add_argument('--patterns', default=PATTERNS, metavar='FILE',
                    help='kernel report patterns (default guest/kernel-reports)')
    ap.add_argument('--vmlinux', metavar='FILE',
                    help='decode reports against this vmlinux (needs --tree)')
    ap.add_argument('--tree', metavar='DIR',
                    help='kernel source tree: scripts/decode_stacktrace.sh')
    ap.add_argument('log')
    args = ap.parse_args()
    if args.vmlinux and not args.tree:
        ap.error('--vmlinux needs --tree')

    try:
        with open(args.log, encoding='utf-8', errors='replace') as f:
            raw_lines = f.readlines()
    except OSError as e:
        print('FAIL harness: cannot read log: %s' % e)
        print('0 passed, 1 failed, 0 skipped')
        return 1

    chk = Checker()
    try:
        reports = Reports(load_patterns(args.patterns))
    except (OSError, ValueError) as e:
        print('FAIL harness: cannot read kernel report patterns: %s' % e)
        print('0 passed, 1 failed, 0 skipped')
        return 1
    tap = []
    seen_end = False
    for lineno, raw in enumerate(raw_lines, 1):
        line = classify(lineno, raw)
        if line == 'END':
            seen_end = True
        elif line is not None:
            tap.append(line)
        else:
            reports.feed(lineno, raw)
    docs = split_documents(tap)

    # The host's documents (qemu/qmp-watch.py): TAP only; GUEST-END
    # there would hide a guest that never finished.
    for path in args.host_log:
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                host_lines = f.readlines()
        except OSError as e:
            chk.harness('cannot read host log: %s' % e)
            continue
        host_tap = []
        for lineno, raw in enumerate(host_lines, 1):
            line = classify(lineno, raw)
            if line == 'END':
                chk.harness('GUEST-END at line %d of host log %s: only the '
                            'guest may write it' % (lineno, path))
            elif line is not None:
                host_tap.append(line)
        docs += split_documents(host_tap)

    for index, doc in enumerate(docs, 1):
        block, _ = parse_block(doc, 0, 0)
        name = doc_name(block, index)
        before = (chk.passed, chk.failed)
        chk.check_block(name, block, '', [], True)
        chk.ran_by(name, before)

    for name in args.expect:
        if name not in chk.ran:
            chk.harness('expected %s not found' % name)
        elif not chk.ran[name]:
            chk.harness('expected %s skipped all its cases' % name)
    for report in reports.found:
        lineno, text = report[0]
        chk.harness('kernel report at line %d: %s'
                    % (lineno, TS_RE.sub('', text, count=1).strip()))
    if not seen_end and not args.no_end:
        chk.harness('GUEST-END missing (guest crashed or timed out)')
    if chk.passed == 0 and chk.failed == 0:
        chk.harness('no test result passed')

    print('\n'.join(chk.out))
    show_reports(reports.found, args.vmlinux, args.tree)
    print('%d passed, %d failed, %d skipped'
          % (chk.passed, chk.failed, chk.skipped))
    return 0 if chk.failed == 0 and chk.passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
