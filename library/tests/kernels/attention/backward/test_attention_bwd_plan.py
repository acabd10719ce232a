"""The backward plan as data: launch order per mode, 256-byte aligned workspace slices in the
documented order, the accumulation region prep zero-fills (so nothing for the host to zero), every
argument bound (tensor, workspace slice or scalar), JSON round trip, and refusals of inconsistent
specs or problems."""

from __future__ import annotations

import itertools
import json

import pytest
from standin_main import StandInMainSpec, records

from rocke_library import families as library_families
from rocke_library.kernels.attention.attention_bwd_convert import AttentionBwdConvertSpec
from rocke_library.kernels.attention.attention_bwd_dq import AttentionBwdDqSpec
from rocke_library.kernels.attention.attention_bwd_prep import AttentionBwdPrepSpec
from rocke_library.kernels.attention.backward_plan import (
    PLAN_FORMAT,
    WORKSPACE_ALIGN,
    PlanError,
    plan_attention_bwd,
    workspace_layout,
)

RECORDS = records({family.name: family for family in library_families.defined()})
PREP = AttentionBwdPrepSpec.from_kv("block=256 dtype=f16 head_dim=64 seq_mode=batched vec=8")
PROBLEM = {"arch": "gfx942", "batch": 2, "seqlen_q": 100, "seqlen_k": 70, "heads_q": 8, "heads_kv": 2}


def _convert(dq_mode: str, dkv_mode: str) -> AttentionBwdConvertSpec:
    return AttentionBwdConvertSpec.from_kv(f"block=256 dkv_mode={dkv_mode} dq_mode={dq_mode} dtype=f16 head_dim=64 "
                                           f"seq_mode=batched vec=4")


def _specs(dq_mode: str = "atomic", dkv_mode: str = "atomic") -> dict[str, object]:
    return {"attention_bwd_prep": PREP,
            "attention_bwd_main": StandInMainSpec(dkv_mode, dq_mode, "f16", 64, "causal_tl", "batched"),
            "attention_bwd_convert": _convert(dq_mode, dkv_mode)}


def test_workspace_layout_is_aligned_and_ordered() -> None:
    sizes = {"batch": 2, "seqlen_q": 100, "seqlen_k": 70, "heads_q": 8, "heads_kv": 2}
    slices = workspace_layout("batched", sizes, 64, "atomic", "atomic")
    assert [s.name for s in slices] == ["lse2", "delta", "dq_acc", "dk_acc", "dv_acc"]
    assert all(s.offset % WORKSPACE_ALIGN == 0 for s in slices)
    assert slices[0].bytes == 2 * 8 * 100 * 4 and slices[2].shape == (2, 100, 8, 64)
    assert slices[3].shape == (2, 70, 2, 64)
    assert workspace_layout("batched", sizes, 64, "atomic", "split")[3].shape == (2, 70, 8, 64)
    assert [s.name for s in workspace_layout("batched", sizes, 64, "split", "direct")] == ["lse2", "delta"]
    for a, b in itertools.pairwise(slices):
        assert a.offset + a.bytes <= b.offset < a.offset + a.bytes + WORKSPACE_ALIGN


def test_plan_binds_every_argument_and_prep_clears_the_region() -> None:
    plan = plan_attention_bwd(PROBLEM, _specs(), records=RECORDS)
    assert [x.family for x in plan.launches] == ["attention_bwd_prep", "attention_bwd_main", "attention_bwd_convert"]
    assert plan.zero_init == () and plan.zero is not None
    slices = {s.name: s for s in plan.slices}
    assert plan.zero.offset == slices["dq_acc"].offset
    assert plan.zero.offset + plan.zero.bytes == slices["dv_acc"].offset + slices["dv_acc"].bytes
    prep = {a["name"]: a for a in plan.launches[0].args}
    assert prep["zero_ws"]["offset"] == plan.zero.offset and prep["zero_count"]["value"] == plan.zero.bytes // 4
    assert prep["lse2"] == {"name": "lse2", "type": "ptr<f32, global>", "kind": "workspace",
                            "offset": slices["lse2"].offset, "bytes": slices["lse2"].bytes}
    main = {a["name"]: a for a in plan.launches[1].args}
    assert main["scale"] == {"name": "scale", "type": "f32", "kind": "scalar", "value": 0.125}
    convert = {a["name"]: a for a in plan.launches[2].args}
    assert convert["dk_acc"]["offset"] == slices["dk_acc"].offset and convert["dk"]["kind"] == "tensor"
    assert convert["group"]["value"] == 4
    tensors = dict(plan.tensors)
    assert tensors["q"]["bytes"] == 2 * 100 * 8 * 64 * 2 and tensors["lse"]["bytes"] == 2 * 8 * 100 * 4
    assert plan.workspace_bytes % WORKSPACE_ALIGN == 0


