"""Kernel machinery shared by the attention families (not by other products).

    work     which (query block, head, batch) a workgroup owns; sequence views in memory
    mask     visible keys per query row and the key-block loop bound (none, causal_tl, causal_br)
    softmax  online softmax over MMA C fragments in the exp2 domain, f32 statistics
    strided  element index and extent of strided (token, head) rows (the backward's elementwise kernels)
"""

from .mask import MASK_KINDS, key_blocks, visible_limit
from .softmax import LN2, LOG2E, column_group, finalize, group_reduce, online_update, row_group
from .strided import strided_extent, strided_index
from .work import SEQ_MODES, Work, decode_work, seq_view

__all__ = [
    "LN2",
    "LOG2E",
    "MASK_KINDS",
    "SEQ_MODES",
    "Work",
    "column_group",
    "decode_work",
    "finalize",
    "group_reduce",
    "key_blocks",
    "online_update",
    "row_group",
    "seq_view",
    "strided_extent",
    "strided_index",
    "visible_limit",
]
