"""attention_fwd specs: canonical kv text, refusals with FIELD=VALUE: RULE text, the arch rules,
the register / LDS path decision from the catalog's layouts, the launch contract, and the config
file (every arch x dtype x head_dim x mask, both seq_modes, every refusal rule)."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.arch import get_arch
from rocke.families.configs import family_configs
from rocke.families.launch import LaunchError
from rocke.gates import conformance as kit
from rocke.gates.conformance import with_changes
from rocke_library.kernels.attention.attention_fwd import AttentionFwdSpec, build, launch, plan_attention
from rocke_library.kernels.attention.attention_fwd.family import FAMILY

BASE = ATTN = ("block_m=64 block_n=64 double_buffer=0 dtype=f16 head_dim=64 lds_pad=8 mask=none "
               "op_id=mfma_f32_32x32x8_f16 seq_mode=batched waves=2")

SPEC_REFUSALS = [
    ({"dtype": "f32"}, "attention_fwd: dtype=f32: must be one of f16, bf16"),
    ({"head_dim": 96}, "attention_fwd: head_dim=96: must be one of 32, 64, 128"),
    ({"mask": "sliding"}, "attention_fwd: mask=sliding: must be one of none, causal_tl, causal_br"),
    ({"seq_mode": "paged"}, "attention_fwd: seq_mode=paged: must be one of batched, varlen"),
    ({"op_id": "mfma_f32_4x4"}, "attention_fwd: op_id=mfma_f32_4x4: is not an op of the MMA catalog"),
    ({"dtype": "bf16"}, "attention_fwd: op_id=mfma_f32_32x32x8_f16: multiplies f16 inputs, not dtype=bf16"),
    ({"waves": 0}, "attention_fwd: waves=0: must be in 1..32"),
    ({"block_m": 1024}, "attention_fwd: block_m=1024: must be in 1..512"),
    ({"block_n": 0}, "attention_fwd: block_n=0: must be in 1..256"),
    ({"block_m": 96}, "attention_fwd: block_m=96: must be a multiple of waves * atom n = 2 * 32 "
                      "(mfma_f32_32x32x8_f16)"),
    ({"block_n": 48}, "attention_fwd: block_n=48: must be a multiple of atom m = 32 and atom k = 8 "
                      "(mfma_f32_32x32x8_f16)"),
    ({"lds_pad": 65}, "attention_fwd: lds_pad=65: must be in 0..64"),
]


def test_kv_round_trip_and_frozen() -> None:
    spec = AttentionFwdSpec.from_kv(ATTN)
    assert spec.to_kv() == ATTN
    assert spec.threads == 128 and spec.wave_rows == 32
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.waves = 4  # type: ignore[misc]


GFX11 = {"op_id": "wmma_f32_16x16x16_f16_gfx11", "waves": 4}
ARCH_REFUSALS = [
    ({"op_id": "mfma_f32_32x32x16_f16"}, "gfx942",
     "attention_fwd: op_id=mfma_f32_32x32x16_f16: is not available on gfx942 (it runs on gfx950)"),
    ({"block_m": 512, "op_id": "mfma_f32_16x16x16_f16", "waves": 32}, "gfx942",
     "attention_fwd: waves=32: 32 waves of 64 lanes exceed the 1024-thread workgroup limit of gfx942"),
    ({"block_n": 256, "head_dim": 128}, "gfx942",
     "attention_fwd: block_n=256: the LDS tiles (K and V^T) need 137216 bytes, over the 65536 bytes of gfx942"),
    ({**GFX11, "block_n": 128, "head_dim": 128}, "gfx1100",
     "attention_fwd: block_n=128: the LDS tiles (K, V^T and P) need 87040 bytes, over the 65536 bytes of gfx1100"),
    ({**GFX11, "block_n": 32, "head_dim": 128}, "gfx1100",
     "attention_fwd: block_n=32: the key loop holds 144 VGPRs per lane (O and S^T accumulators, Q^T fragments), "
     "over the budget of 140"),
    ({"double_buffer": True, "head_dim": 128}, "gfx942",
     "attention_fwd: double_buffer=1: the LDS tiles (K and V^T) need 71680 bytes with two stages of K and V^T, "
     "over the 65536 bytes of gfx942 (one stage: 35840 bytes)"),
    ({**GFX11, "block_n": 32, "double_buffer": True, "head_dim": 128}, "gfx1100",
     "attention_fwd: block_n=32: the key loop holds 144 VGPRs per lane (O and S^T accumulators, Q^T fragments), "
     "over the budget of 140"),
]


class TestAttentionFwdSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS
    fine_on = None  # the atoms are arch-specific: a refused spec has no other arch to build on


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    kit.check_spec_refusal(AttentionFwdSpec, with_changes(BASE, head_dim=96, waves=0, lds_pad=70),
                           "attention_fwd: head_dim=96: must be one of 32, 64, 128")


def test_a_shape_the_arch_refuses_builds_where_it_fits() -> None:
    build(AttentionFwdSpec.from_kv(with_changes(ATTN, block_n=32, head_dim=128)), "gfx942")
    build(AttentionFwdSpec.from_kv(with_changes(ATTN, block_m=32, block_n=32, head_dim=32,
                                                op_id="mfma_f32_16x16x16_f16", waves=1)), "gfx942")


@pytest.mark.parametrize(("arch", "op_id", "registers"), [
    ("gfx942", "mfma_f32_32x32x8_f16", True),  # C rows of S^T = B rows (k) of P^T, lane for lane
    ("gfx942", "mfma_f32_16x16x16_bf16", True),
    ("gfx950", "mfma_f32_32x32x16_f16", False),  # k = 16 per atom: the C slots hold other keys
    ("gfx950", "mfma_f32_16x16x32_bf16", False),
    ("gfx1100", "wmma_f32_16x16x16_f16_gfx11", False),  # B replicated over both half-waves
    ("gfx1201", "wmma_f32_16x16x16_bf16_gfx12", True),
])
def test_p_path_follows_the_layouts(arch: str, op_id: str, registers: bool) -> None:
    dtype = "bf16" if "bf16" in op_id else "f16"
    waves = 4 if arch.startswith("gfx1") else 2
    spec = AttentionFwdSpec.from_kv(with_changes(ATTN, op_id=op_id, dtype=dtype, waves=waves))
    plan = plan_attention(spec, get_arch(arch))
    assert (plan.chain is not None) == registers
    assert (plan.p_tile is None) == registers
    text = build(spec, arch).name
    assert text == spec.kernel_name()


def test_double_buffer_doubles_the_kv_tiles() -> None:
    for arch, changes in (("gfx942", {}), ("gfx1100", {**GFX11, "block_n": 32})):
        one = plan_attention(AttentionFwdSpec.from_kv(with_changes(ATTN, **changes)), get_arch(arch))
        two = plan_attention(AttentionFwdSpec.from_kv(with_changes(ATTN, double_buffer=True, **changes)),
                             get_arch(arch))
        kv_bytes = one.k_tile.nbytes(2) + one.v_tile.nbytes(2)
        assert two.k_tile.stages == two.v_tile.stages == 2 and one.k_tile.stages == 1
        assert two.lds_bytes == one.lds_bytes + kv_bytes  # the P tile (gfx1100) keeps one stage
        assert (two.p_tile is None) == (arch == "gfx942")


def test_launch_contract_batched_and_varlen() -> None:
    spec = AttentionFwdSpec.from_kv(ATTN)
    c = launch(spec, {"batch": 2, "seqlen_q": 100, "seqlen_k": 70, "heads_q": 8, "heads_kv": 2})
    assert c.grid == (2, 8, 2) and c.block == (128, 1, 1)
    names = [a.name for a in c.args]
    assert names[:6] == ["q", "k", "v", "o", "lse", "scale"]
    assert c.arg("q").bytes == 2 * 100 * 8 * 64 * 2 and c.arg("k").bytes == 2 * 70 * 2 * 64 * 2
    assert c.arg("lse").bytes == 2 * 8 * 100 * 4 and c.arg("group").value == 4
    assert c.arg("k_stride_s").value == 2 * 64 and c.arg("q_stride_b").value == 100 * 8 * 64
    var = AttentionFwdSpec.from_kv(with_changes(ATTN, seq_mode="varlen"))
    c = launch(var, {"batch": 3, "max_seqlen_q": 130, "total_q": 200, "total_k": 90, "heads_q": 4, "heads_kv": 1})
    assert c.grid == (3, 4, 3)
    assert [a.name for a in c.args][5:7] == ["cu_seqlens_q", "cu_seqlens_k"]
    assert c.arg("lse").bytes == 4 * 200 * 4 and c.arg("cu_seqlens_k").bytes == 16
    with pytest.raises(LaunchError, match="not a multiple of heads_kv"):
        launch(spec, {"batch": 1, "seqlen_q": 1, "seqlen_k": 1, "heads_q": 3, "heads_kv": 2})
    with pytest.raises(LaunchError, match="missing: seqlen_k"):
        launch(spec, {"batch": 1, "seqlen_q": 1, "heads_q": 3, "heads_kv": 3})


def test_config_file_coverage() -> None:
    lines = family_configs(FAMILY)
    built = [(line.arch, AttentionFwdSpec.from_kv(line.kv)) for line in lines if not line.refuse]
    for arch in ("gfx942", "gfx950", "gfx1100", "gfx1201"):
        mine = [spec for a, spec in built if a == arch]
        assert {(s.dtype, s.head_dim, s.mask) for s in mine} >= {
            (d, h, m) for d in ("f16", "bf16") for h in (64, 128) for m in ("none", "causal_tl", "causal_br")}
        assert {(s.mask, s.seq_mode) for s in mine} == {
            (m, q) for m in ("none", "causal_tl", "causal_br") for q in ("batched", "varlen")}
    refusals = [line for line in lines if line.refuse]
    texts = [kit.build_text(FAMILY, line.kv, line.arch) for line in refusals]
    for rule in ("head_dim=96: must be one of", "must be a multiple of atom m", "over the 65536 bytes",
                 "with two stages of K and V^T", "by its resources at the real LLVM",
                 "VGPRs per lane", "is not available on", "-thread workgroup limit"):
        assert any(rule in text for text in texts), rule


def test_library_defines_attention_fwd() -> None:
    from rocke_library import families as library_families

    family = {f.name: f for f in library_families.defined()}["attention_fwd"]
    assert family is FAMILY and "attention_fwd" in library_families.SHIPPED
    assert family.owner == "rocke-library" and family.package == "rocke_library.kernels.attention.attention_fwd"
    assert family.cpp_engine == "rocke_library_engine" and family.native_emitter == "rocke-library-emit"
    assert family.spec is AttentionFwdSpec
    assert None not in (family.build, family.launch, family.reference, family.numerics)
    assert family_configs(family)
