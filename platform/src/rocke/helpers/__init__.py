"""rocke.helpers: authoring helpers shared by kernel builders (platform and library families).

Every helper emits IR through a rocke.ir Builder and makes its decisions at build time in plain
code, so a C++ twin mirrors it function for function:

    dtypes    storage dtype names -> IR types, byte sizes, vector types
    index     i32 index math with host-time folding; host integer facts (ceil_div, alignment)
    buffers   bounds-checked raw-buffer loads/stores (OOB lanes read 0, stores dropped)
    fmath     f32 constants, widening/narrowing, activations (silu, gelu_tanh, relu)
    tiles     splitting a tile over a workgroup's threads for vectorized copies
    lds       padded, multi-stage LDS tiles
    layout    MMA layout formulas split into an IR lane part and constant slot offsets
    mma_frag  MMA fragment plans, vector LDS fragment loads and stores
    chain     chained MMAs: C fragments re-laid as the next MMA's A or B operand in registers
    reduce    wave (shuffle-xor) and workgroup (LDS) reductions
    tile_gemm the tile-GEMM main loop (LDS staging, K loop, MMA grid) over operand address generators
"""

from .buffers import (
    OOB_OFFSET,
    buffer_rsrc,
    load_guarded,
    masked_bytes,
    masked_offset,
    store_guarded,
    valid_if,
)
from .chain import CHAIN_OPERANDS, ChainPlan, chain_fragment, plan_chain
from .dtypes import FLOAT_DTYPES, elem_bytes, ir_type, vector_type
from .fmath import f32_const, from_f32, gelu_tanh, relu, silu, to_f32
from .index import (
    add_i32,
    ceil_div,
    ceil_div_i32,
    const_i32,
    divu_i32,
    gcd_all,
    global_id_x,
    guaranteed_align,
    mul_i32,
    pow2_factor,
    remu_i32,
)
from .layout import SplitFormula, emit_lane_part, split_formula, with_slot
from .lds import LDS_ALIGN, PaddedTile, alloc_tile
from .mma_frag import (
    FragmentPlan,
    FragmentRun,
    fragment_base,
    load_fragment,
    plan_fragment,
    run_align,
    store_fragment,
)
from .reduce import REDUCE_KINDS, block_reduce, combine, wave_reduce
from .tile_gemm import (
    MAX_LDS_ALLOC_ELEMS,
    AccElement,
    ColumnKey,
    MatrixOperand,
    OperandAddress,
    OperandPlan,
    TileAccumulators,
    TileGemm,
    TileGemmPlan,
    TileShape,
    plan_tile_gemm,
)
from .tiles import VEC_CHOICES, TileSplit, split_tile, tile_access

__all__ = [
    "CHAIN_OPERANDS",
    "FLOAT_DTYPES",
    "LDS_ALIGN",
    "MAX_LDS_ALLOC_ELEMS",
    "OOB_OFFSET",
    "REDUCE_KINDS",
    "VEC_CHOICES",
    "AccElement",
    "ChainPlan",
    "ColumnKey",
    "FragmentPlan",
    "FragmentRun",
    "MatrixOperand",
    "OperandAddress",
    "OperandPlan",
    "PaddedTile",
    "SplitFormula",
    "TileAccumulators",
    "TileGemm",
    "TileGemmPlan",
    "TileShape",
    "TileSplit",
    "add_i32",
    "alloc_tile",
    "block_reduce",
    "buffer_rsrc",
    "ceil_div",
    "ceil_div_i32",
    "chain_fragment",
    "combine",
    "const_i32",
    "divu_i32",
    "elem_bytes",
    "emit_lane_part",
    "f32_const",
    "fragment_base",
    "from_f32",
    "gcd_all",
    "gelu_tanh",
    "global_id_x",
    "guaranteed_align",
    "ir_type",
    "load_fragment",
    "load_guarded",
    "masked_bytes",
    "masked_offset",
    "mul_i32",
    "plan_chain",
    "plan_fragment",
    "plan_tile_gemm",
    "pow2_factor",
    "relu",
    "remu_i32",
    "run_align",
    "silu",
    "split_formula",
    "split_tile",
    "store_fragment",
    "store_guarded",
    "tile_access",
    "to_f32",
    "valid_if",
    "vector_type",
    "wave_reduce",
    "with_slot",
]
