# SPDX-License-Identifier: MIT
"""Edits of a recorded perf.data file (perf's or hwprof's, file format, one
event), for what a recording made here cannot be on demand: one from
another boot of this kernel (KASLR put the kernel elsewhere: its MMAP of
[kernel.kallsyms]_text and its samples' addresses moved together), one
of another kernel (its build-id in HEADER_BUILD_ID is another), one that
lost samples, or two recordings of one run that differ by sampling alone."""
import random
import struct

RECORD_MMAP, RECORD_MMAP2, RECORD_SAMPLE = 1, 10, 9
MISC_KERNEL = 1
SAMPLE_IP, SAMPLE_IDENTIFIER = 0x1, 0x10000
KERNEL_NAME = b"[kernel.kallsyms]"


def kernel_symbols_problem():
    """Why this kernel's symbols cannot be told apart from another's here
    (no build-id, or addresses hidden from this reader), or None."""
    if not running_kernel_build_id():
        return "/sys/kernel/notes gives no build-id of this kernel"
    with open("/proc/kallsyms") as f:
        for _, line in zip(range(200), f):
            fields = line.split()
            if len(fields) >= 3 and fields[2] == "_text":
                return None if int(fields[0], 16) else \
                    "kernel addresses are hidden here (kernel.kptr_restrict)"
    return "/proc/kallsyms has no _text among its first lines"


def running_kernel_build_id():
    """This kernel's build-id, from /sys/kernel/notes, or None."""
    try:
        with open("/sys/kernel/notes", "rb") as f:
            notes = f.read()
    except OSError:
        return None
    at = 0
    while at + 12 <= len(notes):
        namesz, descsz, type_ = struct.unpack_from("<III", notes, at)
        at += 12
        name = notes[at:at + namesz]
        at += (namesz + 3) & ~3
        if type_ == 3 and name == b"GNU\0":
            return notes[at:at + descsz]
        at += (descsz + 3) & ~3
    return None


def _data(buf):
    """(offset, size) of the data section, and the one event's sample_type."""
    magic, _, attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from(
        "<8sQQQQQQ", buf, 0)
    assert magic == b"PERFILE2" and attrs_size == attr_size, "a file of one event"
    sample_type = struct.unpack_from("<Q", buf, attrs_off + 24)[0]
    return data_off, data_size, sample_type


def _records(buf):
    off, size, sample_type = _data(buf)
    at = off
    while at + 8 <= off + size:
        type_, misc, rsize = struct.unpack_from("<IHH", buf, at)
        if rsize < 8:
            break
        yield at, type_, misc, sample_type
        at += rsize


def kernel_maps(path):
    """The kernel's MMAP records of the file at PATH (perf's or hwprof's, one
    event): [(pid, start, len, pgoff, filename)], in the file's order."""
    with open(path, "rb") as f:
        buf = f.read()
    maps = []
    for at, type_, misc, _ in _records(buf):
        if type_ != RECORD_MMAP or misc & 7 != MISC_KERNEL:
            continue
        pid, _, start, length, pgoff = struct.unpack_from("<IIQQQ", buf, at + 8)
        name = buf[at + 40:buf.index(b"\0", at + 40)]
        maps.append((pid, start, length, pgoff, name.decode()))
    return maps


def move_kernel(src, dst, delta):
    """SRC as if recorded in a boot whose kernel lay DELTA bytes further:
    the kernel's map (its address, and its reference symbol's, pgoff) and
    the kernel samples' addresses. Returns the samples moved."""
    with open(src, "rb") as f:
        buf = bytearray(f.read())
    moved = 0
    for at, type_, misc, sample_type in _records(buf):
        body = at + 8
        if type_ == RECORD_MMAP and struct.unpack_from("<I", buf, body)[0] == 0xffffffff:
            name = bytes(buf[body + 32:body + 32 + len(KERNEL_NAME)])
            if name == KERNEL_NAME:
                start, length, pgoff = struct.unpack_from("<QQQ", buf, body + 8)
                start = (start + delta) % 2**64
                length = min(length, 2**64 - 1 - start)    # hwprof's: to the end
                struct.pack_into("<QQQ", buf, body + 8, start, length,
                                 (pgoff + delta) % 2**64)
        elif type_ == RECORD_SAMPLE and (misc & 7) == MISC_KERNEL:
            assert sample_type & SAMPLE_IP
            ip_at = body + (8 if sample_type & SAMPLE_IDENTIFIER else 0)
            ip = struct.unpack_from("<Q", buf, ip_at)[0]
            struct.pack_into("<Q", buf, ip_at, (ip + delta) % 2**64)
            moved += 1
    with open(dst, "wb") as f:
        f.write(buf)
    return moved


