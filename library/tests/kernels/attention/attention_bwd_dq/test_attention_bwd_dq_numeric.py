"""attention_bwd_dq on the simulator against the float64 backward reference (written from the
formulas): one config per arch at its edge case (tails, S_q != S_k, GQA; varlen with an empty
query and an empty key sequence) for every mask, MQA, rows that see no key; then the negative
controls (test-only faults: LSE2 read in natural-log units, causal alignment flipped, scale
applied twice), which must fail the same comparison; then head_dim 128 with Q and dO staged in LDS
(qdo_lds=1, how gfx1100 ships it) on gfx1100 and gfx942, with its own controls; every sm_90 line of
the config file at its edge case (mma.sync, whose C column depends on the slot: two query rows per
lane and query repeat). Tolerances: attention_bwd_main/numerics.py."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke_library.kernels.attention.attention_bwd_dq import AttentionBwdDqSpec
from rocke_library.kernels.attention.attention_bwd_dq.family import FAMILY
from rocke_library.kernels.attention.attention_bwd_dq.numerics import edge_case, run_case
from rocke_library.kernels.attention.attention_bwd_main.numerics import Case

pytestmark = pytest.mark.numeric

SM90_CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse and line.arch == "sm_90"]

SPECS = {
    "gfx942": "block_m=64 block_n=32 dtype=f16 head_dim=64 lds_pad=8 mask=causal_br op_id=mfma_f32_32x32x8_f16 "
              "qdo_lds=0 seq_mode=batched waves=2",
    "gfx950": "block_m=64 block_n=32 dtype=bf16 head_dim=64 lds_pad=8 mask=causal_br op_id=mfma_f32_16x16x32_bf16 "
              "qdo_lds=0 seq_mode=batched waves=4",
    "gfx1100": "block_m=32 block_n=32 dtype=f16 head_dim=64 lds_pad=8 mask=causal_br "
               "op_id=wmma_f32_16x16x16_f16_gfx11 qdo_lds=0 seq_mode=batched waves=2",
    "gfx1201": "block_m=32 block_n=32 dtype=bf16 head_dim=64 lds_pad=8 mask=causal_br "
               "op_id=wmma_f32_16x16x16_bf16_gfx12 qdo_lds=0 seq_mode=batched waves=2",
    "sm_90": "block_m=32 block_n=32 dtype=f16 head_dim=64 lds_pad=8 mask=causal_br op_id=mma_sync_f32_16x8x16_f16 "
             "qdo_lds=0 seq_mode=batched waves=2",
}


def _spec(arch: str, **changes: str) -> AttentionBwdDqSpec:
    pairs = dict(p.split("=") for p in SPECS[arch].split(" "))
    pairs.update(changes)
    return AttentionBwdDqSpec.from_kv(" ".join(f"{k}={pairs[k]}" for k in sorted(pairs)))


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("mask", ["none", "causal_tl", "causal_br"])
def test_edge_case_every_mask(arch: str, mask: str) -> None:
    spec = _spec(arch, mask=mask)
    result = run_case(spec, arch, edge_case(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("shape", ["mqa", "dead_rows", "varlen_empty"])
def test_problems(arch: str, shape: str) -> None:
    changes = {"varlen_empty": {"seq_mode": "varlen", "mask": "causal_tl"}}.get(shape, {})
    case = {
        "mqa": Case((37,) * 2, (45,) * 2, 4, 1),
        "dead_rows": Case((50,), (9,), 2, 1),  # causal_br: the first 41 rows see no key
        "varlen_empty": Case((40, 0, 7, 3), (5, 3, 0, 33), 4, 2),
    }[shape]
    result = run_case(_spec(arch, **changes), arch, case)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100", "sm_90"])
@pytest.mark.parametrize("fault", ["lse_natural", "causal_flip", "scale_twice"])
def test_negative_controls_fail(arch: str, fault: str) -> None:
    spec = _spec(arch)
    case = Case((37,), (45,), 2, 1)
    assert run_case(spec, arch, case).ok
    result = run_case(spec, arch, case, fault=fault)
    assert not result.ok, f"the {fault} variant passed: {result.message}"


# head_dim 128 with Q and dO staged in LDS: the gfx1100 configs (block_n 32 and 16) and the same
# path on a wave64 atom.
STAGED = {
    "gfx1100": _spec("gfx1100", head_dim="128", qdo_lds="1", dtype="bf16", op_id="wmma_f32_16x16x16_bf16_gfx11"),
    "gfx1100-n16": _spec("gfx1100", head_dim="128", qdo_lds="1", block_n="16"),
    "gfx942": _spec("gfx942", head_dim="128", qdo_lds="1"),
}


@pytest.mark.parametrize(("name", "mask"), [("gfx1100", "none"), ("gfx1100", "causal_br"),
                                           ("gfx1100-n16", "causal_br"), ("gfx942", "causal_tl")])
def test_head_dim_128_with_q_and_do_in_lds(name: str, mask: str) -> None:
    spec = dataclasses.replace(STAGED[name], mask=mask)
    arch = name.split("-")[0]
    result = run_case(spec, arch, edge_case(spec))
    assert result.ok, result.message


def test_head_dim_128_with_q_and_do_in_lds_control_fails() -> None:
    spec = STAGED["gfx1100"]
    case = Case((37,), (45,), 2, 1)
    assert run_case(spec, "gfx1100", case).ok
    result = run_case(spec, "gfx1100", case, fault="causal_flip")
    assert not result.ok, f"the causal_flip variant passed: {result.message}"


@pytest.mark.parametrize("line", SM90_CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in SM90_CONFIGS])
def test_sm90_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = AttentionBwdDqSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_case(spec))
    assert result.ok, result.message
