"""ArchTarget through the IR verifier: it is an ArchLike, and the verifier's MMA arch rule uses
the catalog's fragment types."""

from __future__ import annotations

import pytest

from rocke.arch import ARCH_NAMES, MMA_OPS, get_arch
from rocke.ir import ArchLike, Builder, KernelDef, VerifyError, f32, i32, parse_type, ptr, verify


def _mma_kernel(op_id: str, a_type: str, c_type: str, b_type: str = "") -> KernelDef:
    a_vec, c_vec = parse_type(a_type), parse_type(c_type)
    b_vec = parse_type(b_type) if b_type else a_vec
    b = Builder("mma_probe")
    out = b.param("out", ptr(c_vec, "global"), noalias=True)
    a = b.splat(b.const(1.0, a_vec.element), a_vec.lanes)
    bb = a if not b_type else b.splat(b.const(1.0, b_vec.element), b_vec.lanes)
    c = b.splat(b.const(0.0, f32), c_vec.lanes)
    b.store(out, b.const(0, i32), b.mma(op_id, a, bb, c))
    return b.finish()


@pytest.mark.parametrize("name", ARCH_NAMES)
def test_arch_target_is_arch_like(name: str) -> None:
    assert isinstance(get_arch(name), ArchLike)


@pytest.mark.parametrize("op_id", [op.id for op in MMA_OPS])
def test_verifier_accepts_catalog_fragments_on_the_ops_archs_only(op_id: str) -> None:
    op = next(o for o in MMA_OPS if o.id == op_id)
    # A non-square atom (mma.sync 16x8x16) takes a B fragment of its own type.
    kernel = _mma_kernel(op_id, op.a.ir_type_text, op.c.ir_type_text, op.b.ir_type_text)
    for name in ARCH_NAMES:
        if name in op.archs:
            verify(kernel, get_arch(name))
        else:
            with pytest.raises(VerifyError, match=f"op_id '{op_id}' is not available on {name}"):
                verify(kernel, get_arch(name))


def test_verifier_reports_wrong_fragment_types() -> None:
    kernel = _mma_kernel("mfma_f32_16x16x16_bf16", "vec<bf16x8>", "vec<f32x4>")
    with pytest.raises(VerifyError, match=r"takes \(a, b, c\) = \(vec<bf16x4>, vec<bf16x4>, vec<f32x4>\)"):
        verify(kernel, get_arch("gfx942"))
