"""`rocke catalog build/verify`: every shipped config of a family for an arch compiled to HSACO,
indexed by catalog.json (rocke.catalog/1); building twice gives identical bytes; verify reports a
tampered, missing or unlisted code object. Needs the real LLVM and ld.lld (the validity lanes
install lld-19); without them the tests skip, visibly."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rocke import isa
from rocke.cli import main
from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.gates.catalog import FORMAT

FAMILY = "elementwise"
ARCH = "gfx1201"

pytestmark = [pytest.mark.validity, pytest.mark.validity_llvm20]


@pytest.fixture(scope="module")
def needs_toolchain() -> str:
    flavor = isa.running_flavor()
    if flavor is None:
        pytest.skip("the running LLVM validates no rocke flavor")
    if isa.find_lld() is None:
        pytest.skip("ld.lld not found: install Debian package lld-19")
    return flavor


@pytest.fixture(scope="module")
def built(needs_toolchain: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    first, second = tmp_path_factory.mktemp("cat1"), tmp_path_factory.mktemp("cat2")
    assert main(["catalog", "build", "--only", FAMILY, "--arch", ARCH, "--out", str(first), "--quiet"]) == 0
    assert main(["catalog", "build", "--only", FAMILY, "--arch", ARCH, "--out", str(second), "--jobs", "2",
                 "--quiet"]) == 0
    return first, second


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_catalog_holds_every_shipped_config_of_the_arch(built, needs_toolchain) -> None:
    root, _ = built
    index = json.loads((root / "catalog.json").read_text())
    assert index["format"] == FORMAT and index["arch"] == ARCH and index["flavor"] == needs_toolchain
    family = get_family(FAMILY)
    shipped = [c for c in family_configs(family) if c.arch == ARCH and not c.refuse]
    refused = [c for c in family_configs(family) if c.arch == ARCH and c.refuse]
    assert [e["spec"] for e in index["entries"]] == [c.kv for c in shipped]
    assert not {c.kv for c in refused} & {e["spec"] for e in index["entries"]}
    for entry in index["entries"]:
        spec = family.spec.from_kv(entry["spec"])
        assert entry["family"] == FAMILY and entry["spec_digest"] == spec.digest()
        assert entry["kernel"] == spec.kernel_name() == entry["launch"]["kernel"]
        data = (root / entry["hsaco"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["hsaco_sha256"] and data[:4] == b"\x7fELF"
        assert entry["resources"]["kernel"] == entry["kernel"] and entry["resources"]["scratch_bytes"] == 0
        assert entry["launch"]["spec"] == entry["spec"] and entry["launch"]["arch"] == ARCH
    assert sorted(_tree(root)) == sorted(["catalog.json", *(e["hsaco"] for e in index["entries"])])


def test_building_twice_gives_identical_bytes(built) -> None:
    first, second = built
    assert _tree(first) == _tree(second)


def test_build_prints_progress_and_timing(needs_toolchain, tmp_path: Path, capsys) -> None:
    assert main(["catalog", "build", "--only", FAMILY, "--arch", "gfx950", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert f"[catalog] 6/6 configs, {FAMILY} done in" in captured.err
    assert "family" in captured.out and "total (wall)" in captured.out
    assert "catalog: wrote 6 code objects for gfx950" in captured.out


def test_verify_passes_then_reports_tampered_missing_and_unlisted(built, tmp_path: Path, capsys) -> None:
    source, _ = built
    root = tmp_path / "copy"
    for rel, data in _tree(source).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    assert main(["catalog", "verify", str(root)]) == 0
    assert "catalog: ok (" in capsys.readouterr().out
    entries = json.loads((root / "catalog.json").read_text())["entries"]
    tampered, missing = root / entries[0]["hsaco"], root / entries[1]["hsaco"]
    data = bytearray(tampered.read_bytes())
    data[len(data) // 2] ^= 0x01
    tampered.write_bytes(bytes(data))
    missing.unlink()
    (root / FAMILY / "stray.hsaco").write_bytes(b"\x7fELF")
    assert main(["catalog", "verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"catalog: tampered {entries[0]['hsaco']}: sha256 " in out
    assert f"catalog: missing {entries[1]['hsaco']} ({FAMILY} {entries[1]['spec']})" in out
    assert f"catalog: unlisted {FAMILY}/stray.hsaco (not in catalog.json)" in out
    assert "catalog: FAILED (3 problems)" in out


def test_verify_without_an_index_fails(tmp_path: Path, capsys) -> None:
    assert main(["catalog", "verify", str(tmp_path)]) == 1
    assert "no catalog.json" in capsys.readouterr().out
