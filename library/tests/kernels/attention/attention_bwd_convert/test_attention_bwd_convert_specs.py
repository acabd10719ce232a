"""attention_bwd_convert specs: canonical kv text, refusals with FIELD=VALUE: RULE text, the arch
rule, the launch contract (grid over the most rows converted, arguments per mode, buffer sizes)
and the config file (every arch x dtype x head_dim x seq_mode, every mode pair, every refusal)."""

from __future__ import annotations

import pytest

from rocke.families.configs import family_configs
from rocke.families.launch import LaunchError
from rocke.gates import conformance as kit
from rocke.gates.conformance import with_changes
from rocke_library.kernels.attention.attention_bwd_convert import AttentionBwdConvertSpec, launch
from rocke_library.kernels.attention.attention_bwd_convert.family import FAMILY

BASE = "block=256 dkv_mode=atomic dq_mode=atomic dtype=f16 head_dim=64 seq_mode=batched vec=4"

SPEC_REFUSALS = [
    ({"dtype": "f32"}, "attention_bwd_convert: dtype=f32: must be one of f16, bf16"),
    ({"head_dim": 80}, "attention_bwd_convert: head_dim=80: must be one of 32, 64, 128"),
    ({"seq_mode": "paged"}, "attention_bwd_convert: seq_mode=paged: must be one of batched, varlen"),
    ({"dq_mode": "none"}, "attention_bwd_convert: dq_mode=none: must be one of atomic, split"),
    ({"dkv_mode": "sum"}, "attention_bwd_convert: dkv_mode=sum: must be one of direct, atomic, split"),
    ({"dq_mode": "split", "dkv_mode": "direct"},
     "attention_bwd_convert: dkv_mode=direct: with dq_mode=split there is nothing to convert (use atomic or split)"),
    ({"vec": 16}, "attention_bwd_convert: vec=16: must be 1, 2, 4 or 8"),
    ({"vec": 8}, "attention_bwd_convert: vec=8: one f32 workspace access holds at most 4 elements (16 bytes)"),
    ({"block": 40}, "attention_bwd_convert: block=40: must be a multiple of 32 in 32..1024"),
]

ARCH_REFUSALS = [
    ({"block": 160}, "gfx942", "attention_bwd_convert: block=160: must be a multiple of the wave size 64 of gfx942"),
]


class TestAttentionBwdConvertSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS


def test_kv_round_trip_and_tensors() -> None:
    spec = AttentionBwdConvertSpec.from_kv(BASE)
    assert spec.to_kv() == BASE and spec.tensors == ("dq", "dk", "dv")
    assert AttentionBwdConvertSpec.from_kv(with_changes(BASE, dkv_mode="direct")).tensors == ("dq",)
    assert AttentionBwdConvertSpec.from_kv(with_changes(BASE, dq_mode="split", dkv_mode="split")).tensors == \
        ("dk", "dv")


def test_launch_contract_modes_and_strides() -> None:
    spec = AttentionBwdConvertSpec.from_kv(BASE)
    c = launch(spec, {"batch": 2, "seqlen_q": 100, "seqlen_k": 300, "heads_q": 8, "heads_kv": 2})
    assert [a.name for a in c.args][:6] == ["dq_acc", "dk_acc", "dv_acc", "dq", "dk", "dv"]
    assert c.grid == (2 * 100 * 8 * 16 // 256, 1, 1)  # dq: 1600 rows of 16 vectors (dk, dv: 1200)
    assert c.arg("dq_acc").bytes == 2 * 100 * 8 * 64 * 4 and c.arg("dk_acc").bytes == 2 * 300 * 2 * 64 * 4
    assert c.arg("dq").bytes == 2 * 100 * 8 * 64 * 2 and c.arg("group").value == 4
    split = AttentionBwdConvertSpec.from_kv(with_changes(BASE, dq_mode="split", dkv_mode="split", seq_mode="varlen"))
    c = launch(split, {"total_q": 50, "total_k": 30, "heads_q": 6, "heads_kv": 2, "dk_stride_h": 72,
                       "dk_stride_s": 160})
    assert [a.name for a in c.args][:4] == ["dk_acc", "dv_acc", "dk", "dv"]
    assert c.arg("dk_acc").bytes == 30 * 6 * 64 * 4  # one slice per query head
    assert c.arg("dk").bytes == (29 * 160 + 72 + 64) * 2 and c.arg("dv_stride_s").value == 128
    with pytest.raises(LaunchError, match="not a multiple of heads_kv"):
        launch(spec, {"batch": 1, "seqlen_q": 1, "seqlen_k": 1, "heads_q": 3, "heads_kv": 2})
    with pytest.raises(LaunchError, match="unknown: dq_stride_s"):
        launch(split, {"total_q": 1, "total_k": 1, "heads_q": 1, "heads_kv": 1, "dq_stride_s": 64})


def test_config_file_coverage() -> None:
    lines = family_configs(FAMILY)
    built = [(line.arch, AttentionBwdConvertSpec.from_kv(line.kv)) for line in lines if not line.refuse]
    for arch in ("gfx942", "gfx950", "gfx1100", "gfx1201"):
        mine = [spec for a, spec in built if a == arch]
        assert {(s.dtype, s.head_dim, s.seq_mode) for s in mine} >= {
            (d, h, m) for d in ("f16", "bf16") for h in (64, 128) for m in ("batched", "varlen")}
        assert {(s.dq_mode, s.dkv_mode) for s in mine} == {
            ("atomic", "direct"), ("atomic", "atomic"), ("atomic", "split"), ("split", "atomic"), ("split", "split")}
    texts = [kit.build_text(FAMILY, line.kv, line.arch) for line in lines if line.refuse]
    for _, rule in SPEC_REFUSALS + [(None, r) for _, _, r in ARCH_REFUSALS]:
        assert any(rule.split(": ", 2)[2] in text for text in texts), rule


def test_library_defines_attention_bwd_convert() -> None:
    from rocke_library import families as library_families

    family = {f.name: f for f in library_families.defined()}["attention_bwd_convert"]
    assert family is FAMILY and "attention_bwd_convert" in library_families.SHIPPED
    assert family.owner == "rocke-library" and family.native_emitter == "rocke-library-emit"
    assert None not in (family.build, family.launch, family.reference, family.numerics)
