# SPDX-License-Identifier: MIT
"""Edits of a recorded perf.data file (perf's or hwprof's, file format, one
event), for what a recording made here cannot be on demand: one from
another boot of this kernel (KASLR put the kernel elsewhere: its MMAP of
[kernel.kallsyms]_text and its samples' addresses moved together), or one
of another kernel (its build-id in HEADER_BUILD_ID is another)."""
import struct

RECORD_MMAP, RECORD_MMAP2, RECORD_SAMPLE = 1, 10, 9
MISC_KERNEL = 1
SAMPLE_IP, SAMPLE_IDENTIFIER = 0x1, 0x10000
KERNEL_NAME = b"[kernel.kallsyms]"


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
