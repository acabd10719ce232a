"""Simulator speed of attention_fwd: B=1, H_q=2, S_q=S_k=256, D=128 on every arch (a benchmark,
not a test), one shipped config per arch (a line of attention_fwd.cfg). Prints the build time,
the time of run_case (simulation, reference and comparison) and the comparison.

    python library/benchmarks/sim_attention_fwd.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time

from rocke_library.kernels.attention.attention_fwd import AttentionFwdSpec, build
from rocke_library.kernels.attention.attention_fwd.numerics import Case, run_case

SPECS = {
    "gfx942": "block_m=64 block_n=64 double_buffer=0 dtype=f16 head_dim=128 lds_pad=8 mask=causal_tl "
              "op_id=mfma_f32_32x32x8_f16 seq_mode=batched waves=2",
    "gfx950": "block_m=64 block_n=64 double_buffer=0 dtype=f16 head_dim=128 lds_pad=8 mask=causal_tl "
              "op_id=mfma_f32_32x32x16_f16 seq_mode=batched waves=2",
    "gfx1100": "block_m=64 block_n=16 double_buffer=0 dtype=f16 head_dim=128 lds_pad=8 mask=causal_tl "
               "op_id=wmma_f32_16x16x16_f16_gfx11 seq_mode=batched waves=4",
    "gfx1201": "block_m=128 block_n=32 double_buffer=0 dtype=f16 head_dim=128 lds_pad=8 mask=causal_tl "
               "op_id=wmma_f32_16x16x16_f16_gfx12 seq_mode=batched waves=8",
}
CASE = Case((256,), (256,), 2, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    print("arch     build_s  run_case_s  result")
    for arch, kv in SPECS.items():
        spec = AttentionFwdSpec.from_kv(kv)
        start = time.perf_counter()
        build(spec, arch)
        built = time.perf_counter() - start
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = run_case(spec, arch, CASE)
            best = min(best, time.perf_counter() - start)
        print(f"{arch:8} {built:7.2f}  {best:10.2f}  {'PASS' if result.ok else 'FAIL'} {result.message}")


if __name__ == "__main__":
    main()
