#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The library's stages (lib/<stage>/) depend downward only: no function of
a stage calls, or reads a variable of, a stage that depends on it.

Reads the symbols of every object of the library (the internal static
archive, whose members meson names <stage>_<file>.c.o), draws the graph of
stages, and fails on a cycle, naming the calls that make it. On success it
prints the stages in an order where each uses only those before it.

    check-stages.py ARCHIVE
"""
import collections
import subprocess
import sys


def stage_of(member):
    # "count_counter.c.o" -> "count"; "compat.c.o" (lib/ itself) -> "compat"
    base = member[:-len('.c.o')] if member.endswith('.c.o') else member
    return base.split('_', 1)[0] if '_' in base else base


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = subprocess.run(['nm', '-A', '--format=posix', sys.argv[1]],
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit('nm %s failed: %s' % (sys.argv[1], out.stderr.strip()))
    defined, used = {}, collections.defaultdict(set)
    for line in out.stdout.splitlines():
        # "ARCHIVE[path/MEMBER]: SYMBOL TYPE [VALUE SIZE]"
        where, sep, rest = line.partition(']: ')
        if not sep:
            continue
        member = where.rpartition('[')[2].rpartition('/')[2]
        f = rest.split()
        if len(f) >= 2 and f[1] in 'TDBRWV':
            defined[f[0]] = member
        elif len(f) >= 2 and f[1] == 'U':
            used[member].add(f[0])
    calls = collections.defaultdict(set)    # (from, to) -> "file -> file: symbol"
    for member, syms in used.items():
        for s in syms:
            if s in defined and stage_of(defined[s]) != stage_of(member):
                calls[stage_of(member), stage_of(defined[s])].add(
                    '%s -> %s: %s' % (member[:-2], defined[s][:-2], s))
    stages = sorted({stage_of(m) for m in defined.values()} | set(map(stage_of, used)))
    deps = {s: {b for (a, b) in calls if a == s} for s in stages}
    if len(stages) < 5:
        sys.exit('only %d stages in %s: is it the library archive?' % (len(stages), sys.argv[1]))

    order, state = [], {}

    def visit(s, path):
        state[s] = 'open'
        for d in sorted(deps[s]):
            if state.get(d) == 'open':
                cycle = path[path.index(d):] + [d]
                print('the stages form a cycle: ' + ' -> '.join(cycle))
                for a, b in zip(cycle, cycle[1:]):
                    for c in sorted(calls[a, b])[:5]:
                        print('  ' + c)
                print('move what both need down a stage (or into core/ or util/), so that'
                      ' calls go one way')
                sys.exit(1)
            if d not in state:
                visit(d, path + [d])
        state[s] = 'done'
        order.append(s)

    for s in stages:
        if s not in state:
            visit(s, [s])
    print('%d stages, no cycle; each uses only those before it:' % len(order))
    for s in order:
        print('  %-8s uses %s' % (s, ', '.join(d for d in order if d in deps[s]) or '-'))


if __name__ == '__main__':
    main()
