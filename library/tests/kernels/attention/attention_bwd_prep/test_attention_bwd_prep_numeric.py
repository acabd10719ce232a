"""attention_bwd_prep on the simulator against its float64 reference: every config at its edge case
(rows not a multiple of the block, dead rows at LSE = -inf and NaN, a GQA-sized zero region in a
NaN-filled workspace), a [B, H, S, D] strided layout, an empty problem, and the negative controls
(LSE2 left in natural-log units, D left 0, the zero-fill skipped), which must fail."""

from __future__ import annotations

import pytest

from rocke.families.configs import ConfigLine, family_configs
from rocke_library.kernels.attention.attention_bwd_prep import AttentionBwdPrepSpec
from rocke_library.kernels.attention.attention_bwd_prep.family import FAMILY
from rocke_library.kernels.attention.attention_bwd_prep.numerics import Case, edge_case, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in family_configs(FAMILY) if not line.refuse]
SPECS = {
    "gfx942": "block=128 dtype=f16 head_dim=64 seq_mode=batched vec=4",
    "gfx1100": "block=64 dtype=bf16 head_dim=128 seq_mode=varlen vec=8",
    "sm_90": "block=128 dtype=f16 head_dim=128 seq_mode=batched vec=4",
}


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = AttentionBwdPrepSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, edge_case(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize("case", [Case(2, 21, 2, 40, 1, "bhsd"), Case(1, 0, 2, 5, 2), Case(3, 1, 1, 1, 1)],
                         ids=["bhsd", "empty", "one_row"])
def test_problems(arch: str, case: Case) -> None:
    result = run_case(AttentionBwdPrepSpec.from_kv(SPECS[arch]), arch, case)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", sorted(SPECS))
@pytest.mark.parametrize(("fault", "why"), [("lse_natural", "LSE2"), ("delta_zero", "D max err"),
                                            ("no_zero_fill", "zero region")])
def test_negative_controls_fail(arch: str, fault: str, why: str) -> None:
    spec = AttentionBwdPrepSpec.from_kv(SPECS[arch])
    good = run_case(spec, arch, edge_case(spec))
    bad = run_case(spec, arch, edge_case(spec), fault=fault)
    assert good.ok, good.message
    assert not bad.ok, f"{fault} passed: {bad.message}"
    assert why in bad.message, bad.message
