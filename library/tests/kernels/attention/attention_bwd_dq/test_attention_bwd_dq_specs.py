"""attention_bwd_dq specs: canonical kv text, refusals with FIELD=VALUE: RULE text, the arch rules,
the register / LDS path decision from the catalog's layouts, the launch contract, and the config
file (every arch x dtype x mask, both head_dims and seq_modes where they ship, every refusal rule)."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.arch import get_arch
from rocke.families.configs import family_configs
from rocke.families.launch import LaunchError
from rocke.gates import conformance as kit
from rocke.gates.conformance import with_changes
from rocke_library.kernels.attention.attention_bwd_dq import AttentionBwdDqSpec, build, launch, plan_dq
from rocke_library.kernels.attention.attention_bwd_dq.family import FAMILY

BASE = ("block_m=64 block_n=32 dtype=f16 head_dim=64 lds_pad=8 mask=none op_id=mfma_f32_32x32x8_f16 "
        "qdo_lds=0 seq_mode=batched waves=2")
F = "attention_bwd_dq"

SPEC_REFUSALS = [
    ({"dtype": "f32"}, f"{F}: dtype=f32: must be one of f16, bf16"),
    ({"head_dim": 96}, f"{F}: head_dim=96: must be one of 32, 64, 128"),
    ({"mask": "sliding"}, f"{F}: mask=sliding: must be one of none, causal_tl, causal_br"),
    ({"seq_mode": "paged"}, f"{F}: seq_mode=paged: must be one of batched, varlen"),
    ({"op_id": "mfma_f32_4x4"}, f"{F}: op_id=mfma_f32_4x4: is not an op of the MMA catalog"),
    ({"dtype": "bf16"}, f"{F}: op_id=mfma_f32_32x32x8_f16: multiplies f16 inputs, not dtype=bf16"),
    ({"waves": 0}, f"{F}: waves=0: must be in 1..32"),
    ({"block_m": 1024}, f"{F}: block_m=1024: must be in 1..512"),
    ({"block_n": 0}, f"{F}: block_n=0: must be in 1..256"),
    ({"block_m": 96}, f"{F}: block_m=96: must be a multiple of waves * atom n = 2 * 32 (mfma_f32_32x32x8_f16)"),
    ({"block_n": 48}, f"{F}: block_n=48: must be a multiple of atom m = 32 and atom k = 8 (mfma_f32_32x32x8_f16)"),
    ({"lds_pad": 65}, f"{F}: lds_pad=65: must be in 0..64"),
]

ARCH_REFUSALS = [
    ({"op_id": "mfma_f32_32x32x16_f16"}, "gfx942",
     f"{F}: op_id=mfma_f32_32x32x16_f16: is not available on gfx942 (it runs on gfx950)"),
    ({"block_n": 256, "head_dim": 128}, "gfx942",
     f"{F}: block_n=256: the LDS tiles (K, V) need 139264 bytes, over the 65536 bytes of gfx942"),
    ({"block_n": 64, "head_dim": 128, "qdo_lds": 1}, "gfx942",
     f"{F}: block_n=64: the LDS tiles (K, V, Q, dO) need 69632 bytes, over the 65536 bytes of gfx942"),
    ({"block_m": 512, "op_id": "mfma_f32_16x16x16_f16", "waves": 32}, "gfx942",
     f"{F}: waves=32: 32 waves of 64 lanes exceed the 1024-thread workgroup limit of gfx942"),
]


def test_kv_round_trip_and_frozen() -> None:
    spec = AttentionBwdDqSpec.from_kv(BASE)
    assert spec.to_kv() == BASE
    assert spec.threads == 128 and spec.wave_rows == 32
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.waves = 4  # type: ignore[misc]


class TestAttentionBwdDqSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS
    fine_on = None  # the atoms are arch-specific: a refused spec has no other arch to build on


@pytest.mark.parametrize(("arch", "op_id", "registers"), [
    ("gfx942", "mfma_f32_32x32x8_f16", True),  # C rows of dS^T (keys) = B rows (k) of dQ^T's dS^T
    ("gfx950", "mfma_f32_16x16x32_bf16", False),
    ("gfx1100", "wmma_f32_16x16x16_f16_gfx11", False),
    ("gfx1201", "wmma_f32_16x16x16_bf16_gfx12", True),
])
def test_ds_path_follows_the_layouts(arch: str, op_id: str, registers: bool) -> None:
    dtype = "bf16" if "bf16" in op_id else "f16"
    waves = 2 if "32x32" in op_id else 4
    spec = AttentionBwdDqSpec.from_kv(with_changes(BASE, op_id=op_id, dtype=dtype, waves=waves))
    plan = plan_dq(spec, get_arch(arch))
    assert (plan.chain is not None) == registers and (plan.ds_tile is None) == registers
    assert build(spec, arch).name == spec.kernel_name()


def test_qdo_lds_stages_q_and_do_in_lds() -> None:
    held = plan_dq(AttentionBwdDqSpec.from_kv(with_changes(BASE, head_dim=128)), get_arch("gfx942"))
    spec = AttentionBwdDqSpec.from_kv(with_changes(BASE, head_dim=128, qdo_lds=1))
    staged = plan_dq(spec, get_arch("gfx942"))
    assert held.q_tile is None and held.qt_frag is None and held.qdo_copy is None
    assert staged.q_tile is not None and staged.qt_frag is not None and staged.qdo_copy is not None
    assert staged.lds_bytes == held.lds_bytes + 2 * 64 * (128 + 8) * 2
    assert build(spec, "gfx942").name == spec.kernel_name()


def test_launch_contract_batched_and_varlen() -> None:
    spec = AttentionBwdDqSpec.from_kv(BASE)
    c = launch(spec, {"batch": 2, "seqlen_q": 100, "seqlen_k": 70, "heads_q": 8, "heads_kv": 2})
    assert c.grid == (2, 8, 2) and c.block == (128, 1, 1) and c.zero_init == ()
    assert [a.name for a in c.args][:8] == ["q", "k", "v", "do", "lse2", "delta", "dq", "scale"]
    assert c.arg("dq").bytes == 2 * 100 * 8 * 64 * 2 and c.arg("group").value == 4
    var = AttentionBwdDqSpec.from_kv(with_changes(BASE, seq_mode="varlen"))
    c = launch(var, {"batch": 3, "max_seqlen_q": 130, "total_q": 200, "total_k": 90, "heads_q": 4, "heads_kv": 1})
    assert c.grid == (3, 4, 3) and c.arg("lse2").bytes == 4 * 200 * 4
    with pytest.raises(LaunchError, match="not a multiple of heads_kv"):
        launch(spec, {"batch": 1, "seqlen_q": 1, "seqlen_k": 1, "heads_q": 3, "heads_kv": 2})


def test_config_file_coverage() -> None:
    lines = family_configs(FAMILY)
    built = [(line.arch, AttentionBwdDqSpec.from_kv(line.kv)) for line in lines if not line.refuse]
    for arch in ("gfx942", "gfx950", "gfx1100", "gfx1201"):
        mine = [spec for a, spec in built if a == arch]
        assert {(s.dtype, s.mask) for s in mine} >= {(d, m) for d in ("f16", "bf16")
                                                     for m in ("none", "causal_tl", "causal_br")}
        assert {s.seq_mode for s in mine} == {"batched", "varlen"}
        assert 64 in {s.head_dim for s in mine}
    texts = [kit.build_text(FAMILY, line.kv, line.arch) for line in lines if line.refuse]
    for rule in ("head_dim=96: must be one of", "must be a multiple of atom m", "over the 65536 bytes",
                 "is not available on"):
        assert any(rule in text for text in texts), rule


def test_library_defines_attention_bwd_dq() -> None:
    from rocke_library import families as library_families

    family = {f.name: f for f in library_families.defined()}["attention_bwd_dq"]
    assert family is FAMILY and "attention_bwd_dq" in library_families.SHIPPED
    assert family.owner == "rocke-library" and family.package == "rocke_library.kernels.attention.attention_bwd_dq"
    assert None not in (family.build, family.launch, family.reference, family.numerics)
