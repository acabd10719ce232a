"""Attention masks as index bounds: key j is visible from query row i iff j <= limit(i).

    none       limit = s_k - 1
    causal_tl  limit = min(s_k - 1, i)                (top-left aligned: j <= i)
    causal_br  limit = min(s_k - 1, i + s_k - s_q)    (bottom-right aligned; with s_q > s_k the
                                                       first s_q - s_k rows see no key)

A query block visits only the key blocks holding a key visible from one of its rows: the loop
bound is computed on the device from the block's last row, so fully masked blocks are skipped;
the partially masked ones are masked element-wise with the same limit.
"""

from __future__ import annotations

from rocke.helpers import add_i32, ceil_div_i32, const_i32
from rocke.ir import Builder, Value

MASK_KINDS = ("none", "causal_tl", "causal_br")


def visible_limit(b: Builder, mask: str, row: Value, seqlen_q: Value, seqlen_k: Value, *,
                  name: str | None = None) -> Value:
    """The largest key index visible from query row `row` (below 0 when none is)."""
    last_key = add_i32(b, seqlen_k, -1)
    if mask == "none":
        return last_key
    diagonal = row if mask == "causal_tl" else b.add(row, b.sub(seqlen_k, seqlen_q))
    return b.mins(last_key, diagonal, name=name)


def key_blocks(b: Builder, mask: str, q0: Value, block_m: int, block_n: int, seqlen_q: Value, seqlen_k: Value
               ) -> Value:
    """Key blocks the query block at row q0 visits: ceil(kv_end / block_n) with kv_end one past the
    last key visible from the block's last row (clamped to 0 .. s_k); 0 when q0 >= s_q."""
    if mask == "none":
        kv_end = seqlen_k
    else:
        last_row = add_i32(b, b.mins(add_i32(b, q0, block_m), seqlen_q), -1)
        kv_end = b.maxs(add_i32(b, visible_limit(b, mask, last_row, seqlen_q, seqlen_k), 1), const_i32(b, 0))
    live = b.cmpi("slt", q0, seqlen_q)
    kv_end = b.select(live, kv_end, const_i32(b, 0), name="kv_end")
    return ceil_div_i32(b, kv_end, block_n, name="key_blocks")
