# SPDX-License-Identifier: MIT
"""hwprof.Profile over a recording of tests/hotspots.c."""
import gzip
import json
import subprocess

import pytest

import hwprof


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    from conftest import HWPROF, HOTSPOTS, _built
    _built(HWPROF)
    _built(HOTSPOTS)
    path = tmp_path_factory.mktemp("profile") / "perf.data"
    subprocess.run([HWPROF, "record", "-e", "cpu-clock", "-F", "2000", "-g", "-o", str(path),
                    "--", HOTSPOTS], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return path


def test_top_by_symbol(recording):
    with hwprof.Profile(recording) as p:
        assert p.event == "cpu-clock" and p.samples > 0 and p.period > 0
        top = p.top(5)
        assert top and top[0].rank == 0
        assert [e.percent for e in top] == sorted((e.percent for e in top), reverse=True)
        assert sum(e.samples for e in p.top(0)) == p.samples
        assert all(0 < e.percent <= 100 for e in top)
        # Recorded with -g: the hottest functions have callers.
        callers = [c for e in top for c in e.callers]
        assert callers and all(c.samples > 0 and c.name for c in callers)


def test_top_by_line_rip_module(recording):
    p = hwprof.Profile(recording)
    mods = p.top(0, by="module")
    assert sum(e.samples for e in mods) == p.samples
    assert any("hotspots" in (e.module or e.name) for e in mods)
    assert p.top(3, by="rip")[0].address != 0
    assert len(p.top(3, by="line")) >= 1
    with pytest.raises(ValueError):
        p.top(3, by="colour")
    p.close()



def test_rip_address_none_without_the_file(tmp_path):
    """An instruction whose file is gone has no address (None, not 0): its
    name's +0xOFFSET is the offset in the file, as the CLI's '?' says."""
    import shutil
    from conftest import HWPROF, HOTSPOTS, _built
    _built(HWPROF)
    _built(HOTSPOTS)
    exe = tmp_path / "hot"
    shutil.copy(HOTSPOTS, exe)
    data = tmp_path / "perf.data"
    subprocess.run([HWPROF, "record", "-e", "cpu-clock", "-F", "2000", "-o", str(data),
                    "--", str(exe)], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    with hwprof.Profile(data) as p:
        mine = [e for e in p.top(0, by="rip") if e.module == str(exe)]
        assert mine and all(e.address for e in mine)
    exe.rename(tmp_path / "gone")
    with hwprof.Profile(data) as p:
        mine = [e for e in p.top(0, by="rip") if e.module == str(exe)]
        assert mine and all(e.address is None for e in mine)

def test_folded_stacks(recording):
    p = hwprof.Profile(recording)
    stacks = p.stacks()
    assert sum(n for _, n in stacks) == p.samples
    folded = p.folded().splitlines()
    assert len(folded) == len(stacks)
    frames, n = stacks[0]
    assert folded[0] == f"{';'.join(frames)} {n}"


def test_exports(recording, tmp_path):
    p = hwprof.Profile(recording)
    p.write(tmp_path / "p.pb.gz", "pprof")
    assert gzip.decompress((tmp_path / "p.pb.gz").read_bytes())
    p.write(tmp_path / "p.speedscope.json", "speedscope")
    doc = json.loads((tmp_path / "p.speedscope.json").read_text())
    assert "speedscope" in doc["$schema"]
    p.write(tmp_path / "p.html", "html")
    assert "<html" in (tmp_path / "p.html").read_text().lower()
    p.write(tmp_path / "p.folded", "folded")
    assert (tmp_path / "p.folded").read_text() == p.folded()
    with pytest.raises(ValueError):
        p.write(tmp_path / "x", "svg")


def test_errors(tmp_path, recording):
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.Profile(tmp_path / "none.data")
    assert e.value.errno == 2
    bad = tmp_path / "bad.data"
    bad.write_bytes(b"not a perf.data file at all" * 10)
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.Profile(bad)
    assert e.value.errno == hwprof.ERR_FORMAT and e.value.message
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.Profile(recording, event="nosuch")
    assert "nosuch" in e.value.message
    p = hwprof.Profile(recording)
    p.close()
    with pytest.raises(hwprof.HwprofError):
        p.top()
