"""Python builder of the gemm family (the C++ twin mirrors it function for function): one user of
the tile-GEMM main loop (rocke.helpers.tile_gemm) with dense-matrix operand generators.

Workgroup (x, y) owns the tile C[y*bm .. +bm, x*bn .. +bn]; wave w owns the sub-tile at
(w / wn, w % wn) and accumulates rep_m x rep_n MMA atoms in f32. Per K tile of bk: every thread
copies its share of A and B into LDS with bounds-checked buffer loads (out-of-range elements read
0, so edge tiles need no other masking), a barrier, then each wave loads its fragments from LDS
and issues the MMAs. With double_buffer the copy of tile t + 1 goes to the other LDS stage while
the MMAs read tile t (one barrier per tile). The epilogue scales by alpha, adds the bias and
stores through a buffer resource; out-of-range elements get an out-of-range offset and drop.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import get_arch
from rocke.helpers import (
    AccElement,
    ColumnKey,
    MatrixOperand,
    TileAccumulators,
    TileGemm,
    buffer_rsrc,
    elem_bytes,
    from_f32,
    ir_type,
    load_guarded,
    masked_offset,
    to_f32,
)
from rocke.ir import Builder, KernelDef, Value, f32, i32, ptr, verify

from .plan import plan_gemm
from .spec import GemmSpec

FAULTS = ("", "transpose_a_frag", "drop_col_mask", "alpha_squared")  # test-only broken variants


@dataclass(frozen=True)
class Params:
    """The kernel's parameters, in signature order (bias is None without spec.bias)."""

    a: Value
    b: Value
    c: Value
    bias: Value | None
    m: Value
    n: Value
    k: Value
    alpha: Value


def _epilogue(b: Builder, spec: GemmSpec, acc: TileAccumulators, params: Params, fault: str) -> None:
    """C = alpha * acc (+ bias[col]) for every accumulator element inside M x N."""
    out_t = ir_type(spec.c_dtype)
    out_size = elem_bytes(spec.c_dtype)
    m, n, alpha = params.m, params.n, params.alpha
    scale = b.mul(alpha, alpha) if fault == "alpha_squared" else alpha
    scale_v = b.splat(scale, acc.plan.op.c.length, name="alpha_v")
    c_rsrc = buffer_rsrc(b, params.c, b.mul(m, n), out_size, name="c_rsrc")
    rows, cols = acc.coords(b)
    bias: dict[ColumnKey, Value] = {}
    if spec.bias:
        assert params.bias is not None
        bias_rsrc = buffer_rsrc(b, params.bias, n, out_size, name="bias_rsrc")
        bias = acc.column_values(b, cols, lambda col: to_f32(
            b, load_guarded(b, bias_rsrc, col, b.sub(n, col), out_t, 1, name="bias"), out_t, 1))

    def store(e: AccElement) -> None:
        value = b.add(e.value, bias[e.col_key]) if spec.bias else e.value
        ok = b.cmpi("slt", e.row, m) if fault == "drop_col_mask" else e.inside(b, m, n)
        offset = masked_offset(b, ok, b.add(b.mul(e.row, n), e.col), out_size)
        b.buffer_store(c_rsrc, offset, from_f32(b, value, out_t, 1, name="c_value"))

    acc.each_element(b, rows, cols, store, atom=lambda value_v: b.mul(value_v, scale_v, name="scaled"))


def build(spec: GemmSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    plan = plan_gemm(spec, target, _fault=_fault)
    elem = ir_type(spec.a_dtype)
    esize = elem_bytes(spec.a_dtype)
    out_t = ir_type(spec.c_dtype)
    b = Builder(spec.kernel_name(), max_workgroup_size=plan.threads)
    params = Params(
        a=b.param("a", ptr(elem, "global"), noalias=True, readonly=True),
        b=b.param("b", ptr(elem, "global"), noalias=True, readonly=True),
        c=b.param("c", ptr(out_t, "global"), noalias=True, writeonly=True),
        bias=b.param("bias", ptr(out_t, "global"), noalias=True, readonly=True) if spec.bias else None,
        m=b.param("m", i32),
        n=b.param("n", i32),
        k=b.param("k", i32),
        alpha=b.param("alpha", f32),
    )
    m, n, k = params.m, params.n, params.k
    loop = TileGemm(b, plan, elem)
    row0, col0 = loop.place_grid(b, spec.bm, spec.bn)
    a_rsrc = buffer_rsrc(b, params.a, b.mul(m, k), esize, name="a_rsrc")
    b_rsrc = buffer_rsrc(b, params.b, b.mul(k, n), esize, name="b_rsrc")
    a_gen = MatrixOperand("a", a_rsrc, plan.a.k_contiguous, row0, m, k)
    b_gen = MatrixOperand("b", b_rsrc, plan.b.k_contiguous, col0, n, k)
    loop.run(b, a_gen, b_gen, k, lambda acc: _epilogue(b, spec, acc, params, _fault))
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
