"""Golden .ll text: four small kernels, both flavors, compared byte for byte with the files in
platform/tests/golden_ll/ (named <kernel>.<arch>.<flavor>.ll). No LLVM needed.

A deliberate change to the lowering re-blesses them (then review the diff before committing):

    ROCKE_BLESS=1 PYTHONPATH=platform/src python -m pytest platform/tests/test_lower_golden.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from rocke.ir.samples import axpy, block_reduce, buffer_copy, gemm_mfma
from rocke.lower import lower

pytestmark = pytest.mark.golden

GOLDEN_DIR = Path(__file__).resolve().parent / "golden_ll"
BLESS = os.environ.get("ROCKE_BLESS") == "1"
# kernel builder, arch: a wave64 CDNA kernel, LDS + loop + barrier on wave32 RDNA3, buffers and the
# split gfx12 waitcnt, and an MFMA loop.
KERNELS = {
    "axpy": (axpy, "gfx942"),
    "block_reduce": (block_reduce, "gfx1100"),
    "buffer_copy": (buffer_copy, "gfx1201"),
    "gemm_mfma": (gemm_mfma, "gfx950"),
}
FLAVORS = ("llvm20", "llvm22")
CASES = [(name, flavor) for name in KERNELS for flavor in FLAVORS]


def golden_path(name: str, flavor: str) -> Path:
    return GOLDEN_DIR / f"{name}.{KERNELS[name][1]}.{flavor}.ll"


@pytest.mark.parametrize(("name", "flavor"), CASES)
def test_lowering_matches_golden(name: str, flavor: str) -> None:
    build, arch = KERNELS[name]
    text = lower(build(), arch=arch, flavor=flavor)
    path = golden_path(name, flavor)
    if BLESS:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    assert path.exists(), f"{path.name} is missing; bless it with ROCKE_BLESS=1"
    expected = path.read_bytes().decode("utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True), path.name, "lowered"))
        pytest.fail(f"{path.name} differs from the lowering (re-bless with ROCKE_BLESS=1 if intended):\n{diff}")


def test_no_stray_golden_files() -> None:
    expected = sorted(golden_path(name, flavor).name for name, flavor in CASES)
    assert sorted(p.name for p in GOLDEN_DIR.iterdir()) == expected


def test_golden_files_are_lf_ascii() -> None:
    for path in GOLDEN_DIR.iterdir():
        data = path.read_bytes()
        assert b"\r" not in data and data.endswith(b"\n") and data.isascii(), path.name