def test_plan_json_is_stable() -> None:
    plan = plan_attention_bwd({**PROBLEM, "scale": 0.5}, _specs("atomic", "split"), records=RECORDS)
    text = plan.to_json()
    data = json.loads(text)
    assert data["format"] == PLAN_FORMAT and data["zero_init"] == [] and data["arch"] == "gfx942"
    assert data["workspace"]["bytes"] == plan.workspace_bytes and data["problem"]["scale"] == 0.5
    assert [x["family"] for x in data["launches"]] == [x.family for x in plan.launches]
    assert text == plan_attention_bwd({**PROBLEM, "scale": 0.5}, _specs("atomic", "split"), records=RECORDS).to_json()
    assert text.endswith("}\n") and json.dumps(data, sort_keys=True, indent=2) + "\n" == text


def test_modes_pick_the_launches() -> None:
    mha = {**PROBLEM, "heads_kv": 8}
    specs = _specs("atomic", "direct")
    plan = plan_attention_bwd(mha, specs, records=RECORDS)
    assert [s.name for s in plan.slices] == ["lse2", "delta", "dq_acc"]
    assert [a["name"] for a in plan.launches[2].args][:2] == ["dq_acc", "dq"]


def test_split_slices_lie_past_the_zero_region() -> None:
    """dkv_mode=split: main writes every element of the per-query-head dK / dV slices by plain
    stores, so prep zeroes only the atomic dQ workspace (nothing at all with dq_mode=split too)."""
    plan = plan_attention_bwd(PROBLEM, _specs("atomic", "split"), records=RECORDS)
    slices = {s.name: s for s in plan.slices}
    assert plan.zero is not None and plan.zero_init == ()
    assert (plan.zero.offset, plan.zero.bytes) == (slices["dq_acc"].offset, slices["dq_acc"].bytes)
    assert slices["dk_acc"].offset >= plan.zero.offset + plan.zero.bytes
    prep = {a["name"]: a for a in plan.launches[0].args}
    assert prep["zero_count"]["value"] == slices["dq_acc"].bytes // 4
    dq = AttentionBwdDqSpec.from_kv("block_m=64 block_n=32 dtype=f16 head_dim=64 lds_pad=8 mask=causal_tl "
                                    "op_id=mfma_f32_32x32x8_f16 qdo_lds=0 seq_mode=batched waves=2")
    plan = plan_attention_bwd(PROBLEM, _specs("split", "split") | {"attention_bwd_dq": dq}, records=RECORDS)
    assert [s.name for s in plan.slices] == ["lse2", "delta", "dk_acc", "dv_acc"] and plan.zero is None
    prep = {a["name"]: a for a in plan.launches[0].args}
    assert prep["zero_count"]["value"] == 0


def test_plan_refusals() -> None:
    with pytest.raises(PlanError, match="dkv_mode=direct needs heads_q == heads_kv"):
        plan_attention_bwd(PROBLEM, _specs("atomic", "direct"), records=RECORDS)
    specs = _specs()
    del specs["attention_bwd_convert"]
    with pytest.raises(PlanError, match="launches attention_bwd_prep, attention_bwd_main, attention_bwd_convert"):
        plan_attention_bwd(PROBLEM, specs, records=RECORDS)
    specs = _specs()
    specs["attention_bwd_convert"] = _convert("atomic", "split")
    with pytest.raises(PlanError, match="attention_bwd_convert has dq_mode=atomic dkv_mode=split"):
        plan_attention_bwd(PROBLEM, specs, records=RECORDS)
    specs = _specs()
    specs["attention_bwd_prep"] = AttentionBwdPrepSpec.from_kv("block=256 dtype=bf16 head_dim=64 seq_mode=batched "
                                                               "vec=8")
    with pytest.raises(PlanError, match="has dtype=f16, attention_bwd_prep has dtype=bf16"):
        plan_attention_bwd(PROBLEM, specs, records=RECORDS)
    with pytest.raises(PlanError, match="missing: seqlen_k"):
        plan_attention_bwd({k: v for k, v in PROBLEM.items() if k != "seqlen_k"}, _specs(), records=RECORDS)
    with pytest.raises(PlanError, match="not a multiple of heads_kv"):
        plan_attention_bwd({**PROBLEM, "heads_kv": 3}, _specs(), records=RECORDS)
