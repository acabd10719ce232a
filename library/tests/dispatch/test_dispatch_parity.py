"""Dispatch parity: a generated corpus of problems (valid, edge and invalid, every kind and arch)
through the Python engine (rocke_library.dispatch) and the C++ engine (rocke_library_engine.plan),
compared byte for byte: plan JSON, plan text and status, or the malformed-problem error text.
Launch contracts likewise: every planned launch's contract from the C++ twin of its family's
contract (rocke_library_engine.launch_contract) equals the Python one."""

from __future__ import annotations

import json
import random

import pytest
import rocke_library_engine

from rocke.arch import ARCH_NAMES
from rocke_library.dispatch import KINDS, plan

pytestmark = pytest.mark.parity

CORPUS_SEED = 19
PER_KIND_ARCH = 26  # random problems per (kind, arch) beside the fixed edge and invalid rows


def _kv(fields: dict[str, object]) -> str:
    return " ".join(f"{key}={value}" for key, value in fields.items())


def _conv(rng: random.Random) -> dict[str, object]:
    g = rng.choice([1, 1, 1, 2, 4])
    c = g * rng.choice([1, 2, 3, 4, 8, 16])
    k = g * rng.choice([1, 3, 8, 16, 40])
    if rng.random() < 0.2:  # depthwise
        g = c = k = rng.choice([2, 8, 16, 24])
    fy, fx = rng.choice([1, 3, 5, 7]), rng.choice([1, 3])
    fields: dict[str, object] = {"n": rng.choice([1, 2, 3]), "h": rng.randint(1, 20), "w": rng.randint(1, 20),
                                 "c": c, "k": k, "g": g, "filter_y": fy, "filter_x": fx,
                                 "dtype": rng.choice(["f16", "bf16", "f32", "f16", "f64"])}
    if rng.random() < 0.5:
        fields.update(pad_h=rng.randint(0, fy // 2 + 1), pad_w=rng.randint(0, fx // 2))
    if rng.random() < 0.3:
        fields.update(stride_h=rng.choice([1, 2]), stride_w=rng.choice([1, 2, 3]))
    if rng.random() < 0.2:
        fields.update(dil_h=2)
    if rng.random() < 0.3:
        fields.update(bias=1, relu=rng.choice([0, 1]))
    if rng.random() < 0.3:
        fields.update(align=rng.choice([4, 8, 16, 32]))
    if rng.random() < 0.1:
        fields.update(layout="nchw")
    return fields


def _attention(rng: random.Random) -> dict[str, object]:
    hkv = rng.choice([1, 2, 4])
    fields: dict[str, object] = {"batch": rng.choice([1, 2, 3]), "heads_q": hkv * rng.choice([1, 2]), "heads_kv": hkv,
                                 "head_dim": rng.choice([32, 64, 128, 64, 80]),
                                 "dtype": rng.choice(["f16", "bf16", "f16", "f32"]),
                                 "mask": rng.choice(["none", "causal_tl", "causal_br"])}
    if rng.random() < 0.3:
        sq, sk = rng.randint(1, 100), rng.randint(1, 100)
        fields.update(seq_mode="varlen", seqlen_q=sq, seqlen_k=sk, total_q=sq + rng.randint(0, 50),
                      total_k=sk + rng.randint(0, 50))
    else:
        fields.update(seqlen_q=rng.randint(1, 300), seqlen_k=rng.randint(0, 300))
        if rng.random() < 0.3:  # [B, H, S, D] through the strides
            d = fields["head_dim"]
            for tensor in "qkvo":
                kv = tensor in "kv"
                s = fields["seqlen_k" if kv else "seqlen_q"]
                h = fields["heads_kv" if kv else "heads_q"]
                fields.update({f"{tensor}_stride_s": d, f"{tensor}_stride_h": s * d, f"{tensor}_stride_b": h * s * d})
    if rng.random() < 0.2:
        fields.update(align=rng.choice([2, 4, 8, 16]))
    return fields


EDGE = {
    "conv_fwd": [
        "n=0 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16",  # dead: no image
        "n=1 h=2 w=2 c=16 k=16 filter_y=3 filter_x=3 dtype=f16",  # dead: window does not fit
        "n=1 h=8 w=8 c=0 k=16 filter_y=3 filter_x=3 dtype=f16",  # EMPTY reduction
        "n=1 h=8 w=8 c=16 k=0 filter_y=3 filter_x=3 dtype=f16",  # dead: no output channel
        "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 pad_h=5 dtype=f16",  # SPEC_REFUSED (padding)
        "n=1 h=8 w=8 c=16 k=16 filter_y=17 filter_x=3 dtype=f16",  # SPEC_REFUSED (filter)
        "n=64 h=1024 w=1024 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f32",  # TOO_LARGE
        "n=2147483647 h=2147483647 w=2147483647 c=2147483647 k=2147483647 filter_y=1 filter_x=1 dtype=f64",
        "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f64 layout=nchw",  # two reasons, table order
        "n=1 h=8 w=8 c=6 k=6 g=6 filter_y=3 filter_x=3 dtype=f16 align=4",  # depthwise, vec 2
        "n=1 h=8 w=8 c=24 k=24 g=24 filter_y=3 filter_x=3 dtype=bf16 align=2",  # depthwise, vec 1
    ],
    "attention_fwd": [
        "batch=0 seqlen_q=5 seqlen_k=5 heads_q=2 heads_kv=1 head_dim=64 dtype=f16",  # dead
        "batch=2 seqlen_q=0 seqlen_k=5 heads_q=2 heads_kv=1 head_dim=64 dtype=f16",  # dead
        "batch=2 seqlen_q=7 seqlen_k=0 heads_q=2 heads_kv=1 head_dim=64 dtype=f16",  # planned: rows see no key
        "batch=2 seqlen_q=7 seqlen_k=5 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 k_stride_b=0",  # LAYOUT_UNSUPPORTED
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=1 heads_kv=1 head_dim=96 dtype=f32",  # two reasons
        "batch=64 seqlen_q=8192 seqlen_k=8192 heads_q=64 heads_kv=8 head_dim=128 dtype=bf16",  # TOO_LARGE
        "batch=3 seqlen_q=0 seqlen_k=0 total_q=0 total_k=0 seq_mode=varlen heads_q=8 heads_kv=1 head_dim=128 "
        "dtype=bf16",  # dead varlen
        "batch=3 seqlen_q=40 seqlen_k=9 total_q=77 total_k=9 seq_mode=varlen heads_q=8 heads_kv=1 head_dim=32 "
        "dtype=bf16 mask=causal_br",
    ],
}
# The implicit-GEMM conv hooks (every conv kind): planned shapes (the largest atom, vec from the
# channel runs and align, grouped, tails, split-K > 1 for wgrad), each hook reason, edge sizes.
IGEMM_EDGE = [
    "n=1 h=5 w=5 c=16 k=16 filter_y=1 filter_x=1 dtype=bf16",  # pointwise
    "n=2 h=13 w=11 c=24 k=40 g=2 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16",  # grouped, tails
    "n=1 h=9 w=9 c=12 k=20 filter_y=3 filter_x=3 stride_h=2 stride_w=2 dtype=f16 align=8",  # gcd 4, align 8
    "n=1 h=9 w=9 c=3 k=16 filter_y=7 filter_x=7 pad_h=3 pad_w=3 stride_h=2 stride_w=2 dtype=bf16",  # stem, vec 1
    "n=1 h=10 w=10 c=8 k=8 filter_y=3 filter_x=3 dil_h=2 dil_w=2 pad_h=2 pad_w=2 dtype=f16",  # dilated
    "n=16 h=32 w=32 c=16 k=32 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16",  # long reduction: wgrad split-K
    "n=64 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=bf16",  # wgrad split-K at the cap
    "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f32",  # DTYPE_UNSUPPORTED (fwd: direct serves it)
    "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16 layout=nchw",  # LAYOUT_UNSUPPORTED everywhere
    "n=1 h=8 w=8 c=16 k=16 g=16 filter_y=3 filter_x=3 dtype=bf16",  # depthwise: fwd SHAPE_DEFERRED
    "n=1 h=8 w=8 c=16 k=0 filter_y=3 filter_x=3 dtype=f16",  # dgrad EMPTY (k = 0)
    "n=0 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16",  # wgrad EMPTY (n = 0)
    "n=1 h=2 w=2 c=16 k=16 filter_y=3 filter_x=3 dtype=f16",  # dgrad / wgrad EMPTY (no dy pixel)
    "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f64 layout=nchw",  # two hook reasons, table order
    "n=1 h=8 w=8 c=16384 k=16384 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16",  # TOO_LARGE (weights)
    "n=1 h=8 w=8 c=8192 k=8192 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16",  # wgrad TOO_LARGE (f32 workspace)
    "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 stride_h=9 dtype=f16",  # SPEC_REFUSED (stride)
]
GRAD_INVALID = [
    "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16 bias=1",  # a gradient has no epilogue
    "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16 relu=1",
]
INVALID = {
    "conv_fwd": [
        "", "n=1", "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16 colour=red", "n=1 n=2",
        "n=1 h=8 w=8 c=15 k=16 g=2 filter_y=3 filter_x=3 dtype=f16", "n=1 h=8 w=8 c=16 k=15 g=2 filter_y=3 "
        "filter_x=3 dtype=f16", "n=-1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16",
        "n=1 h=8 w=8 c=16 k=16 filter_y=0 filter_x=3 dtype=f16", "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 "
        "dtype=i8", "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f32 align=2", "n=1 h=8 w=8 c=16 k=16 "
        "filter_y=3 filter_x=3 dtype=f16 align=24", "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16 bias=2",
        "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16 layout=nc/hw", "n=x h=8", "n=1  h=8", "=1",
        "n=2147483648 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16", "n=1 h=8 w=8 c=16 k=16 filter_y=3 "
        "filter_x=3 dtype=f16 g=0", "n=007 h=8", "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16 "
        "layout=nhwc pad_h=-1",
    ],
    "attention_fwd": [
        "", "batch=1 seqlen_q=7 seqlen_k=7 heads_q=3 heads_kv=2 head_dim=64 dtype=f16",
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=0 head_dim=64 dtype=f16",
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 mask=causal",
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 seq_mode=ragged",
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 total_q=8",
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 seq_mode=varlen",
        "batch=1 seqlen_q=9 seqlen_k=7 total_q=8 total_k=7 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 "
        "seq_mode=varlen", "batch=1 seqlen_q=7 seqlen_k=7 total_q=8 total_k=7 heads_q=2 heads_kv=1 head_dim=64 "
        "dtype=f16 seq_mode=varlen q_stride_b=5", "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 "
        "head_dim=64 dtype=f16 q_stride_s=8 q_stride_h=8", "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 "
        "head_dim=64 dtype=f16 k_stride_h=0", "batch=1 seqlen_q=3000000000 seqlen_k=7 heads_q=2 heads_kv=1 "
        "head_dim=64 dtype=f16", "batch=2 seqlen_q=2000000000 seqlen_k=7 heads_q=2 heads_kv=1 head_dim=64 dtype=f16",
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 align=1",
        "batch=1 seqlen_q=7 seqlen_k=7 heads_q=2 heads_kv=1 head_dim=999999999999999999999 dtype=f16",
    ],
}


# Rows only attention_bwd gets (per arch, beside the attention rows every attention kind shares):
# MHA, GQA, MQA, masks, varlen with empty sequences, tails, rows that see no key; each refusal reason
# (the hook's; SPEC_REFUSED of prep at 2-byte alignment; TOO_LARGE of prep's contract; RESOURCE_REFUSED
# of gfx1201's causal split-dQ main at head_dim 128, whose set dispatch passes over); dead.
BWD_EXTRA = [
    "batch=2 seqlen_q=33 seqlen_k=47 heads_q=4 heads_kv=4 head_dim=64 dtype=f16",  # MHA
    "batch=2 seqlen_q=33 seqlen_k=47 heads_q=8 heads_kv=2 head_dim=64 dtype=bf16 mask=causal_tl",  # GQA
    "batch=1 seqlen_q=19 seqlen_k=53 heads_q=6 heads_kv=1 head_dim=128 dtype=f16 mask=causal_br",  # MQA
    "batch=3 seqlen_q=1 seqlen_k=1 heads_q=2 heads_kv=1 head_dim=32 dtype=bf16",  # tails of one row
    "batch=1 seqlen_q=9 seqlen_k=0 heads_q=2 heads_kv=2 head_dim=64 dtype=f16",  # rows see no key
    "batch=3 seqlen_q=21 seqlen_k=17 total_q=27 total_k=22 seq_mode=varlen heads_q=4 heads_kv=2 head_dim=64 "
    "dtype=f16 mask=causal_br",
    "batch=2 seqlen_q=5 seqlen_k=0 total_q=5 total_k=0 seq_mode=varlen heads_q=2 heads_kv=1 head_dim=32 dtype=bf16",
    "batch=2 seqlen_q=41 seqlen_k=30 total_q=50 total_k=31 seq_mode=varlen heads_q=4 heads_kv=2 head_dim=128 "
    "dtype=f16 mask=causal_tl",  # wave32: head_dim in chunks; gfx1201: RESOURCE_REFUSED, then dq_mode=atomic
    "batch=1 seqlen_q=64 seqlen_k=64 heads_q=2 heads_kv=2 head_dim=128 dtype=bf16 align=2",  # prep SPEC_REFUSED
    "batch=1 seqlen_q=64 seqlen_k=64 heads_q=2 heads_kv=2 head_dim=64 dtype=f16 align=4",  # narrower vectors
    "batch=2 seqlen_q=16 seqlen_k=16 heads_q=2 heads_kv=1 head_dim=64 dtype=f16 q_stride_s=64 q_stride_h=1024 "
    "q_stride_b=2048 o_stride_s=64 o_stride_h=1024 o_stride_b=2048",  # [B, H, S, D] q and o (dq and do alike)
    "batch=1 seqlen_q=7 seqlen_k=7 heads_q=1 heads_kv=1 head_dim=64 dtype=f64",  # DTYPE_UNSUPPORTED
    "batch=1 seqlen_q=7 seqlen_k=7 heads_q=1 heads_kv=1 head_dim=256 dtype=f16",  # HEAD_DIM_UNSUPPORTED
    "batch=8 seqlen_q=65536 seqlen_k=128 heads_q=32 heads_kv=8 head_dim=64 dtype=f16",  # TOO_LARGE
    "batch=0 seqlen_q=7 seqlen_k=7 heads_q=4 heads_kv=2 head_dim=64 dtype=f16",  # dead
]
EXTRA = {"attention_bwd": BWD_EXTRA}
# sm_90 (132 SMs, the 16 x 8 mma.sync atom): both sides of the rule that puts the 128 x 64 tile first
# only where its workgroups fill the SMs, at H100 sizes (after the random rows: the seed's rows stay)
SM90_CONV = [
    ("conv_fwd", "n=8 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16 bias=1 relu=1"),  # 196
    ("conv_fwd", "n=8 h=28 w=28 c=128 k=128 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=bf16"),  # 49 x 2
    ("conv_fwd", "n=1 h=66 w=128 c=64 k=128 filter_y=1 filter_x=1 dtype=f16"),  # exactly 132 tiles
    ("conv_fwd", "n=1 h=131 w=128 c=64 k=64 filter_y=1 filter_x=1 dtype=f16"),  # 131 tiles
    ("conv_fwd", "n=32 h=224 w=224 c=3 k=64 filter_y=7 filter_x=7 pad_h=3 pad_w=3 stride_h=2 stride_w=2 dtype=f16 "
                 "align=2"),  # the stem, vec 1
    ("conv_fwd", "n=4 h=56 w=56 c=128 k=128 g=128 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"),  # depthwise
    ("conv_fwd", "n=8 h=56 w=56 c=64 k=64 g=4 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"),  # 4 groups
    ("conv_fwd", "n=2 h=14 w=14 c=256 k=256 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f32"),  # direct
    ("conv_dgrad", "n=8 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"),  # 196 tiles
    ("conv_dgrad", "n=1 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=bf16"),  # 25 tiles
    ("conv_dgrad", "n=8 h=56 w=56 c=32 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"),  # c/g < 64
    ("conv_dgrad", "n=8 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_h=2 stride_w=2 "
                   "dtype=bf16 layout=nchw"),  # LAYOUT_UNSUPPORTED
    ("conv_wgrad", "n=8 h=56 w=56 c=64 k=256 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"),  # split 8: 144
    ("conv_wgrad", "n=8 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"),  # k/g < 128
    ("conv_wgrad", "n=8 h=56 w=56 c=64 k=256 filter_y=1 filter_x=1 dtype=bf16"),  # split 64: 128 tiles
    ("conv_wgrad", "n=1 h=14 w=14 c=256 k=256 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=bf16"),  # split 1
]

# sm_90 rows of both attention kinds (beside the random ones every arch gets): the mma.sync tiles per
# head_dim (fwd block_n 32 / 64, main 4 warps / 2 warps with d_chunk 64, dq 4 warps of two row
# atoms), both dtypes, every mask, MHA / GQA / MQA, batched and varlen.
SM90_ATTENTION = [
    "batch=2 seqlen_q=77 seqlen_k=91 heads_q=4 heads_kv=4 head_dim=64 dtype=f16",
    "batch=2 seqlen_q=77 seqlen_k=91 heads_q=8 heads_kv=2 head_dim=128 dtype=bf16 mask=causal_tl",
    "batch=1 seqlen_q=130 seqlen_k=40 heads_q=6 heads_kv=1 head_dim=32 dtype=f16 mask=causal_br",
    "batch=3 seqlen_q=40 seqlen_k=41 total_q=77 total_k=91 seq_mode=varlen heads_q=8 heads_kv=2 head_dim=128 "
    "dtype=f16 mask=causal_br",
    "batch=3 seqlen_q=40 seqlen_k=41 total_q=77 total_k=91 seq_mode=varlen heads_q=2 heads_kv=2 head_dim=64 "
    "dtype=bf16 mask=none",
]


def corpus() -> list[tuple[str, str, str]]:
    """(kind, problem text, arch) rows: per kind and arch the fixed edge and invalid rows and
    PER_KIND_ARCH random ones (conv kinds share the conv generator, attention kinds theirs)."""
    rng = random.Random(CORPUS_SEED)
    rows = []
    for kind in KINDS:
        family = "conv_fwd" if kind.startswith("conv") else "attention_fwd"
        for arch in ARCH_NAMES:
            texts = [*EDGE[family], *INVALID[family], *EXTRA.get(kind, [])]
            make = _conv if family == "conv_fwd" else _attention
            texts += [_kv(make(rng)) for _ in range(PER_KIND_ARCH)]
            if kind.startswith("conv"):
                texts += IGEMM_EDGE + (GRAD_INVALID if kind != "conv_fwd" else [])
            rows += [(kind, text, arch) for text in texts]
    rows += [(kind, text, "sm_90") for kind in ("attention_fwd", "attention_bwd") for text in SM90_ATTENTION]
    rows += [("conv_fwd", "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16", "gfx900"),
             ("conv_transpose", "n=1", "gfx942")]
    rows += [(kind, text, "sm_90") for kind, text in SM90_CONV]
    return rows


def _python(kind: str, text: str, arch: str) -> tuple[str, ...]:
    try:
        result = plan(kind, text, arch)
    except (ValueError, KeyError) as exc:
        return ("error", type(exc).__name__, str(exc))
    return (result.to_json(), result.to_text(), result.status)


def _cpp(kind: str, text: str, arch: str) -> tuple[str, ...]:
    try:
        return tuple(rocke_library_engine.plan(kind, text, arch))
    except (ValueError, KeyError) as exc:
        return ("error", type(exc).__name__, str(exc))


CORPUS = corpus()


def test_the_corpus_is_large_and_covers_every_outcome():
    outcomes = {_python(*row)[2] if _python(*row)[0] != "error" else "error" for row in CORPUS[::7]}
    assert len(CORPUS) >= 500
    assert outcomes == {"planned", "dead", "refused", "error"}


def test_python_and_cpp_dispatch_agree_byte_for_byte_over_the_corpus():
    mismatches = []
    counts: dict[str, int] = {}
    for row in CORPUS:
        py, cpp = _python(*row), _cpp(*row)
        status = py[2] if py[0] != "error" else "error"
        counts[status] = counts.get(status, 0) + 1
        if py != cpp:
            mismatches.append((row, py, cpp))
    assert not mismatches, f"{len(mismatches)} of {len(CORPUS)} differ; first: {mismatches[0]}"
    assert all(counts.get(s, 0) >= 20 for s in ("planned", "refused", "error", "dead")), counts


def test_every_planned_contract_has_a_byte_identical_cpp_twin():
    seen = 0
    for kind, text, arch in CORPUS:
        py = _python(kind, text, arch)
        if py[0] == "error" or py[2] != "planned":
            continue
        for launch in json.loads(py[0])["launches"]:
            contract = launch["contract"]
            cpp = rocke_library_engine.launch_contract(launch["family"], launch["spec"], contract["problem"])
            assert cpp == json.dumps(contract, sort_keys=True, indent=2) + "\n"
            seen += 1
    assert seen >= 100


def test_attention_bwd_rows_reach_every_outcome():
    """The attention_bwd rows of the corpus: planned (3 and 4 launches), dead, malformed, and refused
    with each reason a backward problem can meet (the counts are in the assertion message)."""
    statuses: dict[str, int] = {}
    codes: dict[str, int] = {}
    launches: set[int] = set()
    for kind, text, arch in CORPUS:
        if kind != "attention_bwd":
            continue
        py = _python(kind, text, arch)
        status = py[2] if py[0] != "error" else "error"
        statuses[status] = statuses.get(status, 0) + 1
        if status == "error":
            continue
        data = json.loads(py[0])
        launches.add(len(data["launches"]))
        for rejection in data["rejected"]:
            for reason in rejection["reasons"]:
                codes[reason["code"]] = codes.get(reason["code"], 0) + 1
    summary = f"statuses {statuses}, reasons {codes}"
    assert sum(statuses.values()) >= 200 and statuses.get("planned", 0) >= 60, summary
    assert all(statuses.get(s, 0) >= 4 for s in ("planned", "dead", "refused", "error")), summary
    wanted = {"DTYPE_UNSUPPORTED", "HEAD_DIM_UNSUPPORTED", "SPEC_REFUSED", "TOO_LARGE"}
    assert wanted <= set(codes), summary
    assert {3, 4} <= launches, summary


def test_the_sm_90_conv_rows_take_both_tiles_of_the_fill_rule():
    """The sm_90 rows plan in both engines (the corpus test) and reach the 128 x 64 and the 64 x 64 tile."""
    tiles = set()
    for kind, text in SM90_CONV:
        py = _python(kind, text, "sm_90")
        if py[0] == "error" or py[2] != "planned":
            continue
        spec = dict(pair.split("=") for pair in json.loads(py[0])["launches"][0]["spec"].split(" "))
        if "bm" in spec:
            tiles.add((spec["bm"], spec["bn"], spec["op_id"][:len("mma_sync_f32_16x8x16")]))
    assert {("128", "64", "mma_sync_f32_16x8x16"), ("64", "64", "mma_sync_f32_16x8x16")} <= tiles, tiles


def test_a_planted_difference_is_caught():
    """Negative control: the comparison above sees a one-byte change."""
    kind, text, arch = next(row for row in CORPUS if _python(*row)[0] != "error" and _python(*row)[2] == "planned")
    py = _python(kind, text, arch)
    planted = (py[0].replace('"grid": [', '"grid": [ ', 1), py[1], py[2])
    assert planted != _cpp(kind, text, arch)


SEQLEN_K_ZERO = "batch=2 seqlen_q=7 seqlen_k=0 heads_q=2 heads_kv=1 head_dim=64 dtype=f16"


@pytest.mark.parametrize("kind", ["attention_fwd", "attention_bwd"])
def test_seqlen_k_zero_is_planned_and_a_zero_stride_has_its_own_reason(kind):
    """A batched attention problem whose sequences have no key is planned in both engines (O = 0,
    LSE = -inf, zero gradients: the simulator tests run it); a zero batch stride where it addresses
    rows is LAYOUT_UNSUPPORTED, never TOO_LARGE."""
    for arch in ARCH_NAMES:
        py = _python(kind, SEQLEN_K_ZERO, arch)
        assert py == _cpp(kind, SEQLEN_K_ZERO, arch) and py[2] == "planned", (arch, py[1])
        aliased = SEQLEN_K_ZERO.replace("seqlen_k=0", "seqlen_k=5") + " k_stride_b=0"
        py = _python(kind, aliased, arch)
        assert py == _cpp(kind, aliased, arch) and py[2] == "refused", (arch, py[1])
        assert "LAYOUT_UNSUPPORTED" in py[1] and "TOO_LARGE" not in py[1] and "k_stride_b=0" in py[1], py[1]


@pytest.mark.parametrize("kind", ["attention_fwd", "attention_bwd"])
def test_sm90_attention_rows_plan_mma_sync_tiles_in_both_engines(kind):
    """The sm_90 attention rows are planned, byte-identically in both engines, with mma.sync specs
    at the tiles of the sm_90 rules (fwd block_n by head_dim; main 4 or 2 warps; dq 4 warps)."""
    for text in SM90_ATTENTION:
        py = _python(kind, text, "sm_90")
        assert py == _cpp(kind, text, "sm_90") and py[2] == "planned", py[1]
        launches = json.loads(py[0])["launches"]
        head_dim = int(text.split("head_dim=")[1].split()[0])
        specs = {launch["family"]: dict(p.split("=") for p in launch["spec"].split()) for launch in launches}
        for family in ("attention_fwd", "attention_bwd_main", "attention_bwd_dq"):
            if family in specs:
                assert specs[family]["op_id"].startswith("mma_sync_f32_16x8x16_"), specs[family]
        if kind == "attention_fwd":
            assert (specs["attention_fwd"]["block_m"], specs["attention_fwd"]["block_n"]) == (
                "64", "32" if head_dim <= 64 else "64")
        else:
            main = specs["attention_bwd_main"]
            assert (main["block_n"], main["waves"], main["d_chunk"]) == (
                ("64", "4", str(head_dim)) if head_dim <= 64 else ("32", "2", "64"))
            assert (specs["attention_bwd_dq"]["block_m"], specs["attention_bwd_dq"]["waves"]) == ("64", "4")
