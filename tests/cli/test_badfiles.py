#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof report on files that are not valid perf.data: empty, garbage,
wrong magic, other formats, truncated at some 400 places, sections and
records whose sizes lie. Each gives an error that names the file and a
status of 1; none crashes (a signal would show as a negative status)."""
import os
import random
import struct
import tempfile

from common import WORKLOAD, WRAPPER, case, check, done, hwprof, note

HEADER = struct.Struct("<8sQQ" + "QQ" * 3 + "QQQQ")


def expect_error(path, what, fragment="not a valid perf.data file"):
    p = hwprof("report", "-i", path)
    ok = check(p.returncode == 1 and p.stderr.startswith("hwprof report: error:") and
               fragment in p.stderr, f"{what}: status {p.returncode}, stderr {p.stderr[:300]!r}")
    check(p.stdout == "", f"{what}: nothing on stdout")
    return ok


def write(d, name, data):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def patched(good, offset, fmt, value):
    b = bytearray(good)
    struct.pack_into(fmt, b, offset, value)
    return bytes(b)


def good_file(d):
    """A recording that reads: what the bad files below are made of."""
    path = os.path.join(d, "good.data")
    p = hwprof("record", "-F", "500", "-o", path, "--", WORKLOAD, "spin", "0.1")
    check(p.returncode == 0, f"record: {p.stderr}")
    with open(path, "rb") as f:
        good = f.read()
    check(hwprof("report", "-i", path).returncode == 0, "the good file reads")
    return good


def not_perf_data(d):
    expect_error(write(d, "empty", b""), "empty", "the file is empty")
    expect_error(write(d, "short", b"PERFILE2"), "8 bytes", "too short")
    rnd = random.Random(42)
    expect_error(write(d, "garbage", bytes(rnd.getrandbits(8) for _ in range(4096))), "garbage",
                 "wrong magic")
    expect_error(write(d, "text", b"hello, this is not perf.data\n" * 10), "text", "wrong magic")
    expect_error(d, "a directory", "is a directory: name the perf.data file in it")
    expect_error(os.path.join(d, "missing.data"), "a missing file", "cannot open")


def lying_headers(d, good):
    h = HEADER.unpack_from(good)
    attrs_off, attrs_size, data_off, data_size = h[3], h[4], h[5], h[6]
    expect_error(write(d, "magic", b"PERFILE3" + good[8:]), "wrong magic", "wrong magic")
    expect_error(write(d, "v1", b"PERFFILE" + good[8:]), "perf's first format", "PERFFILE")
    expect_error(write(d, "swapped", b"2ELIFREP" + good[8:]), "other byte order", "byte order")
    expect_error(write(d, "pipe", good[:8] + struct.pack("<Q", 16)), "a pipe's header alone",
                 "describes no event")
    expect_error(write(d, "attrsize0", patched(good, 16, "<Q", 0)), "attr_size 0", "attribute size")
    expect_error(write(d, "attrsize7", patched(good, 16, "<Q", 7)), "attr_size 7", "attribute size")
    expect_error(write(d, "attrsizebig", patched(good, 16, "<Q", 1 << 40)), "huge attr_size",
                 "attribute size")
    expect_error(write(d, "attrs", patched(good, 32, "<Q", 1 << 50)), "attribute section size",
                 "outside the file")
    expect_error(write(d, "noattrs", patched(good, 32, "<Q", 0)), "no attributes", "no event")
    expect_error(write(d, "datasize", patched(good, 48, "<Q", 1 << 62)), "huge data size",
                 "truncated")
    expect_error(write(d, "dataoff", patched(good, 40, "<Q", (1 << 64) - 8)), "data offset near 2^64",
                 "outside the file")
    expect_error(write(d, "ids", patched(good, attrs_off + attrs_size - 16, "<Q", 1 << 60)),
                 "ids outside the file", "outside the file")
    # The first record of the data section: size 0, and past the end.
    expect_error(write(d, "rec0", patched(good, data_off + 6, "<H", 0)), "a record of size 0",
                 "bytes long")
    expect_error(write(d, "rec12", patched(good, data_off + 6, "<H", 12)), "a record of size 12",
                 "bytes long")
    # The data section ends 8 bytes early: its last record now sticks out
    # (and the feature table, found after the data, is garbage).
    expect_error(write(d, "recpast", patched(good, 48, "<Q", data_size - 8)),
                 "a record past the end of the data")


def unfinished(d, good):
    """A file whose recording is still going (or was killed): perf writes
    its header with a data size of 0 (and features past nothing) until the
    end, hwprof a header of zeros. Said as such, with what to do, not as a
    feature section 'outside the file'."""
    for name, data, what in (
            ("perf-running", patched(good, 48, "<Q", 0), "perf's header, data size 0"),
            ("hwprof-running", bytes(HEADER.size) + good[HEADER.size:], "hwprof's, zeros")):
        path = write(d, name, data)
        if expect_error(path, what, "still being written, or its recording did not finish"):
            p = hwprof("report", "-i", path)
            check("wait for the recording to end" in p.stderr and "outside" not in p.stderr,
                  f"{what}: {p.stderr}")


def truncations(d, good):
    """Truncated anywhere: at every 8 bytes of the header, attributes and
    first records, every 40 bytes after (about 400 cuts), right after the data."""
    h = HEADER.unpack_from(good)
    data_off, data_size = h[5], h[6]
    cuts = sorted(set(range(0, data_off + 512, 8)) | set(range(data_off + 512, len(good), 40)) |
                  {data_off + data_size, len(good) - 1})
    if WRAPPER:
        # Under valgrind each run takes seconds: one cut in eight, the
        # boundaries kept. The normal suite tries them all.
        cuts = sorted(set(cuts[::8]) | {data_off + data_size, len(good) - 1})
    bad = 0
    for n in cuts:
        p = hwprof("report", "-i", write(d, "cut", good[:n]))
        if p.returncode != 1 or "hwprof report: error:" not in p.stderr:
            bad += 1
            note(f"cut at {n}: status {p.returncode}: {p.stderr[:200]!r}")
    check(bad == 0, f"{len(cuts)} truncations, each an error: {bad} were not")


with tempfile.TemporaryDirectory() as tmp:
    GOOD = case(good_file, tmp)
    case(not_perf_data, tmp)
    if GOOD:
        case(lying_headers, tmp, GOOD)
        case(unfinished, tmp, GOOD, name="a recording not finished")
        case(truncations, tmp, GOOD)
done()
