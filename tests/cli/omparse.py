# SPDX-License-Identifier: MIT
"""The OpenMetrics 1.0 text format, parsed strictly (written here from the
spec, since promtool checks the Prometheus text format only), and promtool
check metrics: what test_openmetrics (hwprof stat) and test_serve (hwprof
serve) check their expositions with."""
import math
import re
import shutil
import subprocess

from common import check, skip

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
TYPES = {"counter", "gauge", "stateset", "info", "histogram", "gaugehistogram", "summary",
         "unknown"}
# The names of a family's samples, by type (the spec's suffixes).
SUFFIXES = {"counter": ("_total", "_created"), "gauge": ("",), "unknown": ("",),
            "info": ("_info",), "stateset": ("",)}
NUMBER = re.compile(r"[+-]?(Inf|inf|NaN|nan|[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?"
                    r"|\.[0-9]+([eE][+-]?[0-9]+)?)$")


class Invalid(Exception):
    pass


def unescape_value(s, i):
    """The label value that starts after the quote at S[i-1]; (value, end)."""
    out = []
    while i < len(s):
        c = s[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\n":
            raise Invalid("a raw line feed in a label value")
        if c == "\\":
            nxt = s[i + 1:i + 2]
            if nxt not in ("\\", '"', "n"):
                raise Invalid(f"escape \\{nxt} in a label value")
            out.append("\n" if nxt == "n" else nxt)
            i += 2
            continue
        out.append(c)
        i += 1
    raise Invalid("an unterminated label value")


def parse_sample(line):
    """(name, {label: value}, value) of a sample line, without timestamp."""
    m = NAME.match(line)
    if not m:
        raise Invalid(f"no metric name: {line!r}")
    name, i, labels = m.group(0), m.end(), {}
    if line[i:i + 1] == "{":
        i += 1
        while line[i:i + 1] != "}":
            lm = LABEL.match(line, i)
            if not lm or line[lm.end():lm.end() + 2] != '="':
                raise Invalid(f"a bad label at {i}: {line!r}")
            key = lm.group(0)
            if key in labels:
                raise Invalid(f"label {key} twice: {line!r}")
            labels[key], i = unescape_value(line, lm.end() + 2)
            if line[i:i + 1] == ",":
                i += 1
                if line[i:i + 1] == "}":
                    raise Invalid(f"a comma before the closing brace: {line!r}")
            elif line[i:i + 1] != "}":
                raise Invalid(f"no comma between labels: {line!r}")
        i += 1
    if line[i:i + 1] != " ":
        raise Invalid(f"no single space before the value: {line!r}")
    rest = line[i + 1:].split(" ")
    if len(rest) != 1 or not NUMBER.match(rest[0]):
        raise Invalid(f"not a value (or a timestamp, which hwprof never writes): {line!r}")
    return name, labels, float(rest[0])


def parse_openmetrics(text):
    """Families {name: {"type", "unit", "help", "samples": [(name, labels,
    value)]}}, or raise Invalid for what the spec forbids."""
    if not text.endswith("# EOF\n"):
        raise Invalid("does not end with '# EOF' and a line feed")
    lines = text[:-len("# EOF\n")].split("\n")
    if lines[-1] != "":
        raise Invalid("no line feed before # EOF")
    families, current, done_names = {}, None, set()
    for line in lines[:-1]:
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) < 3 or parts[0] != "#" or parts[1] not in ("TYPE", "UNIT", "HELP"):
                raise Invalid(f"a comment OpenMetrics does not have: {line!r}")
            kind, name = parts[1], parts[2]
            text_ = parts[3] if len(parts) > 3 else ""
            if not NAME.fullmatch(name):
                raise Invalid(f"a bad family name: {line!r}")
            if current is None or current != name:
                if name in families:
                    raise Invalid(f"family {name} is not contiguous")
                families[name] = {"type": "unknown", "unit": "", "help": None, "samples": [],
                                  "meta": set()}
                if current:
                    done_names.add(current)
                current = name
            fam = families[name]
            if kind in fam["meta"]:
                raise Invalid(f"{kind} twice for {name}")
            if fam["samples"]:
                raise Invalid(f"{kind} of {name} after its samples")
            fam["meta"].add(kind)
            if kind == "TYPE":
                if text_ not in TYPES:
                    raise Invalid(f"type {text_!r}")
                fam["type"] = text_
            elif kind == "UNIT":
                if not name.endswith("_" + text_):
                    raise Invalid(f"{name} does not end in its unit {text_}")
                fam["unit"] = text_
            else:
                if re.search(r"\\[^\\n]", text_.replace("\\\\", "")):
                    raise Invalid(f"a bad escape in HELP: {line!r}")
                fam["help"] = text_
            continue
        if not line:
            raise Invalid("an empty line")
        name, labels, value = parse_sample(line)
        if current is None:
            raise Invalid(f"a sample outside any family: {line!r}")
        fam = families[current]
        suffixes = SUFFIXES.get(fam["type"], ("",))
        if not any(name == current + s for s in suffixes):
            raise Invalid(f"sample {name} in family {current} of type {fam['type']}")
        if fam["type"] == "counter" and (math.isnan(value) or value < 0):
            raise Invalid(f"a counter's total must be a number >= 0: {line!r}")
        key = (name, tuple(sorted(labels.items())))
        if any((n, tuple(sorted(lb.items()))) == key for n, lb, _ in fam["samples"]):
            raise Invalid(f"a sample twice: {line!r}")
        fam["samples"].append((name, labels, value))
    for name, fam in families.items():
        if fam["type"] == "counter" and name.endswith("_total"):
            raise Invalid(f"counter family {name} named with its _total")
    return families


def valid(text):
    """The families of TEXT, after checking it; None after saying why not."""
    try:
        return parse_openmetrics(text)
    except Invalid as e:
        check(False, f"not OpenMetrics: {e}\n{text}")
        return None


def samples(fams, family, **labels):
    return [(lb, v) for _, lb, v in fams.get(family, {}).get("samples", [])
            if all(lb.get(k) == w for k, w in labels.items())]


def promtool_check(text):
    """promtool check metrics: no error and no lint problem."""
    promtool = shutil.which("promtool")
    if not promtool:
        skip("promtool is not installed (Debian's prometheus package; make test installs it)")
    p = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(),
          f"promtool check metrics: status {p.returncode}: {p.stdout}{p.stderr}\n{text}")
