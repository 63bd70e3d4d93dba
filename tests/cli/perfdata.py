# SPDX-License-Identifier: MIT
"""perf.data files made by hand, for what no recorder writes: module paths
that name a FIFO, names that are not UTF-8, call chains by the thousand,
another machine's host name. One cpu-clock event, samples of the layout
IP|TID|TIME|CPU|PERIOD (and CALLCHAIN), sample_id_all; the layout of
perf's Documentation/perf.data-file-format.txt:
header | attributes | data | feature table | feature sections."""
import re
import struct
import subprocess

SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CALLCHAIN = 0x1, 0x2, 0x4, 0x20
SAMPLE_CPU, SAMPLE_PERIOD = 0x80, 0x100
RECORD_MMAP, RECORD_COMM, RECORD_SAMPLE = 1, 3, 9
MISC_KERNEL, MISC_USER = 1, 2
CONTEXT_KERNEL, CONTEXT_USER = 2**64 - 128, 2**64 - 512
HEADER_HOSTNAME, HEADER_OSRELEASE = 3, 4
# perf's own record types (perf 6.x's enum perf_user_event_type)
RECORD_HEADER_ATTR, RECORD_HEADER_TRACING_DATA, RECORD_FINISHED_ROUND = 64, 66, 68
RECORD_AUXTRACE, RECORD_HEADER_FEATURE = 71, 80
ATTR_SIZE = 128
HEADER_SIZE = 104


def _pad8(b):
    return b + b"\0" * (-len(b) % 8)


class PerfData:
    def __init__(self, callchains=False):
        self.sample_type = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CPU | SAMPLE_PERIOD
        if callchains:
            self.sample_type |= SAMPLE_CALLCHAIN
        self.records = []
        self.features = {}
        self.time = 0

    def _record(self, type_, misc, body):
        assert len(body) % 8 == 0
        self.records.append(struct.pack("<IHH", type_, misc, 8 + len(body)) + body)

    def _trailer(self, pid):
        """sample_id_all's fields: TID, TIME, CPU."""
        self.time += 1
        return struct.pack("<IIQII", pid, pid, self.time, 0, 0)

    def mmap(self, pid, start, length, pgoff, filename):
        """A mapping of FILENAME (bytes: any bytes but NUL)."""
        body = _pad8(struct.pack("<IIQQQ", pid, pid, start, length, pgoff) + filename + b"\0")
        self._record(RECORD_MMAP, MISC_USER, body + self._trailer(pid))

    def kernel_mmap(self, start, length, filename):
        """The kernel's map of FILENAME, as perf record writes those of the
        kernel ([kernel.kallsyms]_text) and of its modules (their .ko)."""
        body = _pad8(struct.pack("<IIQQQ", 2**32 - 1, 0, start, length, start) + filename +
                     b"\0")
        self._record(RECORD_MMAP, MISC_KERNEL, body + self._trailer(0))

    def comm(self, pid, name):
        body = _pad8(struct.pack("<II", pid, pid) + name + b"\0")
        self._record(RECORD_COMM, 0, body + self._trailer(pid))

    def sample(self, pid, ip, callers=(), period=1, kernel=False):
        """A sample at IP (in the kernel with KERNEL), called from CALLERS
        (return addresses, innermost first)."""
        self.time += 1
        body = struct.pack("<QIIQIIQ", ip, pid, pid, self.time, 0, 0, period)
        if self.sample_type & SAMPLE_CALLCHAIN:
            chain = [CONTEXT_KERNEL if kernel else CONTEXT_USER, ip, *callers]
            body += struct.pack(f"<Q{len(chain)}Q", len(chain), *chain)
        self._record(RECORD_SAMPLE, MISC_KERNEL if kernel else MISC_USER, body)

    def kernel_samples(self, pid, counts):
        """COUNTS: (ip, n): n samples in the kernel at each ip, in order."""
        for ip, n in counts:
            for _ in range(n):
                self.sample(pid, ip, kernel=True)

    def raw(self, type_, body, payload=b""):
        """A record of TYPE_ with BODY (any length: perf's own records need
        not be a multiple of 8), followed by PAYLOAD, bytes its size does
        not count (AUXTRACE's trace, TRACING_DATA's)."""
        self.records.append(struct.pack("<IHH", type_, 0, 8 + len(body)) + body + payload)

    def feature_string(self, feature, value):
        """A string feature section (HEADER_HOSTNAME...): u32 length, then
        the string with its NUL, padded to 64 bytes as perf writes it."""
        s = value + b"\0"
        s += b"\0" * (-len(s) % 64)
        self.features[feature] = struct.pack("<I", len(s)) + s

    def _attr(self):
        attr = bytearray(ATTR_SIZE)
        # type SOFTWARE, config CPU_CLOCK, period 1, sample_type; flags: sample_id_all
        struct.pack_into("<IIQQQQQ", attr, 0, 1, ATTR_SIZE, 0, 1, self.sample_type, 0, 1 << 18)
        return bytes(attr)

    def write_pipe(self, path):
        """The same in perf's pipe format (perf record -o -): a 16-byte
        header, then the attributes and features as records."""
        out = struct.pack("<8sQ", b"PERFILE2", 16)
        attr = self._attr()
        out += struct.pack("<IHH", RECORD_HEADER_ATTR, 0, 8 + len(attr)) + attr
        for f in sorted(self.features):
            body = struct.pack("<Q", f) + self.features[f]
            out += struct.pack("<IHH", RECORD_HEADER_FEATURE, 0, 8 + len(body)) + body
        with open(path, "wb") as o:
            o.write(out + b"".join(self.records))

    def write(self, path):
        attrs = self._attr() + struct.pack("<QQ", 0, 0)	# no ids: the only event
        data = b"".join(self.records)
        data_off = HEADER_SIZE + len(attrs)
        table_off = data_off + len(data)
        feats = sorted(self.features)
        table, sections = b"", b""
        at = table_off + 16 * len(feats)
        for f in feats:
            table += struct.pack("<QQ", at + len(sections), len(self.features[f]))
            sections += self.features[f]
        bits = 0
        for f in feats:
            bits |= 1 << f
        header = struct.pack("<8sQQQQQQQQ", b"PERFILE2", HEADER_SIZE, ATTR_SIZE + 16,
                             HEADER_SIZE, len(attrs), data_off, len(data), 0, 0)
        header += bits.to_bytes(32, "little")
        with open(path, "wb") as out:
            out.write(header + attrs + data + table + sections)


def loads(binary):
    """The loadable segments of ELF file BINARY: (file offset, address, size
    in the file), for samples that point into it."""
    segs = []
    out = subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return segs


def file_offset(segs, vaddr):
    """Where address VADDR is in the file."""
    for off, va, size in segs:
        if va <= vaddr < va + size:
            return vaddr - va + off
    raise ValueError(f"{vaddr:#x} is in no segment")


def functions(binary):
    """(name, source file's base name) -> (start, size) of BINARY's
    functions, from nm's symbols and lines."""
    out = subprocess.run(["nm", "-S", "-l", "--defined-only", binary], capture_output=True,
                         text=True).stdout
    funcs = {}
    for line in out.splitlines():
        m = re.match(r"([0-9a-f]+) ([0-9a-f]+) [Tt] (\w+)\s+(\S+):\d+$", line)
        if m:
            funcs[(m.group(3), m.group(4).rsplit("/", 1)[-1])] = (int(m.group(1), 16),
                                                                int(m.group(2), 16))
    return funcs
