"""Dispatch hook of conv_direct_fwd: its candidates for a conv_fwd problem, in order.

Rejected before a spec exists: a dtype that is not a float storage type (DTYPE_UNSUPPORTED), a
layout other than nhwc (LAYOUT_UNSUPPORTED), an empty reduction c = 0 with a non-empty output
(EMPTY). Otherwise the problem is depthwise when g = c = k > 1 and grouped else, and the
candidates are the kind's tiles, large first (TILES: thread_k, thread_p, tile_k, tile_p). The
vector width is the widest access that divides the contiguous channel run (c/g grouped, c
depthwise, where it must also divide thread_k) and the buffers' alignment (candidate.vector_width).
The window, bias and relu are the problem's. C++ twin: rocke_library/kernels/conv/conv_direct_fwd/candidates.hpp.
"""

from __future__ import annotations

from typing import Any

from rocke.arch import ArchTarget
from rocke.helpers import FLOAT_DTYPES, elem_bytes

from ...candidate import Candidate, spec_kv, vector_width
from .spec import ConvDirectFwdSpec

FAMILY = ConvDirectFwdSpec.FAMILY
# (thread_k, thread_p, tile_k, tile_p), large first: 256 threads grouped, 64 depthwise.
TILES = {"grouped": ((4, 4, 64, 64), (2, 2, 32, 32)), "depthwise": ((8, 2, 64, 16), (4, 2, 32, 16))}
WINDOW = ("dil_h", "dil_w", "filter_x", "filter_y", "pad_h", "pad_w", "stride_h", "stride_w")


def candidates(problem: Any, target: ArchTarget) -> list[Candidate]:
    reasons, details = [], []
    if problem.dtype not in FLOAT_DTYPES:
        reasons.append("DTYPE_UNSUPPORTED")
        details.append(f"dtype={problem.dtype}; {FAMILY} has {', '.join(FLOAT_DTYPES)}")
    if problem.layout != "nhwc":
        reasons.append("LAYOUT_UNSUPPORTED")
        details.append(f"layout={problem.layout}; {FAMILY} has nhwc")
    if problem.c == 0:
        reasons.append("EMPTY")
        details.append("c=0")
    if reasons:
        return [Candidate(FAMILY, reasons=tuple(reasons), detail="; ".join(details))]
    depthwise = problem.g > 1 and problem.g == problem.c == problem.k
    run = problem.c if depthwise else problem.c // problem.g
    vec = vector_width(elem_bytes(problem.dtype), run, problem.align)
    if depthwise:
        sizes = {"n": problem.n, "h": problem.h, "w": problem.w, "c": problem.c}
    else:
        sizes = {"n": problem.n, "h": problem.h, "w": problem.w, "c": problem.c, "k": problem.k, "g": problem.g}
    out = []
    for thread_k, thread_p, tile_k, tile_p in TILES["depthwise" if depthwise else "grouped"]:
        fields: dict[str, object] = {name: getattr(problem, name) for name in WINDOW}
        fields.update(bias=problem.bias, depthwise=depthwise, dtype=problem.dtype, relu=problem.relu,
                      thread_k=thread_k, thread_p=thread_p, tile_k=tile_k, tile_p=tile_p,
                      vec=min(vec, thread_k) if depthwise else vec)
        out.append(Candidate(FAMILY, spec_kv(fields), tuple(sorted(sizes.items()))))
    return out
