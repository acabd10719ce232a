"""Benchmark: wall time to simulate a 256 x 256 x 256 f16 MFMA GEMM with rocke.sim.

The kernel is test_sim_kernels.gemm_kernel (LDS-staged, 256-thread workgroups, 64 x 64 tiles,
mfma_f32_32x32x8_f16 on gfx942): 16 workgroups, 8 K steps, 512 MFMAs. Each timed run includes
verification, argument binding and the simulation itself; the kernel is built once.

Not collected by pytest (no test_ prefix). Run:
    PYTHONPATH=platform/src python platform/tests/bench_sim.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

from rocke.sim import compare, run

SIZE = 256
RUNS = 5


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # the kernel lives beside this file
    from test_sim_kernels import GEMM_ATOL, GEMM_RTOL, GEMM_TILE, gemm_kernel

    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (SIZE, SIZE)).astype(np.float16)
    bt = rng.uniform(-1, 1, (SIZE, SIZE)).astype(np.float16)
    c = np.zeros((SIZE, SIZE), np.float32)
    start = time.perf_counter()
    kernel = gemm_kernel()
    build = time.perf_counter() - start
    grid = (SIZE // GEMM_TILE, SIZE // GEMM_TILE)
    times = []
    info = None
    for _ in range(RUNS):
        start = time.perf_counter()
        info = run(kernel, arch="gfx942", grid=grid, block=256, args=[a, bt, c, 1.0, SIZE, SIZE])
        times.append(time.perf_counter() - start)
    expected = a.astype(np.float64) @ bt.astype(np.float64).T
    check = compare(c, expected, rtol=GEMM_RTOL, atol=GEMM_ATOL, name="gemm")
    assert info is not None
    print(f"kernel:                    {kernel.name} ({kernel.op_count()} ops), {SIZE}x{SIZE}x{SIZE} f16 -> f32")
    print(f"launch:                    grid {info.grid}, block {info.block}, {info.workgroups} workgroups, "
          f"{info.batches} batch(es)")
    print(f"ops executed per run:      {info.ops_executed}")
    print(f"build (once):              {build * 1e3:8.1f} ms")
    print(f"simulate (median of {RUNS}):   {statistics.median(times) * 1e3:8.1f} ms")
    print(f"check:                     {check.message}")


if __name__ == "__main__":
    main()
