"""attention_bwd_prep specs: canonical kv text, refusals with FIELD=VALUE: RULE text, the arch
rules, the launch contract (grid, arguments, buffer sizes, zero-fill iterations) and the config
file (every arch x dtype x head_dim x seq_mode, every refusal rule)."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.families.configs import family_configs
from rocke.families.launch import LaunchError
from rocke.gates import conformance as kit
from rocke.gates.conformance import with_changes
from rocke_library.kernels.attention.attention_bwd_prep import AttentionBwdPrepSpec, build, launch
from rocke_library.kernels.attention.attention_bwd_prep.family import FAMILY

BASE = "block=256 dtype=f16 head_dim=64 seq_mode=batched vec=8"

SPEC_REFUSALS = [
    ({"dtype": "f32"}, "attention_bwd_prep: dtype=f32: must be one of f16, bf16"),
    ({"head_dim": 96}, "attention_bwd_prep: head_dim=96: must be one of 32, 64, 128"),
    ({"seq_mode": "paged"}, "attention_bwd_prep: seq_mode=paged: must be one of batched, varlen"),
    ({"vec": 3}, "attention_bwd_prep: vec=3: must be 1, 2, 4 or 8"),
    ({"block": 48}, "attention_bwd_prep: block=48: must be a multiple of 32 in 32..1024"),
    ({"block": 2048}, "attention_bwd_prep: block=2048: must be a multiple of 32 in 32..1024"),
]

ARCH_REFUSALS = [
    ({"block": 96}, "gfx942", "attention_bwd_prep: block=96: must be a multiple of the wave size 64 of gfx942"),
    ({"head_dim": 128, "vec": 1}, "gfx950",
     "attention_bwd_prep: vec=1: head_dim / vec = 128 lanes per row exceed the wave size 64 of gfx950"),
    ({"head_dim": 64, "vec": 1}, "gfx1100",
     "attention_bwd_prep: vec=1: head_dim / vec = 64 lanes per row exceed the wave size 32 of gfx1100"),
]


class TestAttentionBwdPrepSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS
    fine_on = None  # the wave-size rules cut both ways: test_arch_refusals_build_where_they_fit


def test_arch_refusals_build_where_they_fit() -> None:
    build(AttentionBwdPrepSpec.from_kv(with_changes(BASE, block=96)), "gfx1100")
    build(AttentionBwdPrepSpec.from_kv(with_changes(BASE, head_dim=64, vec=1)), "gfx942")
    build(AttentionBwdPrepSpec.from_kv(with_changes(BASE, head_dim=128, vec=2)), "gfx950")


def test_kv_round_trip_and_frozen() -> None:
    spec = AttentionBwdPrepSpec.from_kv(BASE)
    assert spec.to_kv() == BASE
    assert spec.row_lanes == 8 and spec.rows_per_block == 32
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.vec = 4  # type: ignore[misc]


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    kit.check_spec_refusal(AttentionBwdPrepSpec, with_changes(BASE, head_dim=96, vec=3, block=7),
                           "attention_bwd_prep: head_dim=96: must be one of 32, 64, 128")


def test_launch_contract_batched_and_varlen() -> None:
    spec = AttentionBwdPrepSpec.from_kv(BASE)
    c = launch(spec, {"batch": 2, "seqlen_q": 100, "heads_q": 3, "zero_count": 4096})
    assert c.grid == (19, 1, 1) and c.block == (256, 1, 1)  # 600 rows, 32 per workgroup
    assert [a.name for a in c.args][:6] == ["o", "do", "lse", "lse2", "delta", "zero_ws"]
    assert c.arg("o").bytes == 2 * 100 * 3 * 64 * 2 and c.arg("lse2").bytes == 600 * 4
    assert c.arg("zero_ws").bytes == 4096 * 4 and c.arg("zero_iters").value == 1
    assert c.arg("o_stride_s").value == 3 * 64 and c.arg("do_stride_b").value == 100 * 3 * 64
    var = AttentionBwdPrepSpec.from_kv(with_changes(BASE, seq_mode="varlen"))
    c = launch(var, {"total_q": 70, "heads_q": 2, "zero_count": 1 << 20})
    assert c.grid == (5, 1, 1)
    assert c.arg("zero_iters").value == -(-(1 << 20) // (5 * 256 * 4))
    assert "batch" not in [a.name for a in c.args]
    empty = launch(var, {"total_q": 0, "heads_q": 2})
    assert empty.grid == (1, 1, 1) and empty.arg("zero_iters").value == 0 and empty.arg("o").bytes == 0
    with pytest.raises(LaunchError, match="not a multiple of 4"):
        launch(spec, {"batch": 1, "seqlen_q": 1, "heads_q": 1, "zero_count": 6})
    with pytest.raises(LaunchError, match="missing: seqlen_q"):
        launch(spec, {"batch": 1, "heads_q": 3})


def test_config_file_coverage() -> None:
    lines = family_configs(FAMILY)
    built = [(line.arch, AttentionBwdPrepSpec.from_kv(line.kv)) for line in lines if not line.refuse]
    for arch in ("gfx942", "gfx950", "gfx1100", "gfx1201"):
        mine = [spec for a, spec in built if a == arch]
        assert {(s.dtype, s.head_dim) for s in mine} >= {(d, h) for d in ("f16", "bf16") for h in (64, 128)}
        assert {(s.head_dim, s.seq_mode) for s in mine} >= {(h, m) for h in (64, 128) for m in ("batched", "varlen")}
    texts = [kit.build_text(FAMILY, line.kv, line.arch) for line in lines if line.refuse]
    for _, rule in SPEC_REFUSALS:
        assert any(rule.split(": ", 2)[2] in text for text in texts), rule
    for rule in ("multiple of the wave size", "lanes per row exceed the wave size"):
        assert any(rule in text for text in texts), rule


def test_library_defines_attention_bwd_prep() -> None:
    from rocke_library import families as library_families

    family = {f.name: f for f in library_families.defined()}["attention_bwd_prep"]
    assert family is FAMILY and "attention_bwd_prep" in library_families.SHIPPED
    assert family.owner == "rocke-library" and family.cpp_engine == "rocke_library_engine"
    assert None not in (family.build, family.launch, family.reference, family.numerics)
