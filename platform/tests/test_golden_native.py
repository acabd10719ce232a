"""The native golden check: `rocke-emit --check-golden` hashes every config of a family in C++
(sha256 over the exact bytes) and compares with the golden file, with the verdicts of
`rocke check golden` (rocke.gates.golden.compare). It runs from the installed wheel: the
executable from the environment's scripts directory, the config and golden files from the
installed package, no source tree and no Python engine. Planted changes each fail, with the
same verdict lines the Python golden store gives."""

from __future__ import annotations

import json
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

import rocke
from rocke.families import get_family
from rocke.families.configs import config_path
from rocke.families.platform_families import provide
from rocke.gates.golden import compare, compute, golden_path

EMITTER = "rocke-emit"
PACKAGE_ROOT = Path(rocke.__file__).resolve().parent
FAMILY = "elementwise"


def native_emitter(name: str) -> str:
    found = shutil.which(name, path=sysconfig.get_path("scripts")) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed with this interpreter")
    return found


def check(*args: str, emitter: str = EMITTER) -> subprocess.CompletedProcess:
    return subprocess.run([native_emitter(emitter), "--check-golden", *args], capture_output=True, text=True,
                          env={}, timeout=600)


def installed_files(family: str) -> tuple[Path, Path]:
    """Where the Python golden store finds the family's config and golden files (the installed package)."""
    config, golden = config_path(get_family(family)), golden_path(get_family(family))
    assert config.is_file() and golden.is_file() and PACKAGE_ROOT in config.resolve().parents
    return config, golden


@pytest.mark.parametrize("family", [f.name for f in provide()])
def test_every_platform_family_checks_clean_from_the_installed_wheel(family: str) -> None:
    proc = check("--family", family, "--root", str(PACKAGE_ROOT))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config, golden = installed_files(family)
    count = json.loads(golden.read_bytes())["count"]
    found = proc.stdout.rstrip("\n").rsplit("; ", 1)[1]  # the files --root found: Python's own paths
    assert proc.stdout.startswith(f"{family}: golden ok ({count} configs x 2 flavors, hashed natively; ")
    assert found.startswith("config ") and found.endswith(")")
    cfg_text, golden_text = found[len("config "):-1].split(", golden ")
    assert Path(cfg_text).resolve() == config.resolve() and Path(golden_text).resolve() == golden.resolve()


@pytest.fixture()
def planted(tmp_path: Path) -> tuple[Path, Path]:
    config, golden = installed_files(FAMILY)
    shutil.copyfile(config, tmp_path / config.name)
    shutil.copyfile(golden, tmp_path / f"{FAMILY}.golden.json")
    return tmp_path / config.name, tmp_path / f"{FAMILY}.golden.json"


def _run_planted(config: Path, golden: Path) -> tuple[int, list[str]]:
    proc = check("--family", FAMILY, "--configs", str(config), "--golden", str(golden))
    lines = proc.stdout.splitlines()
    return proc.returncode, lines


def _python_verdicts(config: Path, golden: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """rocke.gates.golden's verdicts for the same files (the Python engine, as `rocke check golden`)."""
    import rocke.families.configs as configs
    import rocke.gates.golden as gold

    monkeypatch.setattr(configs, "config_path", lambda family: config)
    monkeypatch.setattr(gold, "config_bytes", lambda family: config.read_bytes())
    fresh, problems = compute(get_family(FAMILY))
    assert not problems
    return compare(get_family(FAMILY), golden.read_bytes() if golden.is_file() else None, fresh)


def test_unchanged_copy_passes(planted: tuple[Path, Path]) -> None:
    rc, lines = _run_planted(*planted)
    assert rc == 0 and lines[-1].startswith(f"{FAMILY}: golden ok (")


def test_flipped_hash_fails_with_the_python_verdict(planted, monkeypatch) -> None:
    config, golden = planted
    data = json.loads(golden.read_bytes())
    key = sorted(data["configs"])[3]
    field = sorted(data["configs"][key])[-1]
    digest = data["configs"][key][field]
    data["configs"][key][field] = ("0" if digest[0] != "0" else "1") + digest[1:]
    golden.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    rc, lines = _run_planted(config, golden)
    assert rc == 1
    assert lines[:-1] == [f"{FAMILY}: changed output [{key}]: {field}"]
    assert lines[:-1] == _python_verdicts(config, golden, monkeypatch)
    assert lines[-1].startswith(f"{FAMILY}: golden FAILED (1 problems;")


def test_truncated_config_file_fails_with_the_python_verdicts(planted, monkeypatch) -> None:
    config, golden = planted
    text = config.read_text()
    kept = text[: text.rstrip("\n").rfind("\n") + 1]  # drop the last line
    config.write_text(kept)
    rc, lines = _run_planted(config, golden)
    assert rc == 1
    assert any("config file changed since the last bless" in line for line in lines)
    assert any("golden has a config the file lacks [" in line for line in lines)
    assert lines[:-1] == _python_verdicts(config, golden, monkeypatch)


def test_config_file_cut_mid_line_fails(planted) -> None:
    config, golden = planted
    config.write_bytes(config.read_bytes()[:-7])
    proc = check("--family", FAMILY, "--configs", str(config), "--golden", str(golden))
    assert proc.returncode == 1
    assert f"{FAMILY}.cfg line " in proc.stderr


def test_extra_config_fails_with_the_python_verdicts(planted, monkeypatch) -> None:
    config, golden = planted
    lines_in = [line for line in config.read_text().splitlines() if line and not line.startswith(("#", "refuse"))]
    arch, kv = lines_in[0].split(" ", 1)
    extra = " ".join("block=512" if pair.startswith("block=") else pair for pair in kv.split(" "))
    assert extra != kv
    with open(config, "a") as handle:
        handle.write(f"{arch} {extra}\n")
    rc, lines = _run_planted(config, golden)
    assert rc == 1
    assert f"{FAMILY}: unblessed config [{arch} {extra}]" in lines
    assert lines[:-1] == _python_verdicts(config, golden, monkeypatch)


def test_missing_and_malformed_golden_fail(planted, monkeypatch) -> None:
    config, golden = planted
    golden.unlink()
    rc, lines = _run_planted(config, golden)
    assert rc == 1 and lines[:-1] == _python_verdicts(config, golden, monkeypatch)
    golden.write_text('{"format": "rocke.golden/0"}\n')
    rc, lines = _run_planted(config, golden)
    assert rc == 1 and lines[:-1] == _python_verdicts(config, golden, monkeypatch)


def test_bad_arguments_are_usage_errors(planted) -> None:
    config, golden = planted
    assert check("--family", FAMILY).returncode == 2
    assert check("--family", "nope", "--root", str(PACKAGE_ROOT)).returncode == 2
    assert check("--family", FAMILY, "--root", str(PACKAGE_ROOT), "--configs", str(config)).returncode == 2
    assert check("--family", FAMILY, "--configs", str(config), "--golden", str(golden),
                 "--flavors", "llvm99").returncode == 2
