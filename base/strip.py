#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Remove upstream's latency-tolerance device PM QoS code from a 6.12 tree.

The stripped-base series (stripped/) implements the feature again; this
step makes the base it applies to.  Every edit below *names* what it
removes (a function,
a struct member, a switch case, a documentation section) and finds it in
the tree; nothing of upstream's text is carried here except the short
anchors needed to find a spot.  Each edit must match exactly as often as
stated, or the step stops with a message naming the file and the edit and
leaves the tree as it was.

Usage: strip.py KERNEL_TREE   (strip it)
       strip.py --list        (print the files it edits)
"""

import re
import sys
from pathlib import Path


class StripError(Exception):
    """An expected piece of upstream code was not found."""


def _block_end(lines, start):
    """Index of the line that closes the brace opened at or after @start."""
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        code = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '', lines[i])
        code = re.sub(r'/\*.*?\*/|//.*', '', code)
        for ch in code:
            if ch == '{':
                depth += 1
                opened = True
            elif ch == '}':
                depth -= 1
                if opened and depth == 0:
                    return i
    raise StripError('unbalanced braces after line %d' % (start + 1))


def _find(lines, regex, what):
    hits = [i for i, line in enumerate(lines) if re.search(regex, line)]
    if len(hits) != 1:
        raise StripError('%s: expected once, found %d times' % (what, len(hits)))
    return hits[0]


def _squeeze(lines, at):
    """Drop a blank line left doubled at @at by a removal."""
    if 0 < at < len(lines) and not lines[at].strip() and not lines[at - 1].strip():
        del lines[at]
    elif at == len(lines) and at > 0 and not lines[at - 1].strip():
        del lines[at - 1]


class Edits:
    """The edit vocabulary: each method removes one named thing."""

    def __init__(self, path, text):
        self.path = path
        self.lines = text.split('\n')

    def lines_matching(self, regex, count):
        """Remove the @count lines that match @regex (whole lines)."""
        hits = [i for i, line in enumerate(self.lines) if re.search(regex, line)]
        if len(hits) != count:
            raise StripError('lines /%s/: expected %d, found %d'
                             % (regex, count, len(hits)))
        for i in reversed(hits):
            del self.lines[i]

    def function(self, name):
        """Remove the definition of C function @name with its kernel-doc
        comment and its EXPORT_SYMBOL line."""
        lines = self.lines
        start = _find(lines, r'^\S.*\b%s\(' % re.escape(name) + r'(?!.*;\s*$)',
                      'function %s()' % name)
        end = _block_end(lines, start)
        if end + 1 < len(lines) and re.match(
                r'EXPORT_SYMBOL(_GPL)?\(%s\);' % re.escape(name), lines[end + 1]):
            end += 1
        if start > 0 and lines[start - 1].strip() == '*/':
            top = start - 1
            while top >= 0 and not lines[top].startswith('/*'):
                top -= 1
            start = top
        del lines[start:end + 1]
        _squeeze(lines, start)

    def block(self, regex, what, count=1):
        """Remove the @count brace-balanced statements or definitions that
        start on lines matching @regex (each through its closing brace)."""
        hits = [i for i, l in enumerate(self.lines) if re.search(regex, l)]
        if len(hits) != count:
            raise StripError('%s: expected %d, found %d'
                             % (what, count, len(hits)))
        for start in reversed(hits):
            end = _block_end(self.lines, start)
            del self.lines[start:end + 1]
            _squeeze(self.lines, start)

    def case(self, label, count):
        """Remove 'case @label:' from @count switch statements, with its
        statements when it neither falls through to the next label nor
        shares them with the label before it."""
        hits = [i for i, l in enumerate(self.lines)
                if re.search(r'^\s*case %s:' % label, l)]
        if len(hits) != count:
            raise StripError('case %s: expected %d, found %d'
                             % (label, count, len(hits)))
        for start in reversed(hits):
            end = start + 1
            # The last label of a group shares the group's statements:
            # take only the label.
            if not re.match(r'^\s*case ', self.lines[end]) and \
                    not re.match(r'^\s*case .*:$', self.lines[start - 1]):
                while not re.match(r'^\s*(case .*|default):', self.lines[end]):
                    end += 1
            del self.lines[start:end]

    def sub(self, regex, repl, count=1):
        """Replace @regex by @repl, exactly @count times (multi-line)."""
        text, n = re.subn(regex, repl, '\n'.join(self.lines), flags=re.M)
        if n != count:
            raise StripError('substitution /%s/: expected %d, found %d'
                             % (regex, count, n))
        self.lines = text.split('\n')

    def abi_entry(self, what):
        """Remove the ABI entry whose 'What:' is @what."""
        start = _find(self.lines, r'^What:\s+%s$' % re.escape(what),
                      'ABI entry %s' % what)
        end = start + 1
        while end < len(self.lines) and not self.lines[end].startswith('What:'):
            end += 1
        del self.lines[start:end]

    def rst_section(self, title):
        """Remove the reST section titled @title up to the next title with
        the same underline, or to the end of the file."""
        start = _find(self.lines, r'^%s$' % re.escape(title),
                      'section "%s"' % title)
        mark = self.lines[start + 1]
        if not mark or mark != mark[0] * len(mark) or len(mark) < len(title):
            raise StripError('section "%s" has no underline' % title)
        end = start + 2
        while end + 1 < len(self.lines) and self.lines[end + 1] != mark:
            end += 1
        if end + 1 >= len(self.lines):
            end = len(self.lines)
        del self.lines[start:end]
        while self.lines and self.lines[-1] == '' and len(self.lines) > 1 \
                and self.lines[-2] == '':
            del self.lines[-1]

    def text(self):
        return '\n'.join(self.lines)


LT = 'latency_tolerance'
TYPE = 'DEV_PM_QOS_LATENCY_TOLERANCE'


def edit_pm_h(e):
    e.lines_matching(r'^\s*void \(\*set_%s\)\(struct device \*, s32\);$' % LT, 1)


def edit_pm_qos_h(e):
    e.lines_matching(r'^#define PM_QOS_LATENCY_TOLERANCE_(DEFAULT_VALUE|NO_CONSTRAINT)\s', 2)
    e.lines_matching(r'^\s*%s,$' % TYPE, 1)
    e.lines_matching(r'^\s*struct pm_qos_constraints %s;$' % LT, 1)
    e.lines_matching(r'^\s*struct dev_pm_qos_request \*%s_req;$' % LT, 1)
    # prototypes (CONFIG_PM) and the one-line stub bodies (!CONFIG_PM)
    e.lines_matching(r'^(s32|int|void) dev_pm_qos_\w+_%s\(.*\);$' % LT, 4)
    e.sub(r'^static inline \w+ dev_pm_qos_\w+_%s\(.*\)\n\t+\{ return .*; \}\n' % LT, '', 3)
    e.lines_matching(r'^static inline void dev_pm_qos_hide_%s\(.*\) \{\}$' % LT, 1)


def edit_qos_c(e):
    # apply_constraint(), __dev_pm_qos_update_request(),
    # dev_pm_qos_add_ancestor_request(), __dev_pm_qos_drop_user_request()
    e.case(TYPE, 4)
    # dev_pm_qos_constraints_allocate(): the constraints' initialisation
    e.sub(r'^\tc = &qos->%s;\n(\t(plist_head_init|c->)\S.*\n)+\n' % LT, '', 1)
    # dev_pm_qos_constraints_destroy(): flushing its list
    e.sub(r'^\tc = &qos->%s;\n\tplist_for_each_entry_safe\(.*\{\n(\t\t.*\n)+\t\}\n\n'
          % LT, '', 1)
    # request-type validation
    e.function('dev_pm_qos_invalid_req_type')
    e.sub(r' \|\| dev_pm_qos_invalid_req_type\(dev, type\)', '', 1)
    for name in ('get_user', 'update_user', 'expose', 'hide'):
        e.function('dev_pm_qos_%s_%s' % (name, LT))


def edit_sysfs_c(e):
    e.function('pm_qos_%s_us_show' % LT)
    e.function('pm_qos_%s_us_store' % LT)
    e.lines_matching(r'^static DEVICE_ATTR_RW\(pm_qos_%s_us\);$' % LT, 1)
    e.block(r'^static struct attribute \*pm_qos_%s_attrs\[\] = \{$' % LT,
            'attribute list')
    e.block(r'^static const struct attribute_group pm_qos_%s_attr_group = \{$' % LT,
            'attribute group')
    # dpm_sysfs_add(): the merge, its error label; dpm_sysfs_change_owner()
    e.block(r'^\tif \(dev->power.set_%s\) \{$' % LT, 'callback checks', 2)
    e.sub(r'goto err_latency;', 'goto err_wakeup;', 1)
    e.sub(r'^ err_latency:\n\tsysfs_unmerge_group\(.*_%s_attr_group\);\n' % LT, '', 1)
    e.function('pm_qos_sysfs_add_%s' % LT)
    e.function('pm_qos_sysfs_remove_%s' % LT)
    # dpm_sysfs_remove()
    e.lines_matching(r'^\tsysfs_unmerge_group\(&dev->kobj, &pm_qos_%s_attr_group\);$'
                     % LT, 1)


def edit_power_h(e):
    e.lines_matching(r'^extern (int|void) pm_qos_sysfs_(add|remove)_%s\(' % LT, 2)


def edit_lpss_c(e):
    e.function('acpi_lpss_set_ltr')
    # only used by acpi_lpss_set_ltr()
    e.lines_matching(r'^#define LPSS_LTR_(SNOOP_\w+|MAX_VAL)\s', 7)
    # acpi_lpss_bind()/unbind() install and clear the callback
    e.sub(r'^\tif \(pdata->mmio_size >= pdata->dev_desc->prv_offset \+ LPSS_LTR_SIZE\)\n'
          r'\t\tdev->power.set_%s = acpi_lpss_set_ltr;\n\telse\n'
          r'(\t\tdev_err\(dev, "MMIO size insufficient to access LTR\\n"\);\n)' % LT,
          r'\tif (pdata->mmio_size < pdata->dev_desc->prv_offset + LPSS_LTR_SIZE)\n\1', 1)
    e.lines_matching(r'^\tdev->power.set_%s = NULL;$' % LT, 1)


def edit_abi(e):
    e.abi_entry('/sys/devices/.../power/pm_qos_%s_us' % LT)


def edit_rst(e):
    e.rst_section('Active state latency tolerance')
    # dev_pm_qos_add_ancestor_request(): the second half of its sentence
    e.sub(r' \(for DEV_PM_QOS_RESUME_LATENCY requests\)\n'
          r'  or whose power.set_%s callback pointer is not NULL \(for\n'
          r'  %s requests\)\.\n' % (LT, TYPE),
          ' (for DEV_PM_QOS_RESUME_LATENCY requests).\n', 1)


EDITS = [
    ('include/linux/pm.h', edit_pm_h),
    ('include/linux/pm_qos.h', edit_pm_qos_h),
    ('drivers/base/power/qos.c', edit_qos_c),
    ('drivers/base/power/sysfs.c', edit_sysfs_c),
    ('drivers/base/power/power.h', edit_power_h),
    ('drivers/acpi/x86/lpss.c', edit_lpss_c),
    ('Documentation/ABI/testing/sysfs-devices-power', edit_abi),
    ('Documentation/power/pm_qos_interface.rst', edit_rst),
]

LEFTOVER = re.compile(r'latency_tolerance|LATENCY_TOLERANCE', re.I)


def main(argv):
    if argv[1:] == ['--list']:
        print('\n'.join(rel for rel, _ in EDITS))
        return 0
    if len(argv) != 2:
        sys.stderr.write('usage: strip.py KERNEL_TREE | --list\n')
        return 2
    tree = Path(argv[1])
    out = {}
    for rel, edit in EDITS:
        path = tree / rel
        try:
            e = Edits(rel, path.read_text())
            edit(e)
        except (OSError, StripError) as err:
            sys.stderr.write('base: cannot strip %s: %s\n'
                             'base: is this an unmodified linux-source-6.12 tree?'
                             ' nothing was changed\n' % (rel, err))
            return 1
        left = [i + 1 for i, l in enumerate(e.lines) if LEFTOVER.search(l)]
        if left:
            sys.stderr.write('base: %s still mentions latency tolerance at line(s) %s;'
                             ' nothing was changed\n'
                             % (rel, ', '.join(map(str, left))))
            return 1
        out[path] = e.text()
    # Every other file of drivers/base/power/ must be clean already.
    for path in sorted((tree / 'drivers/base/power').iterdir()):
        if path not in out and path.is_file() and LEFTOVER.search(path.read_text()):
            sys.stderr.write('base: %s mentions latency tolerance; nothing was changed\n'
                             % path.relative_to(tree))
            return 1
    for path, text in out.items():
        path.write_text(text)
    print('base: stripped upstream latency tolerance from %d files' % len(out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
