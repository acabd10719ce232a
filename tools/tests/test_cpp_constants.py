"""One spelling for constants across the twins: the repository follows it, and a planted
UPPER_SNAKE C++ constant or a twin under another name fails the check (and `fix` repairs both)."""

import subprocess
from pathlib import Path

import cpp_constants

HEADER = """// Python twin: rocke/gates/golden.py
#pragma once
#include <string_view>
namespace rocke::gates {
inline constexpr std::string_view FORMAT_TEXT = "MAX_THINGS";  // MAX_THINGS is a string here
inline constexpr std::string_view kGoldenFormat = "rocke.golden/1";
constexpr int kMaxDepth = 512;
void f(int x = 3);
}  // namespace rocke::gates
"""
SOURCE = """// Python twin: rocke/gates/golden.py
#include "rocke/gates/golden.hpp"
namespace rocke::gates {
int g() { return FORMAT_TEXT.size() + kGoldenFormat.size() + kMaxDepth; }  // uses FORMAT_TEXT
}  // namespace rocke::gates
"""
PYTHON = 'FORMAT = "rocke.golden/1"\nFORMAT_TEXT = "x"\nclass A:\n    FAMILY = "a"\n'


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "platform" / "cpp" / "include" / "rocke" / "gates").mkdir(parents=True)
    (tmp_path / "platform" / "cpp" / "src" / "gates").mkdir(parents=True)
    (tmp_path / "platform" / "src" / "rocke" / "gates").mkdir(parents=True)
    (tmp_path / "platform" / "cpp" / "include" / "rocke" / "gates" / "golden.hpp").write_text(HEADER)
    (tmp_path / "platform" / "cpp" / "src" / "gates" / "golden.cpp").write_text(SOURCE)
    (tmp_path / "platform" / "src" / "rocke" / "gates" / "golden.py").write_text(PYTHON)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    return tmp_path


def test_kcamel_of_upper_snake():
    assert cpp_constants.kcamel("MAX_STORE_BYTES") == "kMaxStoreBytes"
    assert cpp_constants.kcamel("FAMILY") == "kFamily"
    assert cpp_constants.kcamel("LOG2E") == "kLog2e"


def test_the_repository_spells_every_constant_by_the_rule():
    assert cpp_constants.problems() == []


def test_planted_constants_fail_and_fix_repairs_them(tmp_path: Path):
    root = _tree(tmp_path)
    assert cpp_constants.problems(root) == [
        "platform/cpp/include/rocke/gates/golden.hpp: constant FORMAT_TEXT is spelled kFormatText "
        "(twin of platform/src/rocke/gates/golden.py's FORMAT_TEXT)",
        "platform/cpp/include/rocke/gates/golden.hpp: constant kGoldenFormat is spelled kFormat "
        "(twin of platform/src/rocke/gates/golden.py's FORMAT)",
    ]
    cpp_constants.fix(root)
    assert cpp_constants.problems(root) == []
    header = (root / "platform" / "cpp" / "include" / "rocke" / "gates" / "golden.hpp").read_text()
    assert 'kFormatText = "MAX_THINGS";  // MAX_THINGS is a string here' in header  # strings keep their text
    assert "kFormat = " in header and "kMaxDepth = 512" in header  # a C++-only kCamel constant stays
    source = (root / "platform" / "cpp" / "src" / "gates" / "golden.cpp").read_text()
    assert "return kFormatText.size() + kFormat.size() + kMaxDepth; }  // uses kFormatText" in source
