"""The GPU bench: rocKE kernels against the library a user would call instead, in one process on one
GPU (platform/docs/runtime.md, "The GPU bench"; results in docs/performance.md).

    python -m rocke.runtime.gpu_bench [--quick] [--out results.json]

Needs a GPU, PyTorch (the peers: cuBLAS through torch.matmul, cuDNN through conv2d, the copy
bandwidth through Tensor.copy_) and cuda-bindings. Every row is timed the same way for rocKE and its
peer: CUDA events around one launch (or one plan's launches), warm-up first, the L2 cache flushed by
writing a buffer twice its size before each timed repeat, the median of the repeats. A row reports
TFLOP/s (or GB/s for memory-bound kernels) and the ratio rocKE / peer.

gemm and elementwise are platform families without a planner: their row uses a shipped sm_90 config
(named in the row). Kinds a planner serves (convolution, attention) are planned by dispatch, the
path users take: a package with such kinds runs `main(extra_rows=...)` with its row functions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

WARMUP = 3
REPEATS = 20


@dataclass
class Row:
    name: str
    shape: str
    rocke_ms: float
    peer_ms: float
    peer: str
    unit: str  # "TFLOP/s" or "GB/s"
    rocke_rate: float
    peer_rate: float
    config: str

    @property
    def ratio(self) -> float:
        return self.peer_ms / self.rocke_ms if self.rocke_ms else 0.0


class Timer:
    """Events around work on the current stream, with an L2 flush before each repeat."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        props = torch.cuda.get_device_properties(0)
        self.flush_buffer = torch.empty(2 * int(getattr(props, "L2_cache_size", 64 << 20)), dtype=torch.uint8,
                                        device="cuda")

    def median_ms(self, work: Callable[[], None], repeats: int = REPEATS) -> float:
        torch = self.torch
        for _ in range(WARMUP):
            work()
        times = []
        for _ in range(repeats):
            self.flush_buffer.fill_(1)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            work()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return statistics.median(times)


class Launcher:
    """One family kernel loaded on the GPU, launched with device pointers (torch tensors)."""

    def __init__(self, backend: Any, kernel: Any, arch: str, flavor: str) -> None:
        from .compile import code_object, dynamic_shared_bytes
        from .packing import kernel_layout

        self.backend = backend
        self.kernel = kernel
        self.layout = kernel_layout(kernel)
        self.function = backend.get_kernel(backend.load_module(code_object(kernel, arch, flavor)), kernel.name)
        self.shared = dynamic_shared_bytes(kernel, arch)

    def bind(self, contract: Any, given: dict[str, Any]) -> Callable[[], None]:
        values = [v.data_ptr() if hasattr(v, "data_ptr") else v for v in contract.ordered_args(given)]
        params = self.layout.pack(values)
        grid, block = tuple(contract.grid), tuple(contract.block)
        return lambda: self.backend.launch(self.function, grid, block, params, shared_bytes=self.shared)


def _flavor() -> str:
    from rocke.isa import running_flavor

    flavor = running_flavor()
    if flavor is None:
        raise SystemExit("gpu_bench: the running llvmlite validates no rocKE flavor")
    return flavor


def gemm_rows(ctx: BenchContext, shapes: Sequence[tuple[int, int, int]]) -> list[Row]:
    from rocke.families import build_family, get_family
    from rocke.families.configs import family_configs
    from rocke.families.gemm.contract import launch as gemm_launch

    torch = ctx.torch
    family = get_family("gemm")
    lines = [c for c in family_configs(family) if c.arch == ctx.arch and not c.refuse]
    # The shipped bf16 config with row-major A and B (torch.matmul's layout) and the largest tile.
    line = max((c for c in lines if "a_dtype=bf16" in c.kv and "a_layout=row" in c.kv and "b_layout=row" in c.kv),
               key=lambda c: family.spec.from_kv(c.kv).bm * family.spec.from_kv(c.kv).bn)
    spec = family.spec.from_kv(line.kv)
    kernel = build_family(family, spec, ctx.arch)
    launcher = Launcher(ctx.backend, kernel, ctx.arch, ctx.flavor)
    rows = []
    for m, n, k in shapes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        bias = torch.zeros(n, device="cuda", dtype=torch.bfloat16)
        given = {"a": a, "b": b, "c": c, "alpha": 1.0}
        if spec.bias:
            given["bias"] = bias
        run = launcher.bind(gemm_launch(spec, {"m": m, "n": n, "k": k}), given)
        run()
        torch.cuda.synchronize()
        error = float((c.float() - (a.float() @ b.float())).abs().max() / (a.float() @ b.float()).abs().max())
        ours = ctx.timer.median_ms(run)
        peer = ctx.timer.median_ms(lambda a=a, b=b: torch.matmul(a, b))
        flops = 2.0 * m * n * k
        rows.append(Row("gemm bf16", f"{m}x{n}x{k}", ours, peer, "cuBLAS (torch.matmul)", "TFLOP/s",
                        flops / ours / 1e9, flops / peer / 1e9, f"{line.kv} (max rel error {error:.2g})"))
    return rows


