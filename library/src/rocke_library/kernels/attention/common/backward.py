"""Backward machinery shared by the attention backward kernels (attention_bwd_main, attention_bwd_dq).

Both recompute, per (query row i, key j) of a tile, from S = Q K^T and the forward's statistics
in log2 units (LSE2 = LSE * log2(e), D = rowsum(dO * O); prep writes LSE2 = +inf and D = 0 for a
row that saw no key, so its P is exactly 0):

    P  = exp2(S * scale * log2(e) - LSE2_i)   where key j is visible from row i, else 0
    dS = P * (dP - D_i)                       with dP = dO V^T

query_blocks() is the device loop bound of a key block: the query blocks holding a row that sees
one of its keys (causal: the blocks before the first such row are skipped; none when the key
block starts past the sequence). row_stats() addresses LSE2 and D, laid out like the forward's
LSE: batched [B, H_q, S_q], varlen [H_q, total_q]. TileCopy stages two same-shaped row blocks
(K and V, or Q and dO) into row-major LDS tiles; load_rows_b reads B operand fragments of rows
straight from global memory.
"""

from __future__ import annotations

from rocke.arch import MmaOp
from rocke.helpers import (
    SplitFormula,
    TileSplit,
    add_i32,
    buffer_rsrc,
    const_i32,
    divu_i32,
    emit_lane_part,
    f32_const,
    guaranteed_align,
    masked_offset,
    mul_i32,
    tile_access,
    vector_type,
)
from rocke.ir import Builder, ScalarType, Value

from .mask import visible_limit
from .work import Work

MAX_ACCESS_ELEMS = 8  # 16 bytes of f16 / bf16: the widest buffer access


def first_visible_row(b: Builder, mask: str, key: Value, seqlen_q: Value, seqlen_k: Value) -> Value:
    """The first query row that sees key `key` (0 without a mask): causal_tl i >= j, causal_br
    i >= j - (s_k - s_q), clamped at 0."""
    if mask == "none":
        return const_i32(b, 0)
    row = key if mask == "causal_tl" else b.sub(key, b.sub(seqlen_k, seqlen_q))
    return b.maxs(row, const_i32(b, 0), name="first_row")


def query_blocks(b: Builder, mask: str, k0: Value, block_m: int, seqlen_q: Value, seqlen_k: Value
                 ) -> tuple[Value, Value]:
    """(first, end) query blocks of block_m rows the key block at k0 visits: from the block of the
    first row that sees key k0 to the last block of the sequence; first == end (no iteration) when
    k0 >= s_k or that row is past the sequence."""
    end = divu_i32(b, add_i32(b, seqlen_q, block_m - 1), block_m, name="q_blocks")
    first = divu_i32(b, first_visible_row(b, mask, k0, seqlen_q, seqlen_k), block_m)
    live = b.cmpi("slt", k0, seqlen_k)
    first = b.select(live, b.minu(first, end), end, name="q_first")
    return first, end


def row_limit(b: Builder, mask: str, row: Value, seqlen_q: Value, seqlen_k: Value) -> Value:
    """The largest key index visible from query row `row`, -1 for a row past the sequence: key j
    is visible from the row iff j <= row_limit."""
    inside = b.cmpi("slt", row, seqlen_q)
    return b.select(inside, visible_limit(b, mask, row, seqlen_q, seqlen_k), const_i32(b, -1), name="row_limit")


def recompute_p(b: Builder, s: Value, scale2: Value, lse2: Value, seen: Value) -> Value:
    """P = exp2(s * scale2 - lse2) where seen, else 0 (f32 scalars; scale2 = scale * log2(e))."""
    p = b.exp2(b.sub(b.mul(s, scale2), lse2))
    return b.select(seen, p, f32_const(b, 0.0, 1), name="p")


def dscore(b: Builder, p: Value, dp: Value, delta: Value) -> Value:
    """dS = P * (dP - D) (f32 scalars)."""
    return b.mul(p, b.sub(dp, delta), name="ds")


def row_stats(b: Builder, seq_mode: str, params: dict[str, Value], work: Work) -> tuple[Value, Value, Value]:
    """(index of the sequence's row 0, LSE2 resource, D resource): row i of query head `head` of the
    workgroup's sequence sits at index + i of both f32 arrays (batched [B, H_q, S_q], varlen
    [H_q, total_q]); the resources span the whole arrays."""
    if seq_mode == "batched":
        rows = b.mul(b.add(b.mul(work.batch, params["heads_q"]), work.head), work.seqlen_q, name="stat_row0")
        count = b.mul(b.mul(params["batch"], params["heads_q"]), work.seqlen_q)
    else:
        assert work.q_start is not None
        rows = b.add(b.mul(work.head, params["total_q"]), work.q_start, name="stat_row0")
        count = b.mul(params["heads_q"], params["total_q"])
    return (rows, buffer_rsrc(b, params["lse2"], count, 4, name="lse2_rsrc"),
            buffer_rsrc(b, params["delta"], count, 4, name="delta_rsrc"))


