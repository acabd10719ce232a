"""`rocke emit ... --out DIR` writes the artifacts a host loads: KERNEL.ll, KERNEL.rir,
KERNEL.launch.json and, with ld.lld and the flavor's LLVM, KERNEL.hsaco; each the bytes the
printing verbs give, atomically (no temporary file left), and it prints what it wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rocke import isa
from rocke.cli import main
from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.families.launch import TEMPLATE_FORMAT
from rocke.ir import parse_kernel, print_kernel

FAMILY = "elementwise"


def _config(index: int = 0):
    return family_configs(get_family(FAMILY))[index]


def _emit(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        rc = main(["emit", FAMILY, *args])
    except SystemExit as exc:  # an argument refused while parsing
        rc = exc.code if isinstance(exc.code, int) else 2
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def test_out_writes_ll_rir_and_launch_template(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("ROCKE_LLD", str(tmp_path / "no-such-ld.lld"))  # no linker: the .hsaco is skipped, visibly
    config = _config()
    spec = get_family(FAMILY).spec.from_kv(config.kv)
    kernel = get_family(FAMILY).build(spec, config.arch)
    out = tmp_path / "artifacts"
    rc, stdout, _ = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--flavor", "llvm22", "--out", str(out))
    assert rc == 0
    name = kernel.name
    assert stdout.splitlines() == [f"wrote {out / (name + ext)}" for ext in (".ll", ".rir", ".launch.json")] + [
        f"skipped {name}.hsaco: ld.lld not found: ROCKE_LLD={tmp_path / 'no-such-ld.lld'} is not an executable "
        f"(fix or unset ROCKE_LLD)"]
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{name}{ext}" for ext in (".ll", ".rir", ".launch.json"))
    rc, printed_ll, _ = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--flavor", "llvm22")
    assert (out / f"{name}.ll").read_text() == printed_ll
    rc, printed_ir, _ = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--ir")
    assert (out / f"{name}.rir").read_text() == printed_ir == print_kernel(parse_kernel(printed_ir))
    manifest = json.loads((out / f"{name}.launch.json").read_text())
    assert manifest == {
        "arch": config.arch, "family": FAMILY, "format": TEMPLATE_FORMAT, "kernel": name,
        "max_workgroup_size": kernel.attrs["max_workgroup_size"], "spec": config.kv,
        "args": [{"name": p.name, "type": str(p.type)} for p in kernel.params],
    }
    assert spec.kernel_name() == name


def test_out_needs_a_flavor_and_refuses_ir(tmp_path: Path, capsys) -> None:
    config = _config()
    rc, _, err = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--out", str(tmp_path / "o"))
    assert rc == 2 and "--flavor is required with --out" in err
    rc, _, err = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--flavor", "llvm22", "--ir",
                       "--out", str(tmp_path / "o"))
    assert rc == 2 and "--ir and --out do not mix" in err
    assert not (tmp_path / "o").exists()


def test_out_into_a_file_is_a_usage_error(tmp_path: Path, capsys) -> None:
    config = _config()
    blocker = tmp_path / "file"
    blocker.write_text("")
    rc, _, err = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--flavor", "llvm22",
                       "--out", str(blocker))
    assert rc == 2 and f"--out {blocker}" in err


@pytest.mark.validity
@pytest.mark.validity_llvm20
def test_out_writes_the_hsaco_with_lld(tmp_path: Path, capsys) -> None:
    flavor = isa.running_flavor()
    if flavor is None:
        pytest.skip("the running LLVM validates no rocke flavor")
    if isa.find_lld() is None:
        pytest.skip("ld.lld not found: install Debian package lld-19")
    config = _config()
    out = tmp_path / "a"
    rc, stdout, _ = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--flavor", flavor, "--out", str(out))
    assert rc == 0
    (hsaco,) = out.glob("*.hsaco")
    assert f"wrote {hsaco}" in stdout.splitlines()
    data = hsaco.read_bytes()
    assert data[:4] == b"\x7fELF" and int.from_bytes(data[16:18], "little") == 3  # ET_DYN
    assert sorted(p.suffix for p in out.iterdir()) == [".hsaco", ".json", ".ll", ".rir"]
    rc, _, _ = _emit(capsys, "--spec", config.kv, "--arch", config.arch, "--flavor", flavor,
                     "--out", str(tmp_path / "b"))
    assert rc == 0
    assert (tmp_path / "b" / hsaco.name).read_bytes() == data  # deterministic
