"""xlane.*: data exchange between the lanes of one wave (wave64 or wave32, from the arch).

As on the hardware (ds_bpermute_b32 and ds_swizzle_b32 apply EXEC to the lane they read), a lane
that reads from an inactive lane - or from a padding lane past the end of a partial last wave -
gets 0. shuffle_xor is defined as the ds_bpermute from lane (lane_id ^ mask).
"""

from __future__ import annotations

import numpy as np

from rocke.ir import Op

from .errors import SimUnsupported, UndefinedBehavior
from .machine import Machine, Mask, handler_table

HANDLERS, handles = handler_table()

ROTATE_OR_FFT = 0xC000


def swizzle_sources(pattern: int, wave_size: int) -> np.ndarray:
    """The lane each lane reads for a ds_swizzle_b32 offset pattern (ISA pseudo-code):

    * bit 15 clear - bitmask mode within each group of 32 lanes:
      src = (((lane & 31) & and_mask) | or_mask) ^ xor_mask, plus lane & 32,
      with and_mask = bits 4:0, or_mask = bits 9:5, xor_mask = bits 14:10;
    * bit 15 set, below 0xC000 - quad mode: lane i of each group of 4 reads lane
      bits (2i+1):(2i) of the pattern within its group;
    * 0xC000 and above - the GFX9+ rotate and FFT modes: not simulated (SimUnsupported).
    """
    lane = np.arange(wave_size, dtype=np.int64)
    if pattern & 0x8000:
        selector = (pattern >> (2 * (lane & 3))) & 3
        return (lane & ~3) | selector
    and_mask, or_mask, xor_mask = pattern & 0x1F, (pattern >> 5) & 0x1F, (pattern >> 10) & 0x1F
    return ((((lane & 0x1F) & and_mask) | or_mask) ^ xor_mask) | (lane & 0x20)


def _gather(m: Machine, x: np.ndarray, src: np.ndarray, mask: Mask) -> np.ndarray:
    """Per wave: out[lane] = x[src[lane]] if that source lane is active else 0; src is (wave_size,)
    for all waves or (waves, wave_size) per wave."""
    xw = m.by_wave(x)
    active = m.by_wave(mask.bits)
    if src.ndim == 1:
        values, valid = xw[:, src], active[:, src]
    else:
        values = np.take_along_axis(xw, src, axis=1)
        valid = np.take_along_axis(active, src, axis=1)
    return np.where(valid, values, np.zeros((), x.dtype)).reshape(x.shape)


@handles("xlane.ds_swizzle")
def _ds_swizzle(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    pattern = int(op.attrs["pattern"])
    if pattern >= ROTATE_OR_FFT:
        m.fail(SimUnsupported, op, f"pattern 0x{pattern:04X} selects the rotate or FFT swizzle mode, which the "
                                   "simulator does not model")
    return (_gather(m, x, swizzle_sources(pattern, m.arch.wave_size), mask),)


@handles("xlane.ds_bpermute")
def _ds_bpermute(m: Machine, op: Op, mask: Mask):
    addr, x = m.args(op)
    ws = m.arch.wave_size
    src = (addr.view(np.uint32).astype(np.int64) >> 2) & (ws - 1)
    return (_gather(m, x, m.by_wave(src), mask),)


@handles("xlane.shuffle_xor")
def _shuffle_xor(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    ws = m.arch.wave_size
    lane_mask = int(op.attrs["mask"])
    if lane_mask >= ws:
        m.fail(UndefinedBehavior, op, f"mask = {lane_mask} is not below the wave size {ws} of {m.arch.name}",
               int(mask.lanes[0]))
    return (_gather(m, x, np.arange(ws, dtype=np.int64) ^ lane_mask, mask),)


@handles("xlane.readfirstlane")
def _readfirstlane(m: Machine, op: Op, mask: Mask):
    (x,) = m.args(op)
    xw = m.by_wave(x)
    first = np.argmax(m.by_wave(mask.bits), axis=1)  # waves without active lanes: never read
    chosen = xw[np.arange(xw.shape[0]), first]
    return (np.repeat(chosen, xw.shape[1]),)
