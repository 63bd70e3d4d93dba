# SPDX-License-Identifier: MIT
"""A decoder of pprof's profile.proto (github.com/google/pprof,
proto/profile.proto), of the wire format, for the tests that read what
report --format pprof writes (test_pprof.py, test_inline.py)."""
import gzip

from common import check

# message -> field number -> (name, kind): "msg:Type", "uint", "str" or "packed"
SCHEMA = {
    "Profile": {1: ("sample_type", "msg:ValueType"), 2: ("sample", "msg:Sample"),
                3: ("mapping", "msg:Mapping"), 4: ("location", "msg:Location"),
                5: ("function", "msg:Function"), 6: ("string_table", "str"),
                9: ("time_nanos", "uint"), 10: ("duration_nanos", "uint"),
                11: ("period_type", "msg:ValueType"), 12: ("period", "uint"),
                13: ("comment", "packed"), 14: ("default_sample_type", "uint")},
    "ValueType": {1: ("type", "uint"), 2: ("unit", "uint")},
    "Sample": {1: ("location_id", "packed"), 2: ("value", "packed"), 3: ("label", "msg:Label")},
    "Label": {1: ("key", "uint"), 2: ("str", "uint"), 3: ("num", "uint"), 4: ("num_unit", "uint")},
    "Mapping": {1: ("id", "uint"), 2: ("memory_start", "uint"), 3: ("memory_limit", "uint"),
                4: ("file_offset", "uint"), 5: ("filename", "uint"), 6: ("build_id", "uint"),
                7: ("has_functions", "uint"), 8: ("has_filenames", "uint"),
                9: ("has_line_numbers", "uint"), 10: ("has_inline_frames", "uint")},
    "Location": {1: ("id", "uint"), 2: ("mapping_id", "uint"), 3: ("address", "uint"),
                 4: ("line", "msg:Line")},
    "Line": {1: ("function_id", "uint"), 2: ("line", "uint")},
    "Function": {1: ("id", "uint"), 2: ("name", "uint"), 3: ("system_name", "uint"),
                 4: ("filename", "uint"), 5: ("start_line", "uint")},
}
REPEATED = {"sample_type", "sample", "mapping", "location", "function", "string_table",
            "comment", "line", "location_id", "value", "label"}


def varint(b, i):
    v = shift = 0
    while True:
        if i >= len(b):
            raise ValueError("a varint runs past the end")
        v |= (b[i] & 0x7f) << shift
        shift += 7
        i += 1
        if not b[i - 1] & 0x80:
            return v, i


def decode(b, kind="Profile"):
    """A message as a dict; unknown fields are an error (we write none)."""
    out = {name: [] for name, _ in SCHEMA[kind].values() if name in REPEATED}
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        field, wire = key >> 3, key & 7
        if field not in SCHEMA[kind]:
            raise ValueError(f"{kind}: unknown field {field}")
        name, k = SCHEMA[kind][field]
        if wire == 0:
            v, i = varint(b, i)
            vals = [v]
        elif wire == 2:
            n, i = varint(b, i)
            if i + n > len(b):
                raise ValueError(f"{kind}.{name}: {n} bytes past the end")
            data, i = b[i:i + n], i + n
            if k.startswith("msg:"):
                vals = [decode(data, k[4:])]
            elif k == "str":
                vals = [data.decode("utf-8")]	# raises on anything but UTF-8
            elif k == "packed":
                vals, j = [], 0
                while j < len(data):
                    v, j = varint(data, j)
                    vals.append(v)
            else:
                raise ValueError(f"{kind}.{name}: wire type 2 for a scalar")
        else:
            raise ValueError(f"{kind}.{name}: wire type {wire}")
        if name in REPEATED:
            out[name] += vals
        else:
            out[name] = vals[-1]
    return out


def read_pprof(path):
    """The decoded profile of PATH (gzipped), or None after saying why."""
    try:
        with gzip.open(path, "rb") as f:
            return decode(f.read())
    except (OSError, ValueError, UnicodeDecodeError, EOFError) as e:
        check(False, f"{path}: not a gzipped profile.proto: {e}")
        return None
