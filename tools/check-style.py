#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The style of the tree, checked line by line. This script, not a
formatter's configuration, is the rule: the suite runs it as the test
'style', and each thing it reports says what to do.

The style is the kernel's: tabs, 90 columns, and a string someone may grep
for is never split. Lines are wrapped by hand, not by a formatter; these
are the rules that can be checked without a C parser.

C and C++ (.c .h .cc):
- no line wider than 90 columns (a tab counts to the next multiple of 8),
  but one that ends with a string literal too long to fit even on a line
  of its own: the string starts before column 90, only what closes the
  line follows it (brackets, commas, a semicolon, && || ? :, a macro's
  backslash), and starting where a continuation would (inside its
  bracket) it would still end past column 90. Pieces of one string
  ("a %" PRIu64 " b") count as one. Code after a string goes on the next
  line, as everywhere;
- indentation is tabs, then fewer than 8 spaces to align a continuation:
  no line starts with a space, none has a space before a tab or 8 spaces
  in its indentation. The text inside a block comment is left alone.
C (.c .h) in lib/ and cli/ (paths relative to the folder walked, or for a
file named alone, to the current folder):
- no file over 800 lines;
- no function over 80 lines, counted from the first line of its definition
  to its closing brace (kernel style: the body's braces alone at the start
  of a line).
