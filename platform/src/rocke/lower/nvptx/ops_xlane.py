"""nvptx lowering of xlane.* ops: every lane permutation is a shfl.sync from the lane the op names
(the whole warp takes part: membermask -1), readfirstlane a shfl from the lowest active lane."""

from __future__ import annotations

from rocke.ir.core import Op

from ..emitter import FunctionEmitter, int_attr
from ..ops_xlane import as_i32, call_i32
from .ops_gpu import read_sreg

FULL_WARP = "-1"  # shfl.sync membermask: every lane of the warp
CLAMP = "31"  # shfl.sync c operand: lanes are read within the whole 32-lane warp
QUAD_MODE = 0x8000  # ds_swizzle pattern bit 15: quad permute mode
ROTATE_OR_FFT = 0xC000  # ds_swizzle patterns from here select the rotate / FFT modes


def shfl_idx(em: FunctionEmitter, op: Op, source: str, mask: str = FULL_WARP) -> None:
    call_i32(em, op, "llvm.nvvm.shfl.sync.idx.i32", [mask, as_i32(em, op.operands[-1]), source, CLAMP])


def lower_ds_swizzle(em: FunctionEmitter, op: Op) -> None:
    """The source lane of the ds_swizzle pattern (bitmask or quad mode), computed from %laneid."""
    pattern = int_attr(op, "pattern")
    if pattern >= ROTATE_OR_FFT:
        raise em.error(f"pattern 0x{pattern:04X} selects the rotate or FFT swizzle mode, which {em.arch.name} "
                       "does not lower")
    lane = read_sreg(em, "laneid", None)
    if pattern & QUAD_MODE:
        quad, shift, picked, selector, base, source = (em.temp() for _ in range(6))
        em.emit(f"{quad} = and i32 {lane}, 3")
        em.emit(f"{shift} = shl i32 {quad}, 1")
        em.emit(f"{picked} = lshr i32 {pattern & 0xFF}, {shift}")
        em.emit(f"{selector} = and i32 {picked}, 3")
        em.emit(f"{base} = and i32 {lane}, -4")
        em.emit(f"{source} = or i32 {base}, {selector}")
    else:
        kept, ored, source = em.temp(), em.temp(), em.temp()
        em.emit(f"{kept} = and i32 {lane}, {pattern & 0x1F}")
        em.emit(f"{ored} = or i32 {kept}, {(pattern >> 5) & 0x1F}")
        em.emit(f"{source} = xor i32 {ored}, {(pattern >> 10) & 0x1F}")
    shfl_idx(em, op, source)


def lower_ds_bpermute(em: FunctionEmitter, op: Op) -> None:
    """Lane (addr >> 2) mod 32, as ds_bpermute_b32 reads it in wave32."""
    addr = op.operands[0]
    shifted, source = em.temp(), em.temp()
    em.emit(f"{shifted} = lshr i32 {em.ref(addr)}, 2")
    em.emit(f"{source} = and i32 {shifted}, {em.arch.wave_size - 1}")
    shfl_idx(em, op, source)


def lower_shuffle_xor(em: FunctionEmitter, op: Op) -> None:
    mask = int_attr(op, "mask")
    if mask >= em.arch.wave_size:
        raise em.error(f"mask {mask} is not below the wave size {em.arch.wave_size} of {em.arch.name}")
    call_i32(em, op, "llvm.nvvm.shfl.sync.bfly.i32", [FULL_WARP, as_i32(em, op.operands[0]), str(mask), CLAMP])


def lower_readfirstlane(em: FunctionEmitter, op: Op) -> None:
    """shfl.sync.idx from the lowest set bit of the active mask, among the active lanes."""
    active, first = em.temp(), em.temp()
    em.call_named("llvm.nvvm.activemask", [], active)
    em.call_named("llvm.cttz.i32", [active, "true"], first)
    shfl_idx(em, op, first, active)


LOWERINGS = {
    "xlane.ds_swizzle": lower_ds_swizzle,
    "xlane.ds_bpermute": lower_ds_bpermute,
    "xlane.readfirstlane": lower_readfirstlane,
    "xlane.shuffle_xor": lower_shuffle_xor,
}