def other_kernel(src, dst, build_id):
    """SRC as if recorded on another kernel: every copy of this kernel's
    build-id in it (its HEADER_BUILD_ID entry) replaced by BUILD_ID, of
    the same length. Returns the copies replaced."""
    mine = running_kernel_build_id()
    assert mine and len(build_id) == len(mine)
    with open(src, "rb") as f:
        buf = f.read()
    n = buf.count(mine)
    with open(dst, "wb") as f:
        f.write(buf.replace(mine, build_id))
    return n


def add_lost(src, dst, lost):
    """SRC with a LOST record of LOST samples first in its data, of its
    first event (with that event's sample_id_all fields, zero but the ids):
    the feature sections after the data move along."""
    with open(src, "rb") as f:
        buf = f.read()
    _, _, attr_size, attrs_off, _, data_off, data_size = struct.unpack_from(
        "<8sQQQQQQ", buf, 0)
    sample_type, flags = struct.unpack_from("<Q8xQ", buf, attrs_off + 24)
    ids_off, ids_size = struct.unpack_from("<QQ", buf, attrs_off + attr_size - 16)
    assert ids_off < data_off, "the ids before the data, as perf and hwprof write them"
    first_id = struct.unpack_from("<Q", buf, ids_off)[0] if ids_size else 0
    trailer = b""
    if flags & (1 << 18):      # sample_id_all
        for bit, field in ((0x2, struct.pack("<II", 0, 0)), (0x4, struct.pack("<Q", 0)),
                           (0x40, struct.pack("<Q", first_id)),
                           (0x200, struct.pack("<Q", first_id)),
                           (0x80, struct.pack("<II", 0, 0)),
                           (SAMPLE_IDENTIFIER, struct.pack("<Q", first_id))):
            if sample_type & bit:
                trailer += field
    rec = struct.pack("<IHHQQ", 2, 0, 24 + len(trailer), first_id, lost) + trailer
    with open(dst, "wb") as f:
        f.write(_replace_data(buf, rec + buf[data_off:data_off + data_size]))


def _replace_data(buf, data):
    """BUF (a whole file) with DATA for its data section: the table of
    feature sections, which follows the data, and the sections move along."""
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    shift = len(data) - data_size
    out = bytearray(buf[:data_off] + data + buf[data_off + data_size:])
    table = data_off + len(data)
    bits = int.from_bytes(out[72:104], "little")
    for i in range(bin(bits).count("1")):
        at, size = struct.unpack_from("<QQ", out, table + 16 * i)
        struct.pack_into("<QQ", out, table + 16 * i, at + shift, size)
    struct.pack_into("<Q", out, 48, len(data))
    return bytes(out)


def split_samples(src, dst_a, dst_b, seed):
    """SRC's samples dealt between DST_A and DST_B by a coin seeded with
    SEED, every other record in both: two recordings of the same run that
    differ by sampling alone, which is the null hypothesis of hwprof
    diff's test (two real runs differ by the machine's load too). Returns
    the samples each got."""
    with open(src, "rb") as f:
        buf = f.read()
    coin = random.Random(seed)
    parts, taken = ([], []), [0, 0]
    for at, type_, _, _ in _records(buf):
        rec = buf[at:at + struct.unpack_from("<H", buf, at + 6)[0]]
        if type_ != RECORD_SAMPLE:
            parts[0].append(rec)
            parts[1].append(rec)
            continue
        side = coin.randrange(2)
        parts[side].append(rec)
        taken[side] += 1
    for dst, part in zip((dst_a, dst_b), parts):
        with open(dst, "wb") as f:
            f.write(_replace_data(buf, b"".join(part)))
    return tuple(taken)


def mmap2_generation(src, dst, filename, generation):
    """SRC with the inode generation of its MMAP2 records of FILENAME
    (bytes) set to GENERATION: as if the file mapped then had the same
    inode number as the one there now, given again after the first was
    freed. Returns the records changed."""
    with open(src, "rb") as f:
        buf = bytearray(f.read())
    changed = 0
    for at, type_, misc, _ in _records(buf):
        if type_ != RECORD_MMAP2:
            continue
        name = bytes(buf[at + 72:buf.index(b"\0", at + 72)])
        if name == filename:
            struct.pack_into("<Q", buf, at + 56, generation)
            changed += 1
    with open(dst, "wb") as f:
        f.write(buf)
    return changed
