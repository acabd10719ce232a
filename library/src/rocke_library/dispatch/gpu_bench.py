"""The GPU bench with the library's planned kinds: rocke.runtime.gpu_bench's rows plus convolution
and attention problems planned by dispatch (the plan a user gets), against cuDNN through torch's
conv2d (channels-last, cudnn.benchmark on) and scaled_dot_product_attention with the
FLASH_ATTENTION (FlashAttention-2) and CUDNN_ATTENTION backends, timed the same way.

    python -m rocke_library.dispatch.gpu_bench [--quick] [--out results.json]
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from rocke.runtime import RuntimeDevice
from rocke.runtime.gpu_bench import REPEATS, WARMUP, BenchContext, Row
from rocke.runtime.gpu_bench import main as platform_main

from .dispatch import KINDS, plan
from .execute import execute

# ResNet-50 (batch 32, f16, NHWC): the 3x3 layers of each stage, two 1x1 layers and a stride-2 3x3.
RESNET = (
    ("3x3 c64 56x56", "h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1"),
    ("3x3 c128 28x28", "h=28 w=28 c=128 k=128 filter_y=3 filter_x=3 pad_h=1 pad_w=1"),
    ("3x3 c256 14x14", "h=14 w=14 c=256 k=256 filter_y=3 filter_x=3 pad_h=1 pad_w=1"),
    ("3x3 c512 7x7", "h=7 w=7 c=512 k=512 filter_y=3 filter_x=3 pad_h=1 pad_w=1"),
    ("1x1 c256->64 56x56", "h=56 w=56 c=256 k=64 filter_y=1 filter_x=1"),
    ("1x1 c1024->256 14x14", "h=14 w=14 c=1024 k=256 filter_y=1 filter_x=1"),
    ("3x3 s2 c128 56->28", "h=56 w=56 c=128 k=128 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_h=2 stride_w=2"),
)


def _plan_ms(ctx: BenchContext, result: Any, given: dict[str, np.ndarray]) -> float:
    """Median device time of the plan's launches (a fresh device each repeat: its inputs bound, then
    the L2 flushed, then the launches timed by their events)."""
    times = []
    for repeat in range(WARMUP + REPEATS):
        device = RuntimeDevice(ctx.backend, flavor=ctx.flavor)
        bound = {name: device.buffer(value) for name, value in given.items()}
        ctx.timer.flush_buffer.fill_(1)
        execute(result, bound, device=device)  # binds what the launches take, launches, finishes
        if repeat >= WARMUP:
            times.append(device.milliseconds)
    return statistics.median(times)


def conv_rows(ctx: BenchContext, quick: bool) -> list[Row]:
    torch = ctx.torch
    rows = []
    layers = RESNET[:2] if quick else RESNET
    for label, sizes in layers:
        text = f"n=32 {sizes} dtype=f16"
        result = plan("conv_fwd", text, ctx.arch)
        if result.status != "planned":
            rows.append(Row("conv fwd f16 (refused)", label, 0.0, 0.0, result.to_text().strip(), "TFLOP/s", 0, 0, ""))
            continue
        problem: Any = KINDS["conv_fwd"].from_kv(result.problem)
        ho, wo = problem.output_hw()
        rng = np.random.default_rng(0)
        x = rng.uniform(-1, 1, (problem.n, problem.h, problem.w, problem.c)).astype(np.float16)
        wt = rng.uniform(-1, 1, (problem.k, problem.filter_y, problem.filter_x, problem.c)).astype(np.float16)
        out = np.zeros(problem.n * ho * wo * problem.k, np.float16)
        bias = np.zeros(problem.k, np.float16)
        given = {"input": x.reshape(-1), "weight": wt.reshape(-1), "bias": bias, "output": out}
        ours = _plan_ms(ctx, result, given)
        xt = torch.from_numpy(x).cuda().permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
        wtt = torch.from_numpy(wt).cuda().permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
        stride, pad = (problem.stride_h, problem.stride_w), (problem.pad_h, problem.pad_w)
        peer = ctx.timer.median_ms(
            lambda xt=xt, wtt=wtt, stride=stride, pad=pad: torch.nn.functional.conv2d(xt, wtt, stride=stride,
                                                                                     padding=pad))
        flops = 2.0 * problem.n * ho * wo * problem.k * problem.c * problem.filter_y * problem.filter_x
        spec = " + ".join(f"{launch.family}[{launch.spec}]" for launch in result.launches)
        rows.append(Row("conv fwd f16 (dispatch plan)", f"{label} n32", ours, peer, "cuDNN (conv2d NHWC)", "TFLOP/s",
                        flops / ours / 1e9, flops / peer / 1e9, spec))
    return rows


# Attention forward, bf16, batch x heads filling the GPU: (label, problem sizes).
ATTENTION = (
    ("hd128 s4k", "batch=4 seqlen_q=4096 seqlen_k=4096 heads_q=16 heads_kv=16 head_dim=128"),
    ("hd128 s4k causal", "batch=4 seqlen_q=4096 seqlen_k=4096 heads_q=16 heads_kv=16 head_dim=128 mask=causal_br"),
    ("hd64 s4k", "batch=4 seqlen_q=4096 seqlen_k=4096 heads_q=32 heads_kv=32 head_dim=64"),
    ("hd128 s8k GQA 8:1", "batch=2 seqlen_q=8192 seqlen_k=8192 heads_q=32 heads_kv=4 head_dim=128"),
)


def attention_rows(ctx: BenchContext, quick: bool) -> list[Row]:
    torch = ctx.torch
    from torch.nn.attention import SDPBackend, sdpa_kernel

    rows = []
    for label, sizes in ATTENTION[:2] if quick else ATTENTION:
        text = f"{sizes} dtype=bf16"
        result = plan("attention_fwd", text, ctx.arch)
        if result.status != "planned":
            rows.append(Row("attention fwd (refused)", label, 0.0, 0.0, result.to_text().strip(), "TFLOP/s", 0, 0, ""))
            continue
        problem: Any = KINDS["attention_fwd"].from_kv(result.problem)
        launch = result.launches[0]
        b, s, hq, hk, d = problem.batch, problem.seqlen_q, problem.heads_q, problem.heads_kv, problem.head_dim
        rng = np.random.default_rng(0)
        import ml_dtypes

        q = rng.standard_normal((b, s, hq, d)).astype(ml_dtypes.bfloat16)
        k = rng.standard_normal((b, s, hk, d)).astype(ml_dtypes.bfloat16)
        v = rng.standard_normal((b, s, hk, d)).astype(ml_dtypes.bfloat16)
        o = np.zeros(launch.contract.arg("o").bytes // 2, ml_dtypes.bfloat16)
        lse = np.zeros(launch.contract.arg("lse").bytes // 4, np.float32)
        given = {"q": q.reshape(-1), "k": k.reshape(-1), "v": v.reshape(-1), "o": o, "lse": lse}
        times = []
        for repeat in range(WARMUP + REPEATS):
            device = RuntimeDevice(ctx.backend, flavor=ctx.flavor)
            bound: dict[str, Any] = {name: device.buffer(value) for name, value in given.items()}
            bound["scale"] = 1.0 / d ** 0.5
            ctx.timer.flush_buffer.fill_(1)
            execute(result, bound, device=device)
            if repeat >= WARMUP:
                times.append(device.milliseconds)
        ours = statistics.median(times)
        causal = problem.mask != "none"
        tq = torch.from_numpy(q.view(np.uint16)).cuda().view(torch.bfloat16).transpose(1, 2)
        tk = torch.from_numpy(k.view(np.uint16)).cuda().view(torch.bfloat16).transpose(1, 2)
        tv = torch.from_numpy(v.view(np.uint16)).cuda().view(torch.bfloat16).transpose(1, 2)
        with torch.no_grad():
            want = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal,
                                                                    enable_gqa=hq != hk).transpose(1, 2)
        got = torch.from_numpy(o.view(np.uint16)[: want.numel()].copy()).cuda().view(torch.bfloat16).view(want.shape)
        error = float((got.float() - want.float()).abs().max())
        flops = 4.0 * b * hq * s * s * d / (2 if causal else 1)
        for backend, name in ((SDPBackend.FLASH_ATTENTION, "SDPA flash (FlashAttention-2)"),
                              (SDPBackend.CUDNN_ATTENTION, "SDPA cuDNN")):
            try:
                with sdpa_kernel(backend), torch.no_grad():
                    peer = ctx.timer.median_ms(lambda tq=tq, tk=tk, tv=tv, c=causal, g=hq != hk:
                                               torch.nn.functional.scaled_dot_product_attention(
                                                   tq, tk, tv, is_causal=c, enable_gqa=g))
            except RuntimeError as exc:  # a backend that does not take the shape
                rows.append(Row("attention fwd bf16", f"{label} b{b}", ours, 0.0, f"{name}: {exc}"[:80],
                                "TFLOP/s", flops / ours / 1e9, 0.0, launch.spec))
                continue
            rows.append(Row("attention fwd bf16 (dispatch plan)", f"{label} b{b}", ours, peer, name, "TFLOP/s",
                            flops / ours / 1e9, flops / peer / 1e9, f"{launch.spec} (max abs error {error:.3g})"))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    return platform_main(argv, extra_rows=[conv_rows, attention_rows])


if __name__ == "__main__":
    sys.exit(main())
