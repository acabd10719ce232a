"""The tile-GEMM main loop: C[bm x bn] += A[bm x K] @ B[K x bn] per workgroup on MMA atoms, with the
global side of each operand supplied by an *operand address generator*.

A workgroup owns a bm x bn tile of C; wave w owns the sub-tile at (w / wn, w % wn) and accumulates
rep_m x rep_n MMA atoms in f32. Per K tile of bk: every thread copies its share of A and B into LDS
with bounds-checked buffer loads (out-of-range or masked elements read 0, so edge tiles need no
other masking), a barrier, then each wave loads its fragments from LDS (the catalog layouts, one
vector LDS load per run) and issues the MMAs. With double_buffer the copy of tile t + 1 goes to the
other LDS stage while the MMAs read tile t (one barrier per tile). The accumulators then go to the
caller's epilogue.

LDS holds A as [bm][bk + lds_pad] and B as [bn][bk + lds_pad] (k contiguous for both, so MMA
fragments are vector loads), in 1 or 2 stages. Global -> LDS copies read vectors along each
operand's contiguous dimension: k when the operand is k-contiguous (vector LDS stores), the outer
dimension (m for A, n for B) otherwise (the copy transposes: one LDS store per element).

An operand address generator (OperandAddress) says where a thread's access lives in global memory:
`setup(b, outer, k)` runs once per access before the K loop with the access's tile-local outer index
and k index (of its first element), and `address(b, state, k0)` returns, for the K tile starting at
k0 (None: the first tile), the element index of the access's first element and its valid count
(device i32: elements j >= valid read 0; the vector runs along k for a k-contiguous operand, along
the outer dimension otherwise). MatrixOperand is the generator of a dense strided matrix (gemm's A
and B); implicit-GEMM convolutions bring their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rocke.arch import ArchTarget, MmaOp
from rocke.ir import Builder, ScalarType, Value

from .buffers import load_guarded, valid_if
from .dtypes import elem_bytes
from .fmath import f32_const
from .index import add_i32, ceil_div_i32, const_i32, divu_i32, guaranteed_align, mul_i32, remu_i32
from .layout import SplitFormula, emit_lane_part, split_formula
from .lds import PaddedTile, alloc_tile
from .mma_frag import FragmentPlan, fragment_base, load_fragment, plan_fragment
from .tiles import TileSplit, split_tile, tile_access

MAX_LDS_ALLOC_ELEMS = 65536  # mem.lds_alloc count limit

Fail = Callable[[str, str], None]  # Spec.fail: raises SpecError("FAMILY: FIELD=VALUE: RULE"), never returns


@dataclass(frozen=True)
class TileShape:
    """The tile fields of a spec: the workgroup tile bm x bn x bk, the wm x wn wave grid, the MMA atom,
    the LDS line padding and staging, the input dtype, each operand's global contiguity and the widest
    copy vector (elements) each operand's generator accepts."""

    bm: int
    bn: int
    bk: int
    wm: int
    wn: int
    lds_pad: int
    double_buffer: bool
    dtype: str
    op: MmaOp
    a_k_contiguous: bool
    b_k_contiguous: bool
    a_max_vec: int = 8
    b_max_vec: int = 8


@dataclass(frozen=True)
class OperandPlan:
    """Staging of one input operand (A or B) through LDS."""

    name: str  # "a" or "b"
    k_contiguous: bool  # the global layout puts consecutive k next to each other
    tile: PaddedTile  # [outer = bm or bn][bk + pad]
    split: TileSplit  # the copy: k-contiguous: bm lines of bk; else bk lines of bm
    frag: FragmentPlan


@dataclass(frozen=True)
class TileGemmPlan:
    op: MmaOp
    threads: int
    bk: int
    wn: int
    rep_m: int  # atoms per wave along m
    rep_n: int
    wave_tile_m: int  # bm / wm
    wave_tile_n: int
    stages: int
    a: OperandPlan
    b: OperandPlan
    c_row: SplitFormula
    c_col: SplitFormula
    lds_bytes: int


