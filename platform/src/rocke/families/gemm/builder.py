"""Python builder of the gemm family (the C++ twin mirrors it function for function).

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
    add_i32,
    alloc_tile,
    buffer_rsrc,
    ceil_div_i32,
    const_i32,
    divu_i32,
    elem_bytes,
    emit_lane_part,
    f32_const,
    fragment_base,
    from_f32,
    guaranteed_align,
    ir_type,
    load_fragment,
    load_guarded,
    masked_offset,
    mul_i32,
    remu_i32,
    tile_access,
    to_f32,
    valid_if,
)
from rocke.ir import Builder, KernelDef, ScalarType, Value, f32, i32, ptr, verify

from .plan import GemmPlan, OperandPlan, plan_gemm
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


class Copy:
    """One thread's accesses of an operand copy, set up once before the K loop.

    k-contiguous operand (access = vec consecutive k of one line o):
        index(k0) = gbase + k0, valid(k0) = line_ok ? kcap - k0 : 0, LDS o * stride + kc
    outer-contiguous operand (access = vec consecutive o at one k row kr):
        index(k0) = (kr + k0) * outer_size + gbase, valid(k0) = kr + k0 < K ? ocap : 0,
        LDS (o + j) * stride + kr for element j
    """

    def __init__(self, b: Builder, plan: OperandPlan, tid: Value, origin: Value, outer_size: Value, k: Value):
        self.plan = plan
        self.outer_size = outer_size
        self.k = k
        self.gbase: list[Value] = []
        self.cap: list[Value] = []
        self.line_ok: list[Value] = []  # k-contiguous only
        self.krow: list[Value] = []  # outer-contiguous only
        self.lds_index: list[Value] = []
        stride = plan.tile.stride
        for i in range(plan.split.per_thread):
            line, first = tile_access(b, plan.split, tid, i)
            if plan.k_contiguous:
                outer = b.add(origin, line)
                self.gbase.append(b.add(b.mul(outer, k), first, name=f"{plan.name}_gbase"))
                self.cap.append(b.sub(k, first, name=f"{plan.name}_kcap"))
                self.line_ok.append(b.cmpi("slt", outer, outer_size))
                self.lds_index.append(b.add(mul_i32(b, line, stride), first, name=f"{plan.name}_lds"))
            else:
                outer = b.add(origin, first)
                self.gbase.append(outer)
                self.cap.append(b.sub(outer_size, outer, name=f"{plan.name}_ocap"))
                self.krow.append(line)
                self.lds_index.append(b.add(mul_i32(b, first, stride), line, name=f"{plan.name}_lds"))

    def load(self, b: Builder, rsrc: Value, k0: Value | None, elem: ScalarType) -> list[Value]:
        """This thread's vectors of the K tile starting at k0 (None: the first tile)."""
        values = []
        for i in range(self.plan.split.per_thread):
            if self.plan.k_contiguous:
                index = self.gbase[i] if k0 is None else b.add(self.gbase[i], k0)
                valid = valid_if(b, self.line_ok[i], self.cap[i] if k0 is None else b.sub(self.cap[i], k0))
            else:
                kr = self.krow[i] if k0 is None else b.add(self.krow[i], k0)
                index = b.add(b.mul(kr, self.outer_size), self.gbase[i])
                valid = valid_if(b, b.cmpi("slt", kr, self.k), self.cap[i])
            values.append(load_guarded(b, rsrc, index, valid, elem, self.plan.split.vec,
                                       name=f"{self.plan.name}_vals"))
        return values

    def store(self, b: Builder, lds: Value, stage_base: Value | None, values: list[Value], esize: int) -> None:
        """Write the vectors into the LDS stage starting at element stage_base (None: stage 0)."""
        tile = self.plan.tile
        vec = self.plan.split.vec
        for i, value in enumerate(values):
            index = self.lds_index[i] if stage_base is None else b.add(self.lds_index[i], stage_base)
            if self.plan.k_contiguous:
                align = 0 if vec == 1 else guaranteed_align(esize, vec * esize, [tile.stride, vec, tile.stage_elems])
                b.lds_store(lds, index, value, align=align)
                continue
            for j in range(vec):
                element = value if vec == 1 else b.extract(value, j)
                b.lds_store(lds, add_i32(b, index, j * tile.stride), element)


