"""attention_bwd_main specs: canonical kv text, refusals with FIELD=VALUE: RULE text, the arch rules,
the register / LDS path decision from the catalog's layouts, the launch contract, and the config
file (every arch x dtype x mask, both head_dims where they ship, both seq_modes, dq_modes and
dkv_modes, every refusal rule)."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.arch import get_arch
from rocke.families.configs import family_configs
from rocke.families.launch import LaunchError
from rocke.gates import conformance as kit
from rocke.gates.conformance import with_changes
from rocke_library.kernels.attention.attention_bwd_main import AttentionBwdMainSpec, build, launch, plan_main
from rocke_library.kernels.attention.attention_bwd_main.family import FAMILY

BASE = ("block_m=32 block_n=64 d_chunk=64 dkv_mode=direct dq_mode=atomic dtype=f16 head_dim=64 lds_pad=8 mask=none "
        "op_id=mfma_f32_32x32x8_f16 seq_mode=batched waves=2")
F = "attention_bwd_main"

SPEC_REFUSALS = [
    ({"dtype": "f32"}, f"{F}: dtype=f32: must be one of f16, bf16"),
    ({"head_dim": 96}, f"{F}: head_dim=96: must be one of 32, 64, 128"),
    ({"mask": "sliding"}, f"{F}: mask=sliding: must be one of none, causal_tl, causal_br"),
    ({"seq_mode": "paged"}, f"{F}: seq_mode=paged: must be one of batched, varlen"),
    ({"dq_mode": "none"}, f"{F}: dq_mode=none: must be one of atomic, split"),
    ({"dkv_mode": "sum"}, f"{F}: dkv_mode=sum: must be one of direct, atomic, split"),
    ({"op_id": "mfma_f32_4x4"}, f"{F}: op_id=mfma_f32_4x4: is not an op of the MMA catalog"),
    ({"dtype": "bf16"}, f"{F}: op_id=mfma_f32_32x32x8_f16: multiplies f16 inputs, not dtype=bf16"),
    ({"waves": 0}, f"{F}: waves=0: must be in 1..32"),
    ({"block_m": 512}, f"{F}: block_m=512: must be in 1..256"),
    ({"block_n": 0}, f"{F}: block_n=0: must be in 1..256"),
    ({"block_n": 48}, f"{F}: block_n=48: must be a multiple of waves * atom n = 2 * 32 with block_n / waves a "
                      "multiple of atom k = 8 (mfma_f32_32x32x8_f16)"),
    ({"block_m": 48}, f"{F}: block_m=48: must be a multiple of atom m = 32 and atom k = 8 (mfma_f32_32x32x8_f16)"),
    ({"d_chunk": 48}, f"{F}: d_chunk=48: must be one of 16, 32, 64, 128"),
    ({"d_chunk": 128}, f"{F}: d_chunk=128: must divide head_dim = 64"),
    ({"d_chunk": 16}, f"{F}: d_chunk=16: must be a multiple of atom m = 32 (mfma_f32_32x32x8_f16)"),
    ({"lds_pad": 65}, f"{F}: lds_pad=65: must be in 0..64"),
]

ARCH_REFUSALS = [
    ({"op_id": "mfma_f32_32x32x16_f16"}, "gfx942",
     f"{F}: op_id=mfma_f32_32x32x16_f16: is not available on gfx942 (it runs on gfx950)"),
    ({"block_m": 128, "block_n": 128, "head_dim": 128}, "gfx942",
     f"{F}: block_n=128: the LDS tiles (K, V, Q, dO, dS) need 174080 bytes, over the 65536 bytes of gfx942"),
    ({"block_m": 64, "block_n": 128}, "gfx942",
     f"{F}: block_n=128: the LDS tiles (K, V, Q, dO, dS) need 73728 bytes, over the 65536 bytes of gfx942"),
    ({"block_m": 256, "block_n": 256, "head_dim": 128}, "gfx942",
     f"{F}: block_n=256: an LDS tile holds 67584 elements, over the allocation limit of 65536"),
]


def test_kv_round_trip_and_frozen() -> None:
    spec = AttentionBwdMainSpec.from_kv(BASE)
    assert spec.to_kv() == BASE
    assert spec.threads == 128 and spec.wave_keys == 32
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.waves = 4  # type: ignore[misc]


class TestAttentionBwdMainSpecs(kit.SpecConformance):
    family, base = FAMILY, BASE
    spec_refusals, arch_refusals = SPEC_REFUSALS, ARCH_REFUSALS
    fine_on = None  # the atoms are arch-specific: a refused spec has no other arch to build on


def test_rules_run_in_order_and_report_the_first_failure() -> None:
    kit.check_spec_refusal(AttentionBwdMainSpec, with_changes(BASE, head_dim=96, waves=0, lds_pad=70),
                           f"{F}: head_dim=96: must be one of 32, 64, 128")


def test_dq_atomic_needs_the_ds_tile_split_does_not() -> None:
    """The shape whose dS^T tile (only dq_mode=atomic reads dS^T from LDS) overflows gfx942's LDS
    builds with dq_mode=split."""
    build(AttentionBwdMainSpec.from_kv(with_changes(BASE, block_m=64, block_n=128, dq_mode="split")), "gfx942")


@pytest.mark.parametrize(("arch", "op_id", "registers"), [
    ("gfx942", "mfma_f32_32x32x8_f16", True),  # C rows of S (queries) = B rows (k) of dV^T's P
    ("gfx942", "mfma_f32_16x16x16_bf16", True),
    ("gfx950", "mfma_f32_32x32x16_f16", False),  # k = 16 per atom: the C slots hold other queries
    ("gfx950", "mfma_f32_16x16x32_bf16", False),
    ("gfx1100", "wmma_f32_16x16x16_f16_gfx11", False),  # B replicated over both half-waves
    ("gfx1201", "wmma_f32_16x16x16_bf16_gfx12", True),
])
def test_p_path_follows_the_layouts(arch: str, op_id: str, registers: bool) -> None:
    dtype = "bf16" if "bf16" in op_id else "f16"
    op_m = 32 if "32x32" in op_id else 16
    k = 32 if op_id.endswith("x32_bf16") or op_id.endswith("x32_f16") else 16
    spec = AttentionBwdMainSpec.from_kv(with_changes(BASE, op_id=op_id, dtype=dtype, block_m=max(32, k),
                                                     block_n=2 * max(op_m, k), dq_mode="split"))
    plan = plan_main(spec, get_arch(arch))
    assert (plan.chain is not None) == registers
    assert (plan.p_tile is None) == registers and (plan.ds_tile is None) == registers
    assert build(spec, arch).name == spec.kernel_name()


def test_launch_contract_batched_and_varlen() -> None:
    spec = AttentionBwdMainSpec.from_kv(BASE)
    c = launch(spec, {"batch": 2, "seqlen_q": 100, "seqlen_k": 70, "heads_q": 4, "heads_kv": 4})
    assert c.grid == (2, 4, 2) and c.block == (128, 1, 1)
    names = [a.name for a in c.args]
    assert names[:10] == ["q", "k", "v", "do", "lse2", "delta", "dk", "dv", "dq_acc", "scale"]
    assert c.arg("q").bytes == 2 * 100 * 4 * 64 * 2 and c.arg("dk").bytes == 2 * 70 * 4 * 64 * 2
    assert c.arg("dq_acc").bytes == 2 * 100 * 4 * 64 * 4 and c.arg("dq_acc").type == "ptr<f32, global>"
    assert c.arg("dq_acc").role == "inout" and c.arg("dk").role == "output"
    assert c.arg("lse2").bytes == 2 * 4 * 100 * 4 and c.arg("group").value == 1
    assert c.zero_init == ("dq_acc",)
    with pytest.raises(LaunchError, match="dkv_mode=direct needs heads_q == heads_kv"):
        launch(spec, {"batch": 1, "seqlen_q": 1, "seqlen_k": 1, "heads_q": 4, "heads_kv": 2})
    gqa = AttentionBwdMainSpec.from_kv(with_changes(BASE, seq_mode="varlen", dkv_mode="atomic", dq_mode="split"))
    c = launch(gqa, {"batch": 3, "max_seqlen_k": 130, "total_q": 200, "total_k": 90, "heads_q": 4, "heads_kv": 1})
    assert c.grid == (3, 4, 3) and c.zero_init == ("dk_acc", "dv_acc")
    assert [a.name for a in c.args][8:10] == ["cu_seqlens_q", "cu_seqlens_k"]
    assert c.arg("dk_acc").bytes == 90 * 64 * 4 and c.arg("lse2").bytes == 4 * 200 * 4 and c.arg("group").value == 4
    with pytest.raises(LaunchError, match="missing: total_k"):
        launch(gqa, {"batch": 1, "max_seqlen_k": 1, "total_q": 3, "heads_q": 3, "heads_kv": 3})


def test_split_launch_contract() -> None:
    """dkv_mode=split: the grid runs per query head, dk_acc / dv_acc hold one f32 slice per query
    head over the key rows (contiguous by default, strides honoured), written by plain stores, so
    nothing but the atomic dQ workspace needs zeros."""
    spec = AttentionBwdMainSpec.from_kv(with_changes(BASE, dkv_mode="split"))
    c = launch(spec, {"batch": 2, "seqlen_q": 100, "seqlen_k": 70, "heads_q": 8, "heads_kv": 2})
    assert c.grid == (2, 8, 2) and c.zero_init == ("dq_acc",)
    assert [a.name for a in c.args][6:9] == ["dk_acc", "dv_acc", "dq_acc"]
    for name in ("dk_acc", "dv_acc"):
        arg = c.arg(name)
        assert arg.type == "ptr<f32, global>" and arg.role == "output" and arg.bytes == 2 * 70 * 8 * 64 * 4
    sizes = dict(c.problem)
    assert (sizes["dk_acc_stride_b"], sizes["dk_acc_stride_s"], sizes["dk_acc_stride_h"]) == (70 * 8 * 64, 8 * 64, 64)
    assert sizes["k_stride_s"] == 2 * 64 and c.arg("group").value == 4
    wide = launch(spec, {"batch": 1, "seqlen_q": 3, "seqlen_k": 5, "heads_q": 2, "heads_kv": 1,
                         "dv_acc_stride_s": 256})
    assert dict(wide.problem)["dv_acc_stride_s"] == 256 and wide.arg("dv_acc").bytes == (4 * 256 + 64 + 64) * 4
    split = AttentionBwdMainSpec.from_kv(with_changes(BASE, dkv_mode="split", dq_mode="split", seq_mode="varlen"))
    c = launch(split, {"batch": 2, "max_seqlen_k": 40, "total_q": 50, "total_k": 60, "heads_q": 4, "heads_kv": 1})
    assert c.zero_init == () and c.arg("dk_acc").bytes == 60 * 4 * 64 * 4


def test_config_file_coverage() -> None:
    lines = family_configs(FAMILY)
    built = [(line.arch, AttentionBwdMainSpec.from_kv(line.kv)) for line in lines if not line.refuse]
    for arch in ("gfx942", "gfx950", "gfx1100", "gfx1201"):
        mine = [spec for a, spec in built if a == arch]
        heads = (64, 128) if arch.startswith("gfx9") else (64,)
        assert {(s.dtype, s.mask) for s in mine} >= {(d, m) for d in ("f16", "bf16")
                                                     for m in ("none", "causal_tl", "causal_br")}
        assert {s.head_dim for s in mine} >= set(heads)
        assert {s.seq_mode for s in mine} == {"batched", "varlen"}
        assert {s.dq_mode for s in mine} == {"atomic", "split"}
        assert {s.dkv_mode for s in mine} == {"direct", "atomic", "split"}
        split = [s for s in mine if s.dkv_mode == "split"]
        assert {s.dtype for s in split} == {"f16", "bf16"} and {s.dq_mode for s in split} == {"atomic", "split"}
    refusals = [line for line in lines if line.refuse]
    texts = [kit.build_text(FAMILY, line.kv, line.arch) for line in refusals]
    for rule in ("head_dim=96: must be one of", "must be a multiple of atom m", "over the 65536 bytes",
                 "(K, V, Q, dO, dS)", "is not available on"):
        assert any(rule in text for text in texts), rule


def test_library_defines_attention_bwd_main() -> None:
    from rocke_library import families as library_families

    family = {f.name: f for f in library_families.defined()}["attention_bwd_main"]
    assert family is FAMILY and "attention_bwd_main" in library_families.SHIPPED
    assert family.owner == "rocke-library" and family.package == "rocke_library.kernels.attention.attention_bwd_main"
    assert family.cpp_engine == "rocke_library_engine" and family.native_emitter == "rocke-library-emit"
    assert family.spec is AttentionBwdMainSpec
    assert None not in (family.build, family.launch, family.reference, family.numerics)
