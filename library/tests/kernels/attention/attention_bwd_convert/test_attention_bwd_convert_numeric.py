"""attention_bwd_convert on the simulator against its float64 reference: every config at its edge
case (rows not filling the last workgroup, S_q != S_k, GQA group 3, padded output strides whose
gaps must stay untouched, NaN in every workspace byte it must not read), MQA and MHA, an empty
key side, and the negative control (dkv_mode=split with only the first query head of each group
counted: the GQA sum missing), which must fail."""

from __future__ import annotations

import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke_library.kernels.attention.attention_bwd_convert import AttentionBwdConvertSpec
from rocke_library.kernels.attention.attention_bwd_convert.family import FAMILY
from rocke_library.kernels.attention.attention_bwd_convert.numerics import Case, edge_case, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]
SPLIT = "block=64 dkv_mode=split dq_mode=atomic dtype={dtype} head_dim=64 seq_mode={seq_mode} vec=4"
SPECS = {"gfx942": SPLIT.format(dtype="f16", seq_mode="batched"),
         "gfx1201": SPLIT.format(dtype="bf16", seq_mode="varlen"),
         "sm_90": SPLIT.format(dtype="f16", seq_mode="varlen")}


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = AttentionBwdConvertSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_case(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("case", [Case(1, 7, 11, 4, 1), Case(2, 5, 3, 2, 2, "padded"), Case(2, 4, 0, 2, 1)],
                         ids=["mqa", "mha_padded", "no_keys"])
def test_problems(arch: str, case: Case) -> None:
    result = run_case(AttentionBwdConvertSpec.from_kv(SPECS[arch]), arch, case)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
def test_gqa_sum_missing_fails(arch: str) -> None:
    spec = AttentionBwdConvertSpec.from_kv(SPECS[arch])
    bad = run_case(spec, arch, edge_case(spec), fault="gqa_first_head")
    assert not bad.ok, f"gqa_first_head passed: {bad.message}"
    assert " dk:" in bad.message or " dk " in bad.message, bad.message