def elementwise_rows(ctx: BenchContext, elements: int) -> list[Row]:
    from rocke.families import build_family, get_family
    from rocke.families.configs import family_configs
    from rocke.families.elementwise.contract import launch as ew_launch

    torch = ctx.torch
    family = get_family("elementwise")
    lines = [c for c in family_configs(family) if c.arch == ctx.arch and not c.refuse]
    line = next(c for c in lines if "op=add" in c.kv)
    spec = family.spec.from_kv(line.kv)
    kernel = build_family(family, spec, ctx.arch)
    launcher = Launcher(ctx.backend, kernel, ctx.arch, ctx.flavor)
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[spec.dtype]
    x = torch.randn(elements, device="cuda", dtype=dtype)
    y = torch.randn(elements, device="cuda", dtype=dtype)
    out = torch.empty_like(x)
    contract = ew_launch(spec, {"n": elements})
    names = [arg.name for arg in contract.args if arg.value is None]
    given = dict(zip(names, (x, y, out), strict=False))
    run = launcher.bind(contract, given)
    ours = ctx.timer.median_ms(run)
    peer = ctx.timer.median_ms(lambda: torch.add(x, y, out=out))
    copy_dst = torch.empty_like(x)
    copy = ctx.timer.median_ms(lambda: copy_dst.copy_(x))
    moved = 3 * elements * x.element_size()
    rows = [Row("elementwise add", f"{elements} {spec.dtype}", ours, peer, "torch.add", "GB/s",
                moved / ours / 1e6, moved / peer / 1e6, line.kv)]
    copied = 2 * elements * x.element_size()
    rows.append(Row("elementwise add vs copy bandwidth", f"{elements} {spec.dtype}", ours, copy,
                    "device copy (Tensor.copy_)", "GB/s", moved / ours / 1e6, copied / copy / 1e6, line.kv))
    return rows


@dataclass
class BenchContext:
    torch: Any
    backend: Any
    arch: str
    flavor: str
    timer: Timer


RowsFn = Callable[[BenchContext, bool], list[Row]]


def table(rows: Sequence[Row]) -> str:
    lines = [f"{'kernel':<34} {'shape':<22} {'rocke':>9} {'peer':>9} {'unit':<8} {'x peer':>7}  peer"]
    for r in rows:
        lines.append(f"{r.name:<34} {r.shape:<22} {r.rocke_rate:>9.1f} {r.peer_rate:>9.1f} {r.unit:<8} "
                     f"{r.rocke_rate / r.peer_rate if r.peer_rate else 0:>7.3f}  {r.peer}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, extra_rows: Sequence[RowsFn] = ()) -> int:
    """The bench; extra_rows: more row functions (ctx, quick) -> rows, e.g. the library's planned kinds."""
    parser = argparse.ArgumentParser(prog="python -m rocke.runtime.gpu_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller shapes only")
    parser.add_argument("--out", default="", help="write the rows as JSON here")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("gpu_bench: PyTorch is needed for the peers (pip install torch)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("gpu_bench: no GPU", file=sys.stderr)
        return 2
    from .backend import open_backend

    major, minor = torch.cuda.get_device_capability(0)
    arch = f"sm_{major}{minor}"
    ctx = BenchContext(torch, open_backend(arch), arch, _flavor(), Timer(torch))
    torch.backends.cudnn.benchmark = True
    shapes = [(4096, 4096, 4096)] if args.quick else [(4096, 4096, 4096), (8192, 8192, 8192), (16384, 1024, 4096)]
    rows = gemm_rows(ctx, shapes)
    rows += elementwise_rows(ctx, 1 << 26 if args.quick else 1 << 28)
    for extra in extra_rows:
        rows += extra(ctx, args.quick)
    header = (f"device: {ctx.backend.device_name} ({arch}), torch {torch.__version__}, "
              f"cuDNN {torch.backends.cudnn.version()}, CUDA {torch.version.cuda}")
    print(header)
    print(table(rows))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump({"format": "rocke.gpu_bench/1", "device": header,
                       "rows": [{**asdict(r), "ratio": r.ratio} for r in rows]}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
