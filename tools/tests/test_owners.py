"""CODEOWNERS review paths: who must review which change, and no file without an owner."""

import shutil
import subprocess
from pathlib import Path

import owners
import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = owners.load_rules(ROOT / "CODEOWNERS")


def test_library_only_change_needs_only_library_team():
    paths = ["library/src/rocke_library/kernels/conv/__init__.py", "library/cpp/src/version.cpp"]
    assert owners.reviewers(paths, RULES) == ["@rocke/library"]


def test_platform_change_needs_platform_team():
    assert owners.reviewers(["platform/src/rocke/ir/__init__.py"], RULES) == ["@rocke/platform"]


def test_root_build_files_need_both_teams():
    for path in ["noxfile.py", ".importlinter", "CODEOWNERS", ".ci/run", "tools/owners.py"]:
        assert owners.reviewers([path], RULES) == ["@rocke/library", "@rocke/platform"], path


def test_unowned_path_is_an_error():
    with pytest.raises(SystemExit, match=r"no owner for 'stray\.txt'"):
        owners.reviewers(["stray.txt"], RULES)


def test_every_tracked_file_has_an_owner():
    assert owners.main(["check"]) == 0


def test_check_fails_on_planted_unowned_file(tmp_path: Path):
    shutil.copy(ROOT / "CODEOWNERS", tmp_path / "CODEOWNERS")
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "a.py").write_text("x = 1\n")
    (tmp_path / "stray.txt").write_text("who owns me\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    assert owners.main(["--root", str(tmp_path), "check"]) == 1
    (tmp_path / "stray.txt").unlink()
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    assert owners.main(["--root", str(tmp_path), "check"]) == 0


def test_reviewers_for_a_diff(tmp_path: Path):
    shutil.copy(ROOT / "CODEOWNERS", tmp_path / "CODEOWNERS")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "conv.py").write_text("a = 1\n")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=tmp_path, check=True)
    (tmp_path / "library" / "conv.py").write_text("a = 2\n")
    changed = owners.changed_files(tmp_path, "HEAD")
    assert changed == ["library/conv.py"]
    assert owners.reviewers(changed, RULES) == ["@rocke/library"]


def _family_tree(root: Path, package: str, rel: str, name: str) -> list[Path]:
    top = "rocke" if package == "platform" else "rocke_library"
    files = [root / package / "src" / top / rel / name / n for n in ("family.py", f"{name}.cfg", f"{name}.golden.json")]
    files += [root / package / "cpp" / "include" / top / rel / name / "spec.hpp",
              root / package / "cpp" / "src" / rel / name / "spec.cpp",
              root / package / "tests" / rel / name / f"test_{name}_specs.py"]
    return files


def _git_tree(root: Path, files: list[Path]) -> None:
    shutil.copy(ROOT / "CODEOWNERS", root / "CODEOWNERS")
    for path in files:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x\n")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)


def test_every_family_has_one_folder_per_kind_and_one_owner():
    files = owners.tracked_files(ROOT)
    assert set(owners.families(files)) >= {"conv_direct_fwd", "elementwise", "gemm", "img2col"}
    assert owners.family_problems(files, RULES) == []
    assert "library/src/rocke_library/kernels/conv/img2col/img2col.golden.json" in owners.family_files("img2col", files)


def test_check_fails_on_a_family_missing_its_golden(tmp_path: Path, capsys):
    files = _family_tree(tmp_path, "library", "kernels/conv", "toy")
    _git_tree(tmp_path, [f for f in files if not f.name.endswith(".golden.json")])
    assert owners.main(["--root", str(tmp_path), "check"]) == 1
    assert "family toy: no golden library/src/rocke_library/kernels/conv/toy/toy.golden.json" in capsys.readouterr().out
    _git_tree(tmp_path, files)
    assert owners.main(["--root", str(tmp_path), "check"]) == 0


def test_check_fails_on_a_family_spread_over_both_teams(tmp_path: Path, capsys):
    files = _family_tree(tmp_path, "library", "kernels/conv", "toy")
    stray = tmp_path / "platform" / "tests" / "families" / "toy" / "test_toy_cpp.py"
    _git_tree(tmp_path, [*files, stray])
    assert owners.main(["--root", str(tmp_path), "check"]) == 1
    assert "family toy: files owned by more than one team: platform/tests/families/toy/test_toy_cpp.py" in (
        capsys.readouterr().out)


def test_check_fails_on_a_family_without_tests(tmp_path: Path, capsys):
    files = _family_tree(tmp_path, "platform", "families", "toy")
    _git_tree(tmp_path, [f for f in files if "tests" not in f.parts])
    assert owners.main(["--root", str(tmp_path), "check"]) == 1
    assert "family toy: no tests in platform/tests/families/toy/" in capsys.readouterr().out