Every file checked, C or not (also .py, .sh, meson.build,
meson_options.txt, Makefile, and executable scripts with a #! line):
- an SPDX-License-Identifier in its first 3 lines;
- no trailing whitespace, no CRLF (\\r\\n) line ends;
- a newline at the end.

Prints one line a problem, 'path:line: what is wrong (what to do)', then a
count, and exits 1; with none, prints how many files it read and exits 0.

    check-style.py [PATH...]

Each PATH is a file, or a folder to walk; without one, the tree this
script is in. A walk skips hidden folders (.git) and meson build folders.
"""
import os
import re
import sys

MAX_COLUMNS = 90
TAB = 8
C_EXTS = ('.c', '.h', '.cc')
OTHER_EXTS = ('.py', '.sh')
OTHER_NAMES = ('meson.build', 'meson_options.txt', 'Makefile')
SPDX = 'SPDX-License-Identifier'
# Indentation: tabs, then fewer than 8 spaces; spaces alone are not.
GOOD_INDENT = re.compile(r'(\t+ {0,7})?(\S|$)')
# Between two pieces of one string: "..." PRIx64 "...", or "..." "...".
STRING_GAP = re.compile(r'\s*(\w+\s*)?')
# What may follow a string that runs past the limit: what closes the line.
LINE_CLOSING = re.compile(r'([\s)\]},;:?{\\]|&&|\|\|)*')
# Size limits, for C in these folders of the tree.
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80
LIMITED_DIRS = ('lib/', 'cli/')
LIMITED_EXTS = ('.c', '.h')
# The name a function definition's first lines declare.
FUNCTION_NAME = re.compile(r'(\w+)\s*\(')


def kind_of(path):
    """'c', 'other' (the file-wide rules only), or None (not checked)."""
    name = os.path.basename(path)
    if name.endswith(C_EXTS):
        return 'c'
    if name.endswith(OTHER_EXTS) or name in OTHER_NAMES:
        return 'other'
    if not os.access(path, os.X_OK):
        return None
    try:
        with open(path, 'rb') as f:
            if f.read(2) == b'#!':
                return 'other'
    except OSError:
        pass
    return None


def is_build_dir(path):
    return os.path.isdir(os.path.join(path, 'meson-private')) or \
        os.path.isfile(os.path.join(path, 'build.ninja'))


def walk(top):
    """The files under top that are checked, in a stable order."""
    for root, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.')
                         and not is_build_dir(os.path.join(root, d)))
        for name in sorted(files):
            path = os.path.join(root, name)
            if not os.path.islink(path) and kind_of(path):
                yield path


class Piece:
    """A string literal of one line of C (its pieces joined, as in
    "a %" PRIu64 " b"): where it starts and ends, and the column it would
    start at on a line of its own: just inside the innermost bracket open
    before it on the line; else, where it starts the line, the line's
    indentation, and one tab more where it follows code (return "...")."""

    def __init__(self, start, end, align):
        self.start, self.end, self.align = start, end, align


def column(line, i):
    """The column (from 0) at which line[i] starts, tabs expanded."""
    return len(line[:i].expandtabs(TAB))


def scan_code(line, in_comment):
    """Walk one line of C: its string literals outside comments (Pieces),
    and whether a block comment is open at its end (in_comment: open at
    its start). Character literals ('"', '(') are neither strings nor
    brackets."""
    pieces, opened = [], []     # opened: the align column of each open bracket
    indent = column(line, len(line) - len(line.lstrip()))
    i, n = 0, len(line)
    while i < n:
        if in_comment:
            end = line.find('*/', i)
            if end < 0:
                return pieces, True
            in_comment, i = False, end + 2
        elif line.startswith('//', i):
            break
        elif line.startswith('/*', i):
            in_comment, i = True, i + 2
        elif line[i] in '"\'':
            quote, start = line[i], i
            i += 1
            while i < n and line[i] != quote:
                i += 2 if line[i] == '\\' else 1
            i = min(i + 1, n)
            if quote != '"':
                continue
            if pieces and STRING_GAP.fullmatch(line, pieces[-1].end, start):
                pieces[-1].end = i
            else:
                pieces.append(Piece(start, i, opened[-1] if opened else
                                    indent if not line[:start].strip() else indent + TAB))
        else:
            if line[i] in '([{':
                opened.append(column(line, i + 1) + (line[i] == '{'))
            elif line[i] in ')]}' and opened:
                opened.pop()
            i += 1
    return pieces, in_comment


def string_runs_over(line, pieces):
    """Whether the line passes the limit only to finish a string that would
    not fit even on a line of its own: the line ends with it (but for
    LINE_CLOSING), it starts before the limit, and it would end past the
    limit too at the start of a line of its own."""
    for p in pieces:
        if LINE_CLOSING.fullmatch(line, p.end) and \
                column(line, p.start) < MAX_COLUMNS and \
                p.align + len(line[p.start:].rstrip().expandtabs(TAB)) > MAX_COLUMNS:
            return True
    return False


def too_wide(line, pieces):
    """Whether the line breaks the column limit (pieces: its strings)."""
    return len(line.expandtabs(TAB)) > MAX_COLUMNS and \
        not string_runs_over(line, pieces)


def check_c_line(where, line, in_comment, problems):
    """The C rules, for one line; returns in_comment for the next."""
    starts_in_comment = in_comment
    pieces, in_comment = scan_code(line, in_comment)
    if not starts_in_comment and not GOOD_INDENT.match(line):
        problems.append('%s indented with spaces (indent with tabs, then fewer '
                        'than 8 spaces to align a continuation)' % where)
    if too_wide(line, pieces):
        problems.append('%s %d columns, more than %d (wrap it: break after a comma '
                        'or an operator, aligned under what it continues; a long '
                        'string starts a line of its own, unsplit; a trailing '
                        'comment goes on its own line above)'
                        % (where, len(line.expandtabs(TAB)), MAX_COLUMNS))
    return in_comment


def functions(lines):
    """The function definitions of C lines in kernel style, as (name, first
    line, last line), numbered from 1: a body opens with '{' alone on a
    line and closes with the first '}' at the start of a line after it; the
    definition starts at the last line before the '{' that starts at
    column 0 with neither a comment nor a preprocessor line, no blank
    line between."""
    found, start, body = [], None, None
    for no, line in enumerate(lines, 1):
        if body is not None:
            if line.startswith('}'):
                head = ' '.join(lines[start - 1:body - 1])
                name = FUNCTION_NAME.search(head)
                found.append((name.group(1) if name else '?', start, no))
                start = body = None
        elif line.rstrip() == '{' and start is not None:
            body = no
        elif not line.strip() or line[0] in '#{}':
            start = None
        elif not line[0].isspace() and not line.startswith(('/*', '//', '*')):
            start = no
    return found


def size_limited(rel):
    """Whether the size limits apply to the file at rel (from the top)."""
    rel = rel.replace(os.sep, '/')
    return rel.startswith(LIMITED_DIRS) and rel.endswith(LIMITED_EXTS)


def check_sizes(rel, shown, lines, problems):
    """The size limits, for one C file of lib/ or cli/."""
    if len(lines) > MAX_FILE_LINES:
        problems.append('%s:%d: %d lines, more than %d (split it: move whole functions '
                        'that belong together into a new file of the same folder)'
                        % (shown, MAX_FILE_LINES + 1, len(lines), MAX_FILE_LINES))
    for name, first, last in functions(lines):
        nr = last - first + 1
        if nr > MAX_FUNCTION_LINES:
            problems.append('%s:%d: function %s has %d lines, more than %d (split it '
                            'into helpers named for what each does)'
                            % (shown, first, name, nr, MAX_FUNCTION_LINES))


def check_file(path, shown, rel):
    """The problems of one file, as 'path:line: ...' lines; rel: its path
    from the top of the tree, for the limits that depend on the folder."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
        text = data.decode('utf-8')
    except (OSError, UnicodeDecodeError) as e:
        return ['%s:1: cannot be read as UTF-8: %s (save it as UTF-8)' % (shown, e)]
    problems = []
    lines = text.split('\n')
    if lines[-1] == '':
        lines.pop()
    if not any(SPDX in line for line in lines[:3]):
        problems.append('%s:1: no %s line in the first 3 lines (add one, as a '
                        'comment: "%s: MIT")' % (shown, SPDX, SPDX))
    is_c = kind_of(path) == 'c'
    in_comment = False
    for no, line in enumerate(lines, 1):
        where = '%s:%d:' % (shown, no)
        if line.endswith('\r'):
            problems.append('%s CRLF line end (end lines with \\n alone)' % where)
            line = line[:-1]
        if line != line.rstrip():
            problems.append('%s trailing whitespace (delete it)' % where)
        if is_c:
            in_comment = check_c_line(where, line, in_comment, problems)
    if size_limited(rel):
        check_sizes(rel, shown, lines, problems)
    if text and not text.endswith('\n'):
        problems.append('%s:%d: no newline at the end of the file (add one)'
                        % (shown, len(lines)))
    return problems


def main(argv):
    if argv[:1] in (['-h'], ['--help']):
        print(__doc__.strip())
        return 0
    if any(a.startswith('-') for a in argv):
        print('check-style.py: no such option: %s (check-style.py --help)'
              % next(a for a in argv if a.startswith('-')), file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    targets = argv or [here]
    files = []      # (path to open, path to print, path from the top)
    for t in targets:
        if os.path.isdir(t):
            for path in walk(t):
                rel = os.path.relpath(path, t)
                files.append((path, rel if not argv else path, rel))
        elif os.path.isfile(t):
            if not kind_of(t):
                print('check-style.py: %s: not a file this checks (C, C++, '
                      'Python, shell, meson, Makefile, #! script)' % t, file=sys.stderr)
                return 2
            files.append((t, t, os.path.relpath(t)))
        else:
            print('check-style.py: %s: no such file or folder' % t, file=sys.stderr)
            return 2
    problems = []
    for path, shown, rel in files:
        problems += check_file(path, shown, rel)
    for p in problems:
        print(p)
    if problems:
        print('%d style problem%s in %d file%s read (tools/check-style.py --help '
              'says what it checks)' % (len(problems), 's'[:len(problems) != 1],
                                       len(files), 's'[:len(files) != 1]))
        return 1
    print('%d file%s read: no style problems' % (len(files), 's'[:len(files) != 1]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
