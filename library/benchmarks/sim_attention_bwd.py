"""Simulator speed of the attention backward: B=1, H=2, S_q=S_k=128, D=64 (causal_tl, f16) planned
and run end to end on each arch (a benchmark, not a test). Prints the seconds per launch (build and
simulation) and the comparison with the float64 reference.

Through the real attention_bwd_main (and attention_bwd_dq) when the library has them: the first
config of the main family's config file on the arch with head_dim 64, f16, batched, causal_tl.
Without them it reports the plan's prep and convert launches only (main missing).

    python library/benchmarks/sim_attention_bwd.py
"""

from __future__ import annotations

import argparse
from typing import Any

from rocke.families.configs import family_configs
from rocke_library import families as library_families
from rocke_library.kernels.attention.attention_bwd_convert import AttentionBwdConvertSpec
from rocke_library.kernels.attention.attention_bwd_prep import AttentionBwdPrepSpec
from rocke_library.kernels.attention.backward_sim import Case, run_case

ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")
CASE = Case((128,), (128,), 2, 2)
WANT = {"dtype": "f16", "head_dim": 64, "seq_mode": "batched", "mask": "causal_tl"}


def _main_spec(family: Any, arch: str) -> Any:
    for line in family_configs(family):
        if line.refuse or line.arch != arch:
            continue
        spec = family.spec.from_kv(line.kv)
        if all(getattr(spec, k) == v for k, v in WANT.items()):
            return spec
    return None


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    found = {f.name: f for f in library_families.defined()}
    if "attention_bwd_main" not in found:
        print("attention_bwd_main is not a library family: nothing to run end to end")
        return
    print("arch     launches (seconds)                                   result")
    for arch in ARCHS:
        main_spec = _main_spec(found["attention_bwd_main"], arch)
        if main_spec is None:
            print(f"{arch:8} no matching attention_bwd_main config")
            continue
        dq_mode, dkv_mode = main_spec.dq_mode, main_spec.dkv_mode
        prep = AttentionBwdPrepSpec.from_kv("block=128 dtype=f16 head_dim=64 seq_mode=batched vec=8")
        specs: dict[str, object] = {
            "attention_bwd_prep": prep,
            "attention_bwd_main": main_spec,
        }
        if dq_mode == "split":
            dq = found.get("attention_bwd_dq")
            spec = None if dq is None else _main_spec(dq, arch)
            if spec is None:
                print(f"{arch:8} no matching attention_bwd_dq config")
                continue
            specs["attention_bwd_dq"] = spec
        if dq_mode == "atomic" or dkv_mode != "direct":
            specs["attention_bwd_convert"] = AttentionBwdConvertSpec.from_kv(
                f"block=128 dkv_mode={dkv_mode} dq_mode={dq_mode} dtype=f16 head_dim=64 seq_mode=batched vec=4")
        timings: dict[str, float] = {}
        result = run_case(specs, arch, CASE, mask="causal_tl", timings=timings)
        text = ", ".join(f"{name.removeprefix('attention_bwd_')} {t:.2f}" for name, t in timings.items())
        print(f"{arch:8} {text} (total {sum(timings.values()):.2f})  {'PASS' if result.ok else 'FAIL'} "
              f"{result.message}")


if __name__ == "__main__":
    main()
