"""elementwise on the simulator against an independent numpy reference, every config of the
config file at a size with a partial vector and a partial workgroup, plus negative controls.

Tolerances (|got - want| <= atol + rtol * |want|): the reference is exact math rounded once to the
storage type, so f16/bf16 allow one storage ulp (2^-10, 2^-7 relative); f32 allows the hardware's
approximate exp2/rcp (a few ulps, 1e-5 relative) in silu and gelu_tanh.
"""

from __future__ import annotations

import pytest

from rocke.families.configs import ConfigLine, load_configs
from rocke.families.elementwise import ElementwiseSpec
from rocke.families.elementwise.numerics import edge_problem, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in load_configs("elementwise") if not line.refuse]


def tail_size(spec: ElementwiseSpec) -> int:
    return edge_problem(spec)["n"]


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference(line: ConfigLine) -> None:
    spec = ElementwiseSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, tail_size(spec))
    assert result.ok, result.message


APPROX = [line for line in CONFIGS if ElementwiseSpec.from_kv(line.kv).op in ("silu", "gelu_tanh")]


@pytest.mark.parametrize("mode", ["up", "down"])
@pytest.mark.parametrize("line", APPROX, ids=[f"{c.arch}:{c.lineno}" for c in APPROX])
def test_tolerance_covers_the_hardware_exp2_and_rcp(line: ConfigLine, mode: str) -> None:
    """v_exp_f32 / v_rcp_f32 are 1-ulp approximations: the configs also pass with each of them
    rounded to the neighbour above, or below, the exact value."""
    spec = ElementwiseSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, tail_size(spec), approx_rounding=mode)
    assert result.ok, result.message


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201", "sm_90"])
def test_tiny_problem(arch: str) -> None:
    spec = ElementwiseSpec.from_kv("block=64 dtype=bf16 op=sub vec=8")
    for n in (1, 7, 9):
        result = run_case(spec, arch, n)
        assert result.ok, result.message


NEGATIVE = ElementwiseSpec.from_kv("block=64 dtype=f16 op=add vec=4")


@pytest.mark.parametrize("arch", ["gfx950", "gfx1100", "sm_90"])
def test_negative_control_dropped_tail(arch: str) -> None:
    n = tail_size(NEGATIVE)
    result = run_case(NEGATIVE, arch, n, fault="drop_tail")
    assert not result.ok
    assert result.mismatches == 1 and result.worst_index == (n - 1,)  # only the partial vector's element


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201", "sm_90"])
def test_negative_control_shifted_input(arch: str) -> None:
    result = run_case(NEGATIVE, arch, tail_size(NEGATIVE), fault="shift_input")
    assert not result.ok
    assert result.mismatches > result.count // 2
