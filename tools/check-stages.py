#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The library's stages (lib/<stage>/) depend downward only, in the order
lib/STAGES declares (bottom first): no file of a stage includes a header of
a later stage, and no function of a stage calls, or reads a variable of, a
later stage; and a stage's headers declare only functions that the stage
defines; and no two files call each other (data that goes back and forth
between two files is one idea cut in the wrong place); and a file named
after a stage (<stage>.c, <stage>-*.h) is in that stage's folder (a folder
holds one idea: a second one, once a stage of its own, moves there). Files of lib/ itself
(compat.c) sit on top of every stage.

Reads every '#include "stage/..."' line of LIB's folders against the order,
and, given the library's internal static archive (whose members meson names
<stage>_<file>.c.o), the symbols of each object, and where each function
that lib/<stage>/*.h declares is defined. Fails naming the file and line, or
the call, and the rule; on success prints the stages in order with what
each uses.

    check-stages.py --lib LIB [ARCHIVE]
"""
import collections
import os
import re
import subprocess
import sys

# Exceptions for a while, each with whoever removes it and why: (file, the
# later stage's header it includes) or (header, a function of another stage
# that it declares).
ALLOWED = set()

# Files that call each other for a while, each pair (in name order) with
# who unties it; a pair not listed fails. None today: issue 26 untied the
# last ones by moving what both files need down, or the caller up.
CIRCLES = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"')
# A function's declaration at a line's start: "int name(", "const char *name(".
DECL = re.compile(r'^(?!static|typedef|extern)[A-Za-z_][\w *]*?[\s*](\w+)\(')


def read_stages(lib):
    path = os.path.join(lib, 'STAGES')
    try:
        with open(path) as f:
            lines = [ln.split('#', 1)[0].strip() for ln in f]
    except OSError as e:
        sys.exit('%s: %s: the declared order of the stages is needed' % (path, e.strerror))
    return [ln for ln in lines if ln]


# Folders of lib/ that are no stage: private/ holds the header of the
# private ABI (docs/api.md), which declares functions of several stages, as
# the public headers of include/hwprof/ do.
NOT_STAGES = {'private'}


def check_folders(lib, stages):
    bad = []
    folders = sorted(d for d in os.listdir(lib)
                     if os.path.isdir(os.path.join(lib, d)) and d not in NOT_STAGES)
    for d in folders:
        if d not in stages:
            bad.append('lib/%s/ is not in lib/STAGES: add it where it belongs in the order'
                       ' (after every stage it uses)' % d)
    for s in stages:
        if s not in folders:
            bad.append('lib/STAGES lists %s, which has no folder lib/%s/: remove the line'
                       % (s, s))
    return bad


def check_names(lib, stages):
    bad = []
    for stage in stages:
        for name in sorted(os.listdir(os.path.join(lib, stage))):
            other = name.rpartition('.')[0].split('-', 1)[0]
            if name.endswith(('.c', '.h')) and other in stages and other != stage:
                bad.append('lib/%s/%s is named after the stage %s: move it to lib/%s/'
                           ' (git mv), or rename it after what it does in %s'
                           % (stage, name, other, other, stage))
    return bad


def check_includes(lib, stages):
    rank = {s: i for i, s in enumerate(stages)}
    bad = []
    for stage in stages:
        top = os.path.join(lib, stage)
        for dirpath, _, names in sorted(os.walk(top)):
            for name in sorted(names):
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, lib)
                with open(path, errors='replace') as f:
                    for nr, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in rank:
                            continue
                        to = line.split('"')[1]
                        if rank[m.group(1)] > rank[stage] and (rel, to) not in ALLOWED:
                            bad.append('lib/%s:%d: includes "%s": %s may include only %s'
                                       ' (lib/STAGES: a stage uses only those before it);'
                                       ' move what it needs down a stage, or drop the'
                                       ' include' % (rel, nr, to, stage,
                                                     ', '.join(stages[:rank[stage] + 1])))
    return bad


def stage_of(member, stages):
    # "count_counter.c.o" -> "count"; "compat.c.o" (lib/ itself) -> None, the top
    base = member[:-len('.c.o')] if member.endswith('.c.o') else member
    # A generated source: "meson-generated_.._export_flamegraph-page.c.o", of
    # the stage whose meson.build generates it.
    if base.startswith('meson-generated_'):
        base = re.sub(r'^(\.\._)*', '', base[len('meson-generated_'):])
    first = base.split('_', 1)[0] if '_' in base else None
    return first if first in stages else None


def read_symbols(archive):
    """What each member of @archive defines and uses: ({symbol: member},
    {member: {symbol}})."""
    out = subprocess.run(['nm', '-A', '--format=posix', archive],
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit('nm %s failed: %s' % (archive, out.stderr.strip()))
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
    return defined, used


def read_calls(defined, used, archive, stages):
    if len({stage_of(m, stages) for m in defined.values()}) < min(3, len(stages)):
        sys.exit('too few stages in %s: is it the library archive?' % archive)
    calls = collections.defaultdict(set)    # (from, to) -> "file -> file: symbol"
    for member, syms in used.items():
        for s in syms:
            a, b = stage_of(member, stages), stage_of(defined.get(s, ''), stages)
            if s in defined and a != b:
                calls[a, b].add('%s -> %s: %s' % (member[:-2], defined[s][:-2], s))
    return calls


def check_calls(calls, stages):
    rank = {s: i for i, s in enumerate(stages)}
    rank[None] = len(stages)
    bad = []
    for (a, b), which in sorted(calls.items(), key=lambda kv: (rank[kv[0][0]],
                                                               rank[kv[0][1]])):
        if rank[b] > rank[a]:
            bad.append('%s calls %s, a later stage (lib/STAGES: a stage uses only those'
                       ' before it); move what both need down a stage:' % (a, b))
            bad += ['  ' + c for c in sorted(which)[:5]]
    return bad


def check_headers(lib, stages, defined):
    bad = []
    for stage in stages:
        top = os.path.join(lib, stage)
        for name in sorted(os.listdir(top)):
            if not name.endswith('.h'):
                continue
            rel = '%s/%s' % (stage, name)
            with open(os.path.join(top, name), errors='replace') as f:
                for nr, line in enumerate(f, 1):
                    m = DECL.match(line)
                    member = m and defined.get(m.group(1))
                    if not member or (rel, m.group(1)) in ALLOWED:
                        continue
                    if stage_of(member, stages) != stage:
                        bad.append('lib/%s:%d: declares %s, which %s defines: a stage\'s'
                                   ' header declares only what the stage defines; move'
                                   ' the declaration to a header of %s'
                                   % (rel, nr, m.group(1), member[:-2],
                                      stage_of(member, stages) or 'lib/'))
    return bad


def source_of(member):
    # "result_result-units.c.o" -> "result/result-units.c"
    return member[:-len('.o')].replace('_', '/', 1)


def check_circles(defined, used):
    calls = collections.defaultdict(set)
    for member, syms in used.items():
        for s in syms:
            if s in defined and defined[s] != member:
                calls[source_of(member), source_of(defined[s])].add(s)
    bad = []
    for (a, b), which in sorted(calls.items()):
        if a < b and (b, a) in calls and (a, b) not in CIRCLES:
            bad.append('%s and %s call each other (%s; %s): calls between two files'
                       ' go one way; move what both need into one of them or below'
                       % (a, b, ', '.join(sorted(which)[:3]),
                          ', '.join(sorted(calls[b, a])[:3])))
    return bad


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 3) or args[0] != '--lib':
        sys.exit(__doc__)
    lib = args[1]
    stages = read_stages(lib)
    bad = check_folders(lib, stages)
    bad += check_names(lib, [s for s in stages if os.path.isdir(os.path.join(lib, s))])
    bad += check_includes(lib, stages)
    calls = {}
    if len(args) == 3:
        defined, used = read_symbols(args[2])
        calls = read_calls(defined, used, args[2], stages)
        bad += check_calls(calls, stages) + check_headers(lib, stages, defined)
        bad += check_circles(defined, used)
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print('%d stages (lib/STAGES), each including%s only those before it:'
          % (len(stages), ' and calling' if calls else ''))
    for s in stages:
        print('  %-9s calls %s' % (s, ', '.join(b for b in stages if (s, b) in calls) or '-'))


if __name__ == '__main__':
    main()