def _operand(shape: TileShape, fail: Fail, name: str, outer: int, k_contiguous: bool, max_vec: int, stages: int,
             threads: int, outer_is_row: bool) -> OperandPlan:
    esize = elem_bytes(shape.dtype)
    tile = PaddedTile(outer, shape.bk, shape.lds_pad, stages)
    max_bytes = min(16, max_vec * esize)
    if k_contiguous:
        split = split_tile(outer, shape.bk, threads, esize, max_bytes)
    else:
        split = split_tile(shape.bk, outer, threads, esize, max_bytes)
    field = "bm" if name == "a" else "bn"
    if split is None:
        fail(field, f"the {name.upper()} tile of {outer} x {shape.bk} elements does not split evenly over "
                    f"{threads} threads")
    assert split is not None
    if tile.count > MAX_LDS_ALLOC_ELEMS:
        fail(field, f"the {name.upper()} LDS tile holds {tile.count} elements, over the allocation limit "
                    f"of {MAX_LDS_ALLOC_ELEMS}")
    frag = plan_fragment(shape.op, name, outer_is_row, tile.stride)
    if frag is None:
        fail("op_id", f"has a {name.upper()} fragment layout that is not lane/slot separable")
    assert frag is not None
    return OperandPlan(name, k_contiguous, tile, split, frag)


def plan_tile_gemm(shape: TileShape, target: ArchTarget, fail: Fail, *, transpose_a_frag: bool = False
                   ) -> TileGemmPlan:
    """The plan of the main loop on target; fail(field, rule) for what the arch refuses, in order: the
    atom's arch, the workgroup size, each operand's copy split and LDS tile, the LDS total, the C
    layout. transpose_a_frag (a test-only hook) reads the A fragment with its row and column formulas
    swapped."""
    op = shape.op
    if target.mma_signature(op.id) is None:
        fail("op_id", f"is not available on {target.name} (it runs on {', '.join(op.archs)})")
    threads = shape.wm * shape.wn * op.wave_size
    if threads > target.max_workgroup_size:
        fail("wm", f"wm * wn = {shape.wm * shape.wn} waves of {op.wave_size} lanes exceed the "
                   f"{target.max_workgroup_size}-thread workgroup limit of {target.name}")
    stages = 2 if shape.double_buffer else 1
    a = _operand(shape, fail, "a", shape.bm, shape.a_k_contiguous, shape.a_max_vec, stages, threads,
                 not transpose_a_frag)
    b = _operand(shape, fail, "b", shape.bn, shape.b_k_contiguous, shape.b_max_vec, stages, threads, False)
    esize = elem_bytes(shape.dtype)
    lds_bytes = a.tile.nbytes(esize) + b.tile.nbytes(esize)
    if lds_bytes > target.lds_bytes:
        fail("bk", f"the LDS tiles need {lds_bytes} bytes ({stages} stage(s) of ({shape.bm} + {shape.bn}) x "
                   f"({shape.bk} + {shape.lds_pad}) {shape.dtype}), over the {target.lds_bytes} bytes of "
                   f"{target.name}")
    c_row = split_formula(op.c.row_expr, op.wave_size, op.c.length)
    c_col = split_formula(op.c.col_expr, op.wave_size, op.c.length)
    if c_row is None or c_col is None:
        fail("op_id", "has a C fragment layout that is not lane/slot separable")
    assert c_row is not None and c_col is not None
    wave_tile_m = shape.bm // shape.wm
    wave_tile_n = shape.bn // shape.wn
    return TileGemmPlan(op, threads, shape.bk, shape.wn, wave_tile_m // op.m, wave_tile_n // op.n, wave_tile_m,
                        wave_tile_n, stages, a, b, c_row, c_col, lds_bytes)


class OperandAddress(Protocol):
    """The global side of one operand: where each thread's copy access reads (module docstring)."""

    rsrc: Value  # the buffer resource the accesses read through

    def setup(self, b: Builder, outer: Value, k: Value) -> object:
        """Per access, once before the K loop: whatever address() needs (tile-local outer and k)."""
        ...

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        """(element index, valid count) of the access in the K tile starting at k0 (None: the first)."""
        ...


