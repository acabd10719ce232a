"""`rocke catalog build/verify`: every shipped config of a family for an arch compiled to HSACO,
indexed by catalog.json (rocke.catalog/2: per arch, by spec digest); building twice gives identical
bytes; verify reports a tampered, missing, unlisted or misfiled code object; read_catalog reads the
index a host serves from. Needs the real LLVM and ld.lld (the validity lanes install lld-19);
without them the tests skip, visibly. (The problem corpus, `--problems FILE`, is tested in
test_catalog_problems.py; serving the three problems of the product path end to end in
library/tests/test_library_sdk.py.)"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rocke import isa
from rocke.cli import main
from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.families.refusals import spec_digest
from rocke.gates.catalog import FORMAT, INDEX, read_catalog

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


def _entries(index: dict) -> list[dict]:
    return [entry for per_arch in index["entries"].values() for entry in per_arch.values()]


def test_catalog_holds_every_shipped_config_of_the_arch_keyed_by_spec_digest(built, needs_toolchain) -> None:
    root, _ = built
    index = json.loads((root / "catalog.json").read_text())
    assert index["format"] == FORMAT == "rocke.catalog/2" and index["flavor"] == needs_toolchain
    assert list(index["entries"]) == [ARCH] and index["families"] == [FAMILY]
    assert index["problems"] == [] and index["skipped"] == {}
    family = get_family(FAMILY)
    shipped = [c for c in family_configs(family) if c.arch == ARCH and not c.refuse]
    refused = [c for c in family_configs(family) if c.arch == ARCH and c.refuse]
    by_digest = index["entries"][ARCH]
    assert sorted(by_digest) == sorted(family.spec.from_kv(c.kv).digest() for c in shipped)
    assert list(by_digest) == sorted(by_digest)  # sorted keys: one text for one catalog
    assert refused and not {spec_digest(FAMILY, c.kv) for c in refused} & set(by_digest)
    for digest, entry in by_digest.items():
        spec = family.spec.from_kv(entry["spec"])
        assert entry["family"] == FAMILY and digest == spec.digest() and entry["spec"] == spec.to_kv()
        assert entry["kernel"] == spec.kernel_name() == entry["launch"]["kernel"]
        assert entry["hsaco"] == f"{ARCH}/{FAMILY}/{entry['kernel']}.hsaco"
        data = (root / entry["hsaco"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["hsaco_sha256"] and data[:4] == b"\x7fELF"
        assert entry["resources"]["kernel"] == entry["kernel"] and entry["resources"]["scratch_bytes"] == 0
        assert entry["launch"]["spec"] == entry["spec"] and entry["launch"]["arch"] == ARCH
    assert sorted(_tree(root)) == sorted(["catalog.json", *(e["hsaco"] for e in _entries(index))])


def test_read_catalog_finds_an_entry_by_arch_and_spec_digest(built) -> None:
    root, _ = built
    catalog = read_catalog(root)
    family = get_family(FAMILY)
    config = next(c for c in family_configs(family) if c.arch == ARCH and not c.refuse)
    spec = family.spec.from_kv(config.kv)
    entry = catalog.find(ARCH, spec.digest())
    assert entry is not None and entry.spec == spec.to_kv() and entry.kernel == spec.kernel_name()
    assert catalog.code_object(entry) == root / ARCH / FAMILY / f"{entry.kernel}.hsaco"
    assert catalog.find("gfx942", spec.digest()) is None and catalog.find(ARCH, "0" * 64) is None


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
    entries = _entries(json.loads((root / "catalog.json").read_text()))
    tampered, missing = root / entries[0]["hsaco"], root / entries[1]["hsaco"]
    data = bytearray(tampered.read_bytes())
    data[len(data) // 2] ^= 0x01
    tampered.write_bytes(bytes(data))
    missing.unlink()
    (root / ARCH / FAMILY / "stray.hsaco").write_bytes(b"\x7fELF")
    assert main(["catalog", "verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"catalog: tampered {entries[0]['hsaco']}: sha256 " in out
    assert f"catalog: missing {entries[1]['hsaco']} ({FAMILY} {entries[1]['spec']})" in out
    assert f"catalog: unlisted {ARCH}/{FAMILY}/stray.hsaco (not in catalog.json)" in out
    assert "catalog: FAILED (3 problems)" in out


def test_verify_reports_an_entry_not_keyed_by_its_spec_digest(built, tmp_path: Path, capsys) -> None:
    source, _ = built
    root = tmp_path / "copy"
    for rel, data in _tree(source).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    index = json.loads((root / INDEX).read_text())
    first, second = sorted(index["entries"][ARCH])[:2]
    per_arch = index["entries"][ARCH]
    per_arch[first], per_arch[second] = per_arch[second], per_arch[first]
    (root / INDEX).write_text(json.dumps(index))
    assert main(["catalog", "verify", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"catalog: misfiled {ARCH} {first}: {FAMILY} [" in out and f"has the spec digest {second}" in out
    assert "catalog: FAILED (2 problems)" in out


def test_verify_without_an_index_fails(tmp_path: Path, capsys) -> None:
    assert main(["catalog", "verify", str(tmp_path)]) == 1
    assert f"catalog: {tmp_path / INDEX}: no catalog index (rocke catalog build writes one)" in capsys.readouterr().out