class TileCopy:
    """One thread's share of copying two same-shaped row blocks (K and V, or Q and dO) into their
    LDS tiles ([lines][head_dim + pad], row-major), set up once before the loops."""

    def __init__(self, b: Builder, split: TileSplit, stride: int, tid: Value, strides: tuple[Value, Value]):
        self.split = split
        self.stride = stride
        self.lines: list[Value] = []
        self.firsts: list[Value] = []
        self.bases: list[tuple[Value, Value]] = []  # element index of the access at row 0, per tensor
        for i in range(split.per_thread):
            line, first = tile_access(b, split, tid, i)
            self.lines.append(line)
            self.firsts.append(first)
            self.bases.append((b.add(b.mul(line, strides[0]), first, name="copy_index"),
                               b.add(b.mul(line, strides[1]), first, name="copy_index")))

    def run(self, b: Builder, rsrcs: tuple[Value, Value], strides: tuple[Value, Value], r0: Value, seqlen: Value,
            lds: tuple[Value, Value], elem: ScalarType) -> None:
        """Copy rows r0 .. r0 + lines - 1 of both tensors into their tiles (rows past seqlen read 0)."""
        vec = self.split.vec
        esize = elem.bits // 8
        vtype = vector_type(elem, vec)
        shifts = (b.mul(r0, strides[0]), b.mul(r0, strides[1]))
        values = []
        for i in range(len(self.lines)):
            ok = b.cmpi("slt", b.add(r0, self.lines[i]), seqlen)
            pair = []
            for t in range(2):
                offset = masked_offset(b, ok, b.add(self.bases[i][t], shifts[t]), esize)
                pair.append(b.buffer_load(rsrcs[t], offset, vtype, name="tile_vals"))
            values.append(pair)
        align = 0 if vec == 1 else guaranteed_align(esize, vec * esize, [self.stride, vec])
        for i in range(len(self.lines)):
            index = b.add(mul_i32(b, self.lines[i], self.stride), self.firsts[i])
            for t in range(2):
                b.lds_store(lds[t], index, values[i][t], align=align)


def load_rows_b(b: Builder, op: MmaOp, d_part: SplitFormula, row_part: SplitFormula, reps: int, steps: int,
                rsrc: Value, stride_s: Value, lane: Value, row0: Value, seqlen: Value, elem: ScalarType,
                most: int) -> list[list[Value]]:
    """frags[step][rep]: the B operand fragments (k = head_dim, n = rows) of rows row0 + rep * n ..
    of a [S, head_dim] sequence view, read straight from global memory with bounds-checked buffer
    loads (rows past seqlen read 0), at most `most` elements per access. d_part / row_part: the
    split B row (head_dim) and column (row) formulas."""
    esize = elem.bits // 8
    d_lane = emit_lane_part(b, d_part.lane_part, lane)
    r_lane = emit_lane_part(b, row_part.lane_part, lane)
    pieces = slot_runs(d_part.slot_offsets, most)
    oks, lines = [], []
    for rep in range(reps):
        row = b.add(add_i32(b, row0, rep * op.n), r_lane, name="b_row")
        oks.append(b.cmpi("slt", row, seqlen))
        lines.append(b.add(b.mul(row, stride_s), d_lane))
    frags: list[list[Value]] = []
    for step in range(steps):
        row_frags = []
        for rep in range(reps):
            frag = b.splat(b.const(0.0, elem), op.b.length)
            for first, count in pieces:
                index = add_i32(b, lines[rep], step * op.k + d_part.slot_offsets[first])
                part = b.buffer_load(rsrc, masked_offset(b, oks[rep], index, esize), vector_type(elem, count))
                for j in range(count):
                    frag = b.insert(frag, part if count == 1 else b.extract(part, j), first + j)
            row_frags.append(frag)
        frags.append(row_frags)
    return frags


def slot_runs(offsets: tuple[int, ...], most: int) -> list[tuple[int, int]]:
    """(first slot, count) of the runs of consecutive slots whose offsets step by +1, at most `most` long."""
    out: list[tuple[int, int]] = []
    for s, offset in enumerate(offsets):
        if out:
            first, count = out[-1]
            if count < most and offset == offsets[first] + count:
                out[-1] = (first, count + 1)
                continue
        out.append((s, 1))
    return out
