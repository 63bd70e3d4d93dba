#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The files of lib/event/ call one another one way: an event name's
resolution asks each kind of name (pmu.c, event-pfm.c, tracepoint.c, the
generic and raw names of event-names.c) in turn, and no kind calls back
into the resolver (event-names.c) or the parser (event.c); nor do any two
files of the stage call each other around a circle.

Reads the symbols of the library's internal archive, whose members meson
names <stage>_<file>.c.o, as tools/check-stages.py does for the stages.

    test_event_calls.py ARCHIVE
"""
import collections
import subprocess
import sys

KINDS = ('pmu.c', 'event-pfm.c', 'tracepoint.c')
ABOVE_KINDS = ('event-names.c', 'event.c')


def calls_between_files(archive, stage):
    out = subprocess.run(['nm', '-A', '--format=posix', archive],
                         capture_output=True, text=True, check=True).stdout
    defined, used = {}, collections.defaultdict(set)
    for line in out.splitlines():
        where, sep, rest = line.partition(']: ')
        if not sep:
            continue
        member = where.rpartition('[')[2].rpartition('/')[2]
        if not member.startswith(stage + '_'):
            continue
        name = member[len(stage) + 1:-len('.o')]
        f = rest.split()
        if len(f) >= 2 and f[1] in 'TDBRWV':
            defined[f[0]] = name
        elif len(f) >= 2 and f[1] == 'U':
            used[name].add(f[0])
    calls = collections.defaultdict(set)    # (caller, callee) -> symbols
    for name, syms in used.items():
        for s in syms:
            if s in defined and defined[s] != name:
                calls[name, defined[s]].add(s)
    return calls


def find_cycle(calls):
    deps = collections.defaultdict(set)
    for a, b in calls:
        deps[a].add(b)
    state = {}

    def visit(f, path):
        state[f] = 'open'
        for d in sorted(deps[f]):
            if state.get(d) == 'open':
                return path[path.index(d):] + [d]
            if d not in state:
                c = visit(d, path + [d])
                if c:
                    return c
        state[f] = 'done'
        return None

    for f in sorted(deps):
        if f not in state:
            c = visit(f, [f])
            if c:
                return c
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    calls = calls_between_files(sys.argv[1], 'event')
    print('TAP version 13')
    if not calls:
        print('1..0 # SKIP no calls between the files of event/ in %s' % sys.argv[1])
        return 0
    failed = 0

    back = ['%s -> %s: %s' % (a, b, ', '.join(sorted(calls[a, b])))
            for (a, b) in sorted(calls) if a in KINDS and b in ABOVE_KINDS]
    for b in back:
        print('# a kind of name calls back: ' + b)
    print('%s 1 - kinds of name do not call the resolver or the parser'
          % ('not ok' if back else 'ok'))
    failed += bool(back)

    cycle = find_cycle(calls)
    if cycle:
        print('# the files of event/ form a circle: ' + ' -> '.join(cycle))
        for a, b in zip(cycle, cycle[1:]):
            print('#   %s -> %s: %s' % (a, b, ', '.join(sorted(calls[a, b]))))
    print('%s 2 - files of event/ call one another one way'
          % ('not ok' if cycle else 'ok'))
    failed += bool(cycle)
    print('1..2')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
