#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a perf.data whose data section is that of IN repeated N times, each
copy's timestamps moved past the previous copy's, for a report over many
more samples at the same distinct addresses (the memory benchmark).
Reads hwprof record's files: IDENTIFIER|IP|TID|TIME|CPU|PERIOD[|CALLCHAIN]
samples, and a TID|TIME|CPU|IDENTIFIER trailer on the other records.
Usage: perf-data-repeat.py IN N OUT"""
import struct
import sys

src, copies, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(src, "rb") as f:
    data = f.read()
(magic, size, attr_size, attrs_off, attrs_size, data_off, data_size, _, _, *feat) = \
    struct.unpack_from("<8sQQQQQQQQ4Q", data)
records = data[data_off:data_off + data_size]
features = data[data_off + data_size:]


def times(buf):
    """The offsets of the TIME fields of every record of BUF."""
    pos = 0
    while pos < len(buf):
        rtype, _, rsize = struct.unpack_from("<IHH", buf, pos)
        if rtype == 9:
            yield pos + 8 + 24          # after IDENTIFIER, IP, TID
        elif rtype < 64 and rsize >= 8 + 32:
            yield pos + rsize - 24      # the trailer: TID, TIME, CPU, IDENTIFIER
        pos += rsize


stamps = [struct.unpack_from("<Q", records, off)[0] for off in times(records)]
span = max(stamps) - min(t for t in stamps if t) + 1
out = bytearray()
for c in range(copies):
    copy = bytearray(records)
    for off in times(copy):
        t = struct.unpack_from("<Q", copy, off)[0]
        if t:
            struct.pack_into("<Q", copy, off, t + c * span)
    out += copy
# The feature table follows the data: its offsets move with it.
nfeat = sum(bin(w).count("1") for w in feat)
shift = len(out) - data_size
table = bytearray(features)
for i in range(nfeat):
    off, sz = struct.unpack_from("<QQ", table, 16 * i)
    struct.pack_into("<QQ", table, 16 * i, off + shift, sz)
header = bytearray(data[:data_off])
struct.pack_into("<Q", header, 48, len(out))
with open(dst, "wb") as f:
    f.write(header + out + table)