def _fragment_bases(b: Builder, plan: OperandPlan, lane: Value, wave_origin: Value, reps: int, atom: int
                    ) -> list[Value]:
    """Per repeat r: the LDS element index of slot 0 of this lane's fragment in stage 0."""
    return [fragment_base(b, plan.frag, lane, add_i32(b, wave_origin, r * atom), name=f"{plan.name}_frag")
            for r in range(reps)]


def _mma_tile(b: Builder, spec: GemmSpec, plan: GemmPlan, a_lds: Value, b_lds: Value, a_bases: list[Value],
              b_bases: list[Value], accs: list[Value], elem: ScalarType) -> list[Value]:
    """Every MMA of one K tile: per atom-k step, load the fragments, then rep_m * rep_n MMAs."""
    op = plan.op
    accs = list(accs)
    for kk in range(0, spec.bk, op.k):
        afrags = [load_fragment(b, a_lds, base, plan.a.frag, kk, elem, [plan.a.tile.stage_elems], name="a_frag")
                  for base in a_bases]
        bfrags = [load_fragment(b, b_lds, base, plan.b.frag, kk, elem, [plan.b.tile.stage_elems], name="b_frag")
                  for base in b_bases]
        for rm in range(plan.rep_m):
            for rn in range(plan.rep_n):
                i = rm * plan.rep_n + rn
                accs[i] = b.mma(op.id, afrags[rm], bfrags[rn], accs[i], name="acc")
    return accs


def _staged(b: Builder, bases: list[Value], stage_base: Value | None) -> list[Value]:
    return bases if stage_base is None else [b.add(base, stage_base) for base in bases]


def _epilogue(b: Builder, spec: GemmSpec, plan: GemmPlan, accs: list[Value], params: Params,
              lane: Value, row0: Value, col0: Value, fault: str) -> None:
    """C = alpha * acc (+ bias[col]) for every accumulator element inside M x N."""
    op = plan.op
    out_t = ir_type(spec.c_dtype)
    out_size = elem_bytes(spec.c_dtype)
    m, n, alpha = params.m, params.n, params.alpha
    scale = b.mul(alpha, alpha) if fault == "alpha_squared" else alpha
    scale_v = b.splat(scale, op.c.length, name="alpha_v")
    c_rsrc = buffer_rsrc(b, params.c, b.mul(m, n), out_size, name="c_rsrc")
    row_lane = emit_lane_part(b, plan.c_row.lane_part, lane)
    col_lane = emit_lane_part(b, plan.c_col.lane_part, lane)
    rows = [b.add(add_i32(b, row0, rm * op.m), row_lane, name="row") for rm in range(plan.rep_m)]
    cols = [b.add(add_i32(b, col0, rn * op.n), col_lane, name="col") for rn in range(plan.rep_n)]
    bias: dict[tuple[int, int], Value] = {}
    if spec.bias:
        assert params.bias is not None
        bias_rsrc = buffer_rsrc(b, params.bias, n, out_size, name="bias_rsrc")
        for rn in range(plan.rep_n):
            for offset in plan.c_col.slot_offsets:
                if (rn, offset) not in bias:
                    col = add_i32(b, cols[rn], offset)
                    raw = load_guarded(b, bias_rsrc, col, b.sub(n, col), out_t, 1, name="bias")
                    bias[(rn, offset)] = to_f32(b, raw, out_t, 1)
    for rm in range(plan.rep_m):
        for rn in range(plan.rep_n):
            scaled = b.mul(accs[rm * plan.rep_n + rn], scale_v, name="scaled")
            for s in range(op.c.length):
                row = add_i32(b, rows[rm], plan.c_row.slot_offsets[s])
                col = add_i32(b, cols[rn], plan.c_col.slot_offsets[s])
                value = b.extract(scaled, s)
                if spec.bias:
                    value = b.add(value, bias[(rn, plan.c_col.slot_offsets[s])])
                ok = b.cmpi("slt", row, m)
                if fault != "drop_col_mask":
                    ok = b.and_(ok, b.cmpi("slt", col, n))
                offset = masked_offset(b, ok, b.add(b.mul(row, n), col), out_size)
                b.buffer_store(c_rsrc, offset, from_f32(b, value, out_t, 1, name="c_value"))


