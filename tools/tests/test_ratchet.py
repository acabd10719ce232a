"""The shrink-only ratchet: each violation is planted in a temporary copy and must fail."""

import json
import shutil
from pathlib import Path

import pytest
import ratchet

ROOT = Path(__file__).resolve().parents[2]
# Built at run time so this file itself carries no suppression comment.
NOQA = "# " + "noqa"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for name in [".importlinter", "ruff.toml"]:
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / ratchet.BASELINE, tmp_path / ratchet.BASELINE)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("x = 1\n")
    return tmp_path


def _ignore_imports(repo: Path, lines: list[str]) -> None:
    text = (repo / ".importlinter").read_text()
    marker = "[importlinter:contract:platform-layers]\n"
    block = "ignore_imports =\n" + "".join(f"    {line}\n" for line in lines)
    (repo / ".importlinter").write_text(text.replace(marker, marker + block))


def _baseline_add(repo: Path, source: str, entry: str) -> None:
    path = repo / ratchet.BASELINE
    data = json.loads(path.read_text())
    data[source] = sorted([*data.get(source, []), entry])
    path.write_text(json.dumps(data))


def test_real_repo_passes():
    assert ratchet.main(["check"]) == 0


def test_clean_copy_passes(repo: Path):
    assert ratchet.main(["--root", str(repo)]) == 0


def test_added_ignore_import_fails(repo: Path, capsys):
    _ignore_imports(repo, ["rocke.ir -> rocke.cli"])
    assert ratchet.main(["--root", str(repo)]) == 1
    assert "added (allowlists only shrink)" in capsys.readouterr().out


def test_stale_baseline_entry_fails(repo: Path, capsys):
    _baseline_add(repo, "importlinter.ignore_imports", "importlinter:contract:platform-layers: a -> b")
    assert ratchet.main(["--root", str(repo)]) == 1
    assert "stale" in capsys.readouterr().out


def test_wildcard_fails_even_when_baselined(repo: Path, capsys):
    _ignore_imports(repo, ["rocke.ir.* -> rocke.cli"])
    _baseline_add(repo, "importlinter.ignore_imports", "importlinter:contract:platform-layers: rocke.ir.* -> rocke.cli")
    assert ratchet.main(["--root", str(repo)]) == 1
    out = capsys.readouterr().out
    assert "wildcard" in out and "added" not in out


def test_new_noqa_fails_and_bare_noqa_is_a_wildcard(repo: Path, capsys):
    (repo / "pkg" / "mod.py").write_text(f"import os  {NOQA}: F401\n")
    assert ratchet.main(["--root", str(repo)]) == 1
    assert "noqa: added" in capsys.readouterr().out
    (repo / "pkg" / "mod.py").write_text(f"import os  {NOQA}\n")
    assert ratchet.main(["--root", str(repo)]) == 1
    assert "wildcard" in capsys.readouterr().out


def test_new_ruff_per_file_ignore_fails(repo: Path):
    with (repo / "ruff.toml").open("a") as f:
        f.write('\n[lint.per-file-ignores]\n"pkg/mod.py" = ["F401"]\n')
    assert ratchet.main(["--root", str(repo)]) == 1


def test_shrink_removes_stale_entries_but_never_adds(repo: Path):
    _baseline_add(repo, "noqa", f"pkg/gone.py: x  {NOQA}: F401")
    assert ratchet.main(["--root", str(repo), "shrink"]) == 0
    assert "pkg/gone.py" not in (repo / ratchet.BASELINE).read_text()
    (repo / "pkg" / "mod.py").write_text(f"import os  {NOQA}: F401\n")
    assert ratchet.main(["--root", str(repo), "shrink"]) == 1
    assert "mod.py" not in (repo / ratchet.BASELINE).read_text()
