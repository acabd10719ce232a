"""attention_bwd_main on the simulator against the float64 reference (written from the formulas):
one config per arch at its edge case (tails on S_q and S_k, S_q != S_k; varlen with an empty
query and an empty key sequence), every mask, GQA and MQA summed by dkv_mode=atomic, GQA as
per-query-head slices (dkv_mode=split, checked slice by slice), MHA direct,
rows that see no key (causal_br with S_q > S_k), both dq_modes, wave64 and wave32, head_dim split
over workgroups (d_chunk < head_dim); then the negative controls (test-only faults: LSE2 read in
natural-log units, causal alignment flipped, scale applied twice in dK, every chunk written at
chunk 0's columns), which must fail the same comparison; every sm_90 line of the config file at its
edge case (mma.sync, whose C column depends on the slot: two keys per lane and key atom).
Tolerances: numerics.py / docs/attention.md."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke_library.kernels.attention.attention_bwd_main import AttentionBwdMainSpec, backward
from rocke_library.kernels.attention.attention_bwd_main.family import FAMILY
from rocke_library.kernels.attention.attention_bwd_main.numerics import Case, edge_case, run_case

pytestmark = pytest.mark.numeric

SM90_CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse and line.arch == "sm_90"]

SPECS = {
    "gfx942": "block_m=32 block_n=32 d_chunk=64 dkv_mode=atomic dq_mode=atomic dtype=f16 head_dim=64 lds_pad=8 "
              "mask=causal_br op_id=mfma_f32_32x32x8_f16 seq_mode=batched waves=1",
    "gfx950": "block_m=32 block_n=64 d_chunk=64 dkv_mode=atomic dq_mode=atomic dtype=bf16 head_dim=64 lds_pad=8 "
              "mask=causal_br op_id=mfma_f32_16x16x32_bf16 seq_mode=batched waves=2",
    "gfx1100": "block_m=16 block_n=32 d_chunk=64 dkv_mode=atomic dq_mode=atomic dtype=f16 head_dim=64 lds_pad=8 "
               "mask=causal_br op_id=wmma_f32_16x16x16_f16_gfx11 seq_mode=batched waves=2",
    "gfx1201": "block_m=16 block_n=32 d_chunk=64 dkv_mode=atomic dq_mode=atomic dtype=bf16 head_dim=64 lds_pad=8 "
               "mask=causal_br op_id=wmma_f32_16x16x16_bf16_gfx12 seq_mode=batched waves=2",
    "sm_90": "block_m=32 block_n=32 d_chunk=64 dkv_mode=atomic dq_mode=atomic dtype=f16 head_dim=64 lds_pad=8 "
             "mask=causal_br op_id=mma_sync_f32_16x8x16_f16 seq_mode=batched waves=2",
}


def _spec(arch: str, **changes: str) -> AttentionBwdMainSpec:
    pairs = dict(p.split("=") for p in SPECS[arch].split(" "))
    pairs.update(changes)
    return AttentionBwdMainSpec.from_kv(" ".join(f"{k}={pairs[k]}" for k in sorted(pairs)))


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("mask", ["none", "causal_tl", "causal_br"])
def test_edge_case_every_mask(arch: str, mask: str) -> None:
    spec = _spec(arch, mask=mask)
    result = run_case(spec, arch, edge_case(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("shape", ["mqa", "mha_direct_split", "dead_rows", "gqa_dkv_split"])
def test_problems(arch: str, shape: str) -> None:
    changes = {"mha_direct_split": {"dkv_mode": "direct", "dq_mode": "split"},
               "gqa_dkv_split": {"dkv_mode": "split"}}.get(shape, {})
    case = {
        "mqa": Case((21,) * 2, (40,) * 2, 3, 1),
        "mha_direct_split": Case((19,), (45,), 2, 2),
        "dead_rows": Case((40,), (9,), 2, 1),  # causal_br: the first 31 rows see no key
        "gqa_dkv_split": Case((23,), (37,), 4, 2),  # one slice per query head, no zero-init
    }[shape]
    result = run_case(_spec(arch, **changes), arch, case)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("dkv_mode", ["atomic", "split"])
def test_varlen_with_empty_sequences(arch: str, dkv_mode: str) -> None:
    spec = _spec(arch, seq_mode="varlen", mask="causal_tl", dkv_mode=dkv_mode)
    result = run_case(spec, arch, Case((30, 0, 7, 3), (5, 3, 0, 37), 4, 2))
    assert result.ok, result.message


CHUNKED = {  # (arch, changes): head_dim 128 in chunks on wave32 (what dispatch ships) and wave64
    "gfx1100_hd128_dc32": ("gfx1100", {"head_dim": "128", "d_chunk": "32"}),
    "gfx1201_hd128_dc32_direct_split": ("gfx1201", {"head_dim": "128", "d_chunk": "32", "dkv_mode": "direct",
                                                    "dq_mode": "split", "mask": "none"}),
    "gfx942_hd128_dc64": ("gfx942", {"head_dim": "128", "d_chunk": "64"}),
    "gfx950_hd64_dc32_split_varlen": ("gfx950", {"d_chunk": "32", "dkv_mode": "split", "seq_mode": "varlen"}),
    "sm_90_hd128_dc64": ("sm_90", {"head_dim": "128", "d_chunk": "64"}),
}


@pytest.mark.parametrize("name", sorted(CHUNKED))
def test_head_dim_chunks(name: str) -> None:
    arch, changes = CHUNKED[name]
    spec = _spec(arch, **changes)
    result = run_case(spec, arch, edge_case(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", ["gfx1100", "sm_90"])
def test_chunk_origin_control_fails(arch: str) -> None:
    """Every chunk's dK, dV and dQ written at chunk 0's columns must fail (the others keep their
    sentinel or zeros, chunk 0's are overwritten or summed several times)."""
    spec = _spec(arch, head_dim="128", d_chunk="32")
    case = Case((19,), (24,), 2, 1)
    assert run_case(spec, arch, case).ok
    result = run_case(spec, arch, case, fault="chunk_origin")
    assert not result.ok, f"the chunk_origin variant passed: {result.message}"


@pytest.mark.parametrize("arch", ["gfx942", "sm_90"])
def test_split_slices_are_checked_per_query_head(arch: str) -> None:
    """The per-slice check of dkv_mode=split is not a sum: a kernel that stores each query head's
    share in its group neighbour's slice (head ^ 1; the group's sum is unchanged) must fail it."""
    spec = _spec(arch, dkv_mode="split")
    case = Case((23,), (37,), 4, 2)
    assert run_case(spec, arch, case).ok
    result = run_case(spec, arch, case, fault="split_head_swap")
    assert not result.ok, f"a split kernel writing the kv heads' slices passed: {result.message}"


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201", "sm_90"])
@pytest.mark.parametrize("fault", ["lse_natural", "causal_flip", "scale_twice"])
def test_negative_controls_fail(arch: str, fault: str) -> None:
    spec = _spec(arch)
    case = Case((27,), (36,), 2, 1)
    assert run_case(spec, arch, case).ok
    result = run_case(spec, arch, case, fault=fault)
    assert not result.ok, f"the {fault} variant passed: {result.message}"


def test_reference_against_finite_differences() -> None:
    """backward() is the gradient of L = sum(dO * O) with O = softmax(scale Q K^T + mask) V: central
    differences of L (binary64) match dQ, dK and dV, GQA summed, with a dead row (causal_br)."""
    rng = np.random.default_rng(3)
    q, k, v = rng.standard_normal((5, 2, 4)), rng.standard_normal((4, 1, 4)), rng.standard_normal((4, 1, 4))
    do = rng.standard_normal((5, 2, 4))
    scale = 0.4

    def loss(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> float:
        total = 0.0
        for h in range(2):
            for i in range(5):
                keys = [j for j in range(4) if j <= i + 4 - 5]
                if not keys:
                    continue
                s = np.array([scale * float(q[i, h] @ k[j, 0]) for j in keys])
                w = np.exp(s - s.max())
                w /= w.sum()
                o = sum(w[n] * v[j, 0] for n, j in enumerate(keys))
                total += float(do[i, h] @ o)
        return total

    got = backward("causal_br", q, k, v, do, scale)
    for name, x in (("dq", q), ("dk", k), ("dv", v)):
        numeric = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            up, down = x.copy(), x.copy()
            up[idx] += 1e-6
            down[idx] -= 1e-6
            args = {"dq": (up, k, v), "dk": (q, up, v), "dv": (q, k, up)}[name]
            args_down = {"dq": (down, k, v), "dk": (q, down, v), "dv": (q, k, down)}[name]
            numeric[idx] = (loss(*args) - loss(*args_down)) / 2e-6
        assert np.allclose(got[name], numeric, atol=1e-6), name
    assert got["lse"][0, 0] == -np.inf and not got["dq"][0].any()


@pytest.mark.parametrize("line", SM90_CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in SM90_CONFIGS])
def test_sm90_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = AttentionBwdMainSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_case(spec))
    assert result.ok, result.message