def build(spec: GemmSpec, arch: str, *, _fault: str = "") -> KernelDef:
    """The verified kernel for spec on arch; SpecError when the arch refuses the spec."""
    if _fault not in FAULTS:
        raise ValueError(f"unknown fault '{_fault}'")
    target = get_arch(arch)
    plan = plan_gemm(spec, target, _fault=_fault)
    op = plan.op
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
    a_lds = alloc_tile(b, plan.a.tile, elem, name="a_lds")
    b_lds = alloc_tile(b, plan.b.tile, elem, name="b_lds")

    tid = b.thread_id_x(name="tid")
    lane = b.lane_id(name="lane")
    wave = b.wave_id(name="wave")
    row0 = mul_i32(b, b.block_id_y(), spec.bm, name="row0")
    col0 = mul_i32(b, b.block_id_x(), spec.bn, name="col0")
    wave_row = mul_i32(b, divu_i32(b, wave, spec.wn), plan.wave_tile_m, name="wave_row")
    wave_col = mul_i32(b, remu_i32(b, wave, spec.wn), plan.wave_tile_n, name="wave_col")
    a_rsrc = buffer_rsrc(b, params.a, b.mul(m, k), esize, name="a_rsrc")
    b_rsrc = buffer_rsrc(b, params.b, b.mul(k, n), esize, name="b_rsrc")
    a_copy = Copy(b, plan.a, tid, row0, m, k)
    b_copy = Copy(b, plan.b, tid, col0, n, k)
    a_bases = _fragment_bases(b, plan.a, lane, wave_row, plan.rep_m, op.m)
    b_bases = _fragment_bases(b, plan.b, lane, wave_col, plan.rep_n, op.n)
    tiles = ceil_div_i32(b, k, spec.bk, name="k_tiles")
    zero = f32_const(b, 0.0, op.c.length, name="acc")
    accs0 = [zero] * (plan.rep_m * plan.rep_n)

    def copy_tile(k0: Value | None) -> None:
        """Copy the K tile at k0 (None: the first) into LDS stage 0."""
        a_values = a_copy.load(b, a_rsrc, k0, elem)
        b_values = b_copy.load(b, b_rsrc, k0, elem)
        a_copy.store(b, a_lds, None, a_values, esize)
        b_copy.store(b, b_lds, None, b_values, esize)

    if spec.double_buffer:
        copy_tile(None)
        b.barrier()

        def body(kt: Value, *accs: Value) -> list[Value]:
            stage = b.and_(kt, const_i32(b, 1), name="stage")
            next_k0 = mul_i32(b, add_i32(b, kt, 1), spec.bk, name="next_k0")
            a_values = a_copy.load(b, a_rsrc, next_k0, elem)
            b_values = b_copy.load(b, b_rsrc, next_k0, elem)
            a_staged = _staged(b, a_bases, mul_i32(b, stage, plan.a.tile.stage_elems))
            b_staged = _staged(b, b_bases, mul_i32(b, stage, plan.b.tile.stage_elems))
            accs_out = _mma_tile(b, spec, plan, a_lds, b_lds, a_staged, b_staged, list(accs), elem)
            other = b.xor_(stage, const_i32(b, 1), name="next_stage")
            a_copy.store(b, a_lds, mul_i32(b, other, plan.a.tile.stage_elems), a_values, esize)
            b_copy.store(b, b_lds, mul_i32(b, other, plan.b.tile.stage_elems), b_values, esize)
            b.barrier()
            return accs_out
    else:

        def body(kt: Value, *accs: Value) -> list[Value]:
            copy_tile(mul_i32(b, kt, spec.bk, name="k0"))
            b.barrier()
            accs_out = _mma_tile(b, spec, plan, a_lds, b_lds, a_bases, b_bases, list(accs), elem)
            b.barrier()
            return accs_out

    accs = b.for_(const_i32(b, 0), tiles, const_i32(b, 1), accs0, body, names=["acc"] * len(accs0), iv_name="kt")
    _epilogue(b, spec, plan, accs, params, lane, b.add(row0, wave_row), b.add(col0, wave_col), _fault)
    kernel = b.finish()
    verify(kernel, arch=target)
    return kernel
