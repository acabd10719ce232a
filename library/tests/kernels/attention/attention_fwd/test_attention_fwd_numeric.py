"""attention_fwd on the simulator against the float64 reference (written from the formula): every
config of the config file at its edge case (tails on S_q and S_k, S_q != S_k, GQA; varlen with
an empty query and an empty key sequence), then MQA, MHA, a [B, H, S, D] strided layout, rows that
see no key (causal_br with S_q > S_k), a single key, and the negative controls (test-only faults:
LSE in log2 units, causal mask dropped, scale applied twice, wrong GQA head mapping), which must
fail the same comparison. The double_buffer configs also run over several key blocks (both LDS
stages written and read more than once, the simulator's race detector on), and without the barrier
after the copy into the other stage (test-only fault) the race detector must stop them.
Tolerances: numerics.py / docs/attention.md."""

from __future__ import annotations

import numpy as np
import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke.sim import DataRace
from rocke_library.kernels.attention.attention_fwd import AttentionFwdSpec, attend
from rocke_library.kernels.attention.attention_fwd.family import FAMILY
from rocke_library.kernels.attention.attention_fwd.numerics import Case, edge_case, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]
DOUBLE = [line for line in CONFIGS if AttentionFwdSpec.from_kv(line.kv).double_buffer]

SPECS = {
    "gfx942": "block_m=32 block_n=32 double_buffer=0 dtype=f16 head_dim=64 lds_pad=8 mask=causal_br "
              "op_id=mfma_f32_16x16x16_f16 seq_mode=batched waves=2",
    "gfx950": "block_m=32 block_n=32 double_buffer=0 dtype=bf16 head_dim=64 lds_pad=8 mask=causal_br "
              "op_id=mfma_f32_16x16x32_bf16 seq_mode=batched waves=2",
    "gfx1100": "block_m=32 block_n=32 double_buffer=0 dtype=f16 head_dim=64 lds_pad=8 mask=causal_br "
               "op_id=wmma_f32_16x16x16_f16_gfx11 seq_mode=batched waves=2",
    "gfx1201": "block_m=32 block_n=32 double_buffer=0 dtype=bf16 head_dim=64 lds_pad=8 mask=causal_br "
               "op_id=wmma_f32_16x16x16_bf16_gfx12 seq_mode=batched waves=2",
    "sm_90": "block_m=32 block_n=32 double_buffer=0 dtype=f16 head_dim=64 lds_pad=8 mask=causal_br "
             "op_id=mma_sync_f32_16x8x16_f16 seq_mode=batched waves=2",
}


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = AttentionFwdSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_case(spec))
    assert result.ok, result.message


def _spec(arch: str, **changes: str) -> AttentionFwdSpec:
    pairs = dict(p.split("=") for p in SPECS[arch].split(" "))
    pairs.update(changes)
    return AttentionFwdSpec.from_kv(" ".join(f"{k}={pairs[k]}" for k in sorted(pairs)))


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("shape", ["mqa", "mha_bhsd", "dead_rows", "one_key"])
def test_problems(arch: str, shape: str) -> None:
    case = {
        "mqa": Case((37,) * 2, (45,) * 2, 4, 1),
        "mha_bhsd": Case((19,), (53,), 2, 2, layout="bhsd"),
        "dead_rows": Case((50,), (9,), 2, 1),  # causal_br: the first 41 rows see no key
        "one_key": Case((33,), (1,), 2, 2),
    }[shape]
    result = run_case(_spec(arch), arch, case)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
def test_varlen_with_empty_sequences(arch: str) -> None:
    spec = _spec(arch, seq_mode="varlen", mask="causal_tl")
    result = run_case(spec, arch, Case((40, 0, 7, 3), (5, 3, 0, 33), 4, 2))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("fault", ["lse_log2", "no_causal", "scale_twice", "wrong_kv_head"])
def test_negative_controls_fail(arch: str, fault: str) -> None:
    spec = _spec(arch)
    case = Case((37,) * 2, (45,) * 2, 4, 2)
    assert run_case(spec, arch, case).ok
    result = run_case(spec, arch, case, fault=fault)
    assert not result.ok, f"the {fault} variant passed: {result.message}"


def test_double_buffer_configs_on_every_arch() -> None:
    assert {line.arch for line in DOUBLE} == set(SPECS)


@pytest.mark.parametrize("line", DOUBLE, ids=[f"{c.arch}:{c.lineno}" for c in DOUBLE])
def test_double_buffer_over_many_key_blocks(line: ConfigLine) -> None:
    """Four key blocks and a tail: each stage is written and read twice, the race detector runs."""
    spec = AttentionFwdSpec.from_kv(line.kv)
    rows, keys = 3 * spec.block_n + 5, 4 * spec.block_n + 5
    if spec.seq_mode == "batched":
        case = Case((rows,), (keys,), 2, 1)
    else:
        case = Case((rows, 0, 9), (keys, 3, 2 * spec.block_n + 1), 2, 1)
    result = run_case(spec, line.arch, case)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
def test_double_buffer_without_the_stage_barrier_races(arch: str) -> None:
    spec = _spec(arch, double_buffer="1")
    case = Case((37,), (3 * spec.block_n + 5,), 2, 2)
    assert run_case(spec, arch, case).ok
    with pytest.raises(DataRace):
        run_case(spec, arch, case, fault="no_stage_barrier")


def test_reference_against_the_definition() -> None:
    """attend() equals softmax written out element by element (binary64), with dead rows."""
    rng = np.random.default_rng(5)
    q, k, v = rng.standard_normal((6, 4, 8)), rng.standard_normal((4, 2, 8)), rng.standard_normal((4, 2, 8))
    out, lse = attend("causal_br", q, k, v, 0.3)
    for h in range(4):
        for i in range(6):
            keys = [j for j in range(4) if j <= i + 4 - 6]
            if not keys:
                assert lse[h, i] == -np.inf and not out[i, h].any()
                continue
            s = np.array([0.3 * float(q[i, h] @ k[j, h // 2]) for j in keys])
            w = np.exp(s) / np.exp(s).sum()
            assert abs(lse[h, i] - np.log(np.exp(s).sum())) < 1e-12
            assert np.allclose(out[i, h], sum(w[n] * v[j, h // 2] for n, j in enumerate(keys)), atol=1e-12)
