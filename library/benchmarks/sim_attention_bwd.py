"""Simulator speed of the attention backward: B=1, H=2, S_q=S_k=128, D=64 (causal_tl, f16, batched)
planned and run end to end through the real kernels on each arch (a benchmark, not a test):
prep -> main (dq_mode=split, dkv_mode=atomic) -> dq -> convert, as plan_attention_bwd lays them out.
Prints the wall seconds per launch (build and simulation), the CPU seconds of the whole case (inputs,
reference, launches, check) and the comparison with the float64 reference.

The specs are the arch's first attention_bwd_main and attention_bwd_dq configs with f16 and
head_dim 64, set to the benchmark's mask, seq_mode and modes (their tiles and atoms unchanged).

    python library/benchmarks/sim_attention_bwd.py [--arch gfx942 ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

from rocke.families.configs import family_configs
from rocke_library.kernels.attention.attention_bwd_convert import AttentionBwdConvertSpec
from rocke_library.kernels.attention.attention_bwd_prep import AttentionBwdPrepSpec
from rocke_library.kernels.attention.backward_plan import backward_records
from rocke_library.kernels.attention.backward_sim import Case, run_case

ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")
CASE = Case((128,), (128,), 2, 2)
SHAPE = {"dtype": "f16", "head_dim": 64}
SETTINGS = {"mask": "causal_tl", "seq_mode": "batched"}
PREP = "block=128 dtype=f16 head_dim=64 seq_mode=batched vec=8"
CONVERT = "block=128 dkv_mode=atomic dq_mode=split dtype=f16 head_dim=64 seq_mode=batched vec=4"


def _spec(family: Any, arch: str, **changes: Any) -> Any:
    """The arch's first config of the family with SHAPE, set to SETTINGS and changes."""
    for line in family_configs(family):
        if line.refuse or line.arch != arch:
            continue
        spec = family.spec.from_kv(line.kv)
        if all(getattr(spec, k) == v for k, v in SHAPE.items()):
            return dataclasses.replace(spec, **SETTINGS, **changes)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", nargs="*", default=list(ARCHS), choices=ARCHS)
    args = parser.parse_args()
    records = backward_records()
    print("arch     wall seconds per launch (build and simulation)                 CPU s   result")
    for arch in args.arch:
        main_spec = _spec(records["attention_bwd_main"], arch, dq_mode="split", dkv_mode="atomic")
        dq_spec = _spec(records["attention_bwd_dq"], arch)
        if main_spec is None or dq_spec is None:
            print(f"{arch:8} no f16 head_dim-64 attention_bwd_main / attention_bwd_dq config")
            continue
        specs: dict[str, object] = {
            "attention_bwd_prep": AttentionBwdPrepSpec.from_kv(PREP),
            "attention_bwd_main": main_spec,
            "attention_bwd_dq": dq_spec,
            "attention_bwd_convert": AttentionBwdConvertSpec.from_kv(CONVERT),
        }
        timings: dict[str, float] = {}
        start = time.process_time()
        result = run_case(specs, arch, CASE, mask=SETTINGS["mask"], timings=timings)
        total = time.process_time() - start
        text = ", ".join(f"{name.removeprefix('attention_bwd_')} {t:.1f}" for name, t in timings.items())
        print(f"{arch:8} {text:60} {total:7.1f}   {'PASS' if result.ok else 'FAIL'} {result.message}", flush=True)


if __name__ == "__main__":
    main()