class MatrixOperand:
    """A dense matrix operand: element (o, k) at base + o * lead + k when k-contiguous, base + k * lead + o
    otherwise; o < outer_size and k < k_size are valid. origin: the workgroup's first outer index; lead:
    the line stride in elements (None: k_size when k-contiguous, outer_size otherwise); base: an element
    offset added to every index (None: 0).

    k-contiguous (access = vec consecutive k of one line o):
        index(k0) = gbase + k0, valid(k0) = line_ok ? kcap - k0 : 0
    outer-contiguous (access = vec consecutive o at one k row kr):
        index(k0) = (kr + k0) * lead + gbase, valid(k0) = kr + k0 < k_size ? ocap : 0
    """

    def __init__(self, name: str, rsrc: Value, k_contiguous: bool, origin: Value, outer_size: Value, k_size: Value,
                 lead: Value | None = None, base: Value | None = None):
        self.name = name
        self.rsrc = rsrc
        self.k_contiguous = k_contiguous
        self.origin = origin
        self.outer_size = outer_size
        self.k_size = k_size
        self.lead = lead if lead is not None else (k_size if k_contiguous else outer_size)
        self.base = base

    def setup(self, b: Builder, outer: Value, k: Value) -> object:
        if self.k_contiguous:
            line = b.add(self.origin, outer)
            gbase = b.add(b.mul(line, self.lead), k, name=f"{self.name}_gbase")
            if self.base is not None:
                gbase = b.add(gbase, self.base)
            cap = b.sub(self.k_size, k, name=f"{self.name}_kcap")
            return gbase, cap, b.cmpi("slt", line, self.outer_size)
        line = b.add(self.origin, outer)
        gbase = line if self.base is None else b.add(line, self.base)
        return gbase, b.sub(self.outer_size, line, name=f"{self.name}_ocap"), k

    def address(self, b: Builder, state: object, k0: Value | None) -> tuple[Value, Value]:
        assert isinstance(state, tuple)
        if self.k_contiguous:
            gbase, cap, line_ok = state
            index = gbase if k0 is None else b.add(gbase, k0)
            return index, valid_if(b, line_ok, cap if k0 is None else b.sub(cap, k0))
        gbase, cap, krow = state
        kr = krow if k0 is None else b.add(krow, k0)
        return b.add(b.mul(kr, self.lead), gbase), valid_if(b, b.cmpi("slt", kr, self.k_size), cap)


class _Copy:
    """One thread's accesses of an operand copy, set up once before the K loop; LDS element of access
    (o, k): o * stride + k (k-contiguous: the vector's elements at + 0, 1, ...; else at + j * stride)."""

    def __init__(self, b: Builder, plan: OperandPlan, gen: OperandAddress, tid: Value):
        self.plan = plan
        self.gen = gen
        self.states: list[object] = []
        self.lds_index: list[Value] = []
        stride = plan.tile.stride
        for i in range(plan.split.per_thread):
            line, first = tile_access(b, plan.split, tid, i)
            if plan.k_contiguous:
                self.states.append(gen.setup(b, line, first))
                self.lds_index.append(b.add(mul_i32(b, line, stride), first, name=f"{plan.name}_lds"))
            else:
                self.states.append(gen.setup(b, first, line))
                self.lds_index.append(b.add(mul_i32(b, first, stride), line, name=f"{plan.name}_lds"))

    def load(self, b: Builder, k0: Value | None, elem: ScalarType) -> list[Value]:
        """This thread's vectors of the K tile starting at k0 (None: the first tile)."""
        values = []
        for state in self.states:
            index, valid = self.gen.address(b, state, k0)
            values.append(load_guarded(b, self.gen.rsrc, index, valid, elem, self.plan.split.vec,
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


ColumnKey = tuple[int, int]  # (rn, column slot offset): one of this lane's C columns


@dataclass(frozen=True)
class AccElement:
    """One accumulator element of this lane, as the epilogue visits it: its C row and column, its f32
    value and its column's key (the key of TileAccumulators.column_values)."""

    row: Value
    col: Value
    value: Value
    col_key: ColumnKey

    def inside(self, b: Builder, rows: Value, cols: Value) -> Value:
        """row < rows and col < cols (signed compares): the element lies inside a rows x cols C."""
        return b.and_(b.cmpi("slt", self.row, rows), b.cmpi("slt", self.col, cols))


@dataclass(frozen=True)
class TileAccumulators:
    """What the epilogue gets: the f32 accumulators (rep_m * rep_n atoms, index rm * rep_n + rn, each a
    vector of op.c.length slots), this lane, and the wave's first C row and column."""

    plan: TileGemmPlan
    accs: list[Value]
    lane: Value
    row_origin: Value
    col_origin: Value

    def coords(self, b: Builder) -> tuple[list[Value], list[Value]]:
        """(rows per rm, cols per rn) of this lane's slot 0; slot s adds plan.c_row/c_col.slot_offsets[s]."""
        op = self.plan.op
        row_lane = emit_lane_part(b, self.plan.c_row.lane_part, self.lane)
        col_lane = emit_lane_part(b, self.plan.c_col.lane_part, self.lane)
        rows = [b.add(add_i32(b, self.row_origin, rm * op.m), row_lane, name="row") for rm in range(self.plan.rep_m)]
        cols = [b.add(add_i32(b, self.col_origin, rn * op.n), col_lane, name="col") for rn in range(self.plan.rep_n)]
        return rows, cols

    def column_values(self, b: Builder, cols: list[Value], load: Callable[[Value], Value]) -> dict[ColumnKey, Value]:
        """load(col) once per column of this lane (cols from coords()), by key, in rn then slot order: a
        per-column value such as a bias, loaded before the elements are visited."""
        values: dict[ColumnKey, Value] = {}
        for rn in range(self.plan.rep_n):
            for offset in self.plan.c_col.slot_offsets:
                if (rn, offset) not in values:
                    values[(rn, offset)] = load(add_i32(b, cols[rn], offset))
        return values

    def each_element(self, b: Builder, rows: list[Value], cols: list[Value], visit: Callable[[AccElement], None],
                     atom: Callable[[Value], Value] | None = None) -> None:
        """visit(element) for every accumulator element of this lane (rows, cols from coords()), in rm,
        rn, slot order; atom (None: none) first maps each atom's accumulator vector (a vector scale)."""
        plan = self.plan
        for rm in range(plan.rep_m):
            for rn in range(plan.rep_n):
                value_v = self.accs[rm * plan.rep_n + rn]
                if atom is not None:
                    value_v = atom(value_v)
                for s in range(plan.op.c.length):
                    row = add_i32(b, rows[rm], plan.c_row.slot_offsets[s])
                    col_offset = plan.c_col.slot_offsets[s]
                    col = add_i32(b, cols[rn], col_offset)
                    visit(AccElement(row, col, b.extract(value_v, s), (rn, col_offset)))


class TileGemm:
    """The main loop, emitted in three calls (so the caller's own values fall in between):
    TileGemm(b, plan, elem) allocates the LDS tiles and reads the thread, lane and wave ids;
    place(b, row0, col0) (or place_grid(b, bm, bn)) sets the workgroup's C origin and the wave's;
    run(b, a, b_, k_size, epilogue) sets up the copies, emits the K loop over ceil(k_size / bk) tiles
    and calls epilogue with the accumulators."""

    def __init__(self, b: Builder, plan: TileGemmPlan, elem: ScalarType):
        self.plan = plan
        self.elem = elem
        self.esize = elem.bits // 8
        self.a_lds = alloc_tile(b, plan.a.tile, elem, name="a_lds")
        self.b_lds = alloc_tile(b, plan.b.tile, elem, name="b_lds")
        self.tid = b.thread_id_x(name="tid")
        self.lane = b.lane_id(name="lane")
        self.wave = b.wave_id(name="wave")
        self.row0: Value | None = None
        self.col0: Value | None = None
        self.wave_row: Value | None = None
        self.wave_col: Value | None = None

    def place(self, b: Builder, row0: Value, col0: Value) -> None:
        """The workgroup's first C row and column; emits the wave's offsets inside the tile."""
        plan = self.plan
        self.row0 = row0
        self.col0 = col0
        self.wave_row = mul_i32(b, divu_i32(b, self.wave, plan.wn), plan.wave_tile_m, name="wave_row")
        self.wave_col = mul_i32(b, remu_i32(b, self.wave, plan.wn), plan.wave_tile_n, name="wave_col")

    def place_grid(self, b: Builder, bm: int, bn: int) -> tuple[Value, Value]:
        """place() at workgroup (x, y)'s tile of the bm x bn grid over C (rows y * bm .., columns
        x * bn ..); returns (row0, col0)."""
        row0 = mul_i32(b, b.block_id_y(), bm, name="row0")
        col0 = mul_i32(b, b.block_id_x(), bn, name="col0")
        self.place(b, row0, col0)
        return row0, col0

    def _fragment_bases(self, b: Builder, plan: OperandPlan, wave_origin: Value, reps: int, atom: int
                        ) -> list[Value]:
        """Per repeat r: the LDS element index of slot 0 of this lane's fragment in stage 0."""
        return [fragment_base(b, plan.frag, self.lane, add_i32(b, wave_origin, r * atom), name=f"{plan.name}_frag")
                for r in range(reps)]

    def _mma_tile(self, b: Builder, a_bases: list[Value], b_bases: list[Value], accs: list[Value]) -> list[Value]:
        """Every MMA of one K tile: per atom-k step, load the fragments, then rep_m * rep_n MMAs."""
        plan = self.plan
        op = plan.op
        accs = list(accs)
        for kk in range(0, plan.bk, op.k):
            afrags = [load_fragment(b, self.a_lds, base, plan.a.frag, kk, self.elem, [plan.a.tile.stage_elems],
                                    name="a_frag") for base in a_bases]
            bfrags = [load_fragment(b, self.b_lds, base, plan.b.frag, kk, self.elem, [plan.b.tile.stage_elems],
                                    name="b_frag") for base in b_bases]
            for rm in range(plan.rep_m):
                for rn in range(plan.rep_n):
                    i = rm * plan.rep_n + rn
                    accs[i] = b.mma(op.id, afrags[rm], bfrags[rn], accs[i], name="acc")
        return accs

    def run(self, b: Builder, a: OperandAddress, b_: OperandAddress, k_size: Value,
            epilogue: Callable[[TileAccumulators], None]) -> None:
        """The copies' setup, the K loop over ceil(k_size / bk) tiles, then epilogue(accumulators)."""
        plan = self.plan
        op = plan.op
        assert self.row0 is not None and self.col0 is not None, "place() comes before run()"
        assert self.wave_row is not None and self.wave_col is not None
        elem, esize = self.elem, self.esize
        a_lds, b_lds = self.a_lds, self.b_lds
        a_copy = _Copy(b, plan.a, a, self.tid)
        b_copy = _Copy(b, plan.b, b_, self.tid)
        a_bases = self._fragment_bases(b, plan.a, self.wave_row, plan.rep_m, op.m)
        b_bases = self._fragment_bases(b, plan.b, self.wave_col, plan.rep_n, op.n)
        tiles = ceil_div_i32(b, k_size, plan.bk, name="k_tiles")
        zero = f32_const(b, 0.0, op.c.length, name="acc")
        accs0 = [zero] * (plan.rep_m * plan.rep_n)

        def copy_tile(k0: Value | None) -> None:
            """Copy the K tile at k0 (None: the first) into LDS stage 0."""
            a_values = a_copy.load(b, k0, elem)
            b_values = b_copy.load(b, k0, elem)
            a_copy.store(b, a_lds, None, a_values, esize)
            b_copy.store(b, b_lds, None, b_values, esize)

        if plan.stages == 2:
            copy_tile(None)
            b.barrier()

            def body(kt: Value, *accs: Value) -> list[Value]:
                stage = b.and_(kt, const_i32(b, 1), name="stage")
                next_k0 = mul_i32(b, add_i32(b, kt, 1), plan.bk, name="next_k0")
                a_values = a_copy.load(b, next_k0, elem)
                b_values = b_copy.load(b, next_k0, elem)
                a_staged = _staged(b, a_bases, mul_i32(b, stage, plan.a.tile.stage_elems))
                b_staged = _staged(b, b_bases, mul_i32(b, stage, plan.b.tile.stage_elems))
                accs_out = self._mma_tile(b, a_staged, b_staged, list(accs))
                other = b.xor_(stage, const_i32(b, 1), name="next_stage")
                a_copy.store(b, a_lds, mul_i32(b, other, plan.a.tile.stage_elems), a_values, esize)
                b_copy.store(b, b_lds, mul_i32(b, other, plan.b.tile.stage_elems), b_values, esize)
                b.barrier()
                return accs_out
        else:

            def body(kt: Value, *accs: Value) -> list[Value]:
                copy_tile(mul_i32(b, kt, plan.bk, name="k0"))
                b.barrier()
                accs_out = self._mma_tile(b, a_bases, b_bases, list(accs))
                b.barrier()
                return accs_out

        accs = b.for_(const_i32(b, 0), tiles, const_i32(b, 1), accs0, body, names=["acc"] * len(accs0), iv_name="kt")
        row_origin = b.add(self.row0, self.wave_row)
        col_origin = b.add(self.col0, self.wave_col)
        epilogue(TileAccumulators(plan, list(accs), self.lane, row_origin, col_origin))


def _staged(b: Builder, bases: list[Value], stage_base: Value | None) -> list[Value]:
    return bases if stage_base is None else [b.add(base, stage_base) for base in bases]
