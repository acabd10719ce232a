"""elementwise on the simulator against an independent numpy reference, every config of the
config file at a size with a partial vector and a partial workgroup, plus negative controls.

Tolerances (|got - want| <= atol + rtol * |want|): the reference is exact math rounded once to the
storage type, so f16/bf16 allow one storage ulp (2^-10, 2^-7 relative); f32 allows the hardware's
approximate exp2/rcp (a few ulps, 1e-5 relative) in silu and gelu_tanh.
"""

from __future__ import annotations

import numpy as np
import pytest

from rocke.families.configs import ConfigLine, load_configs
from rocke.families.elementwise import NUMPY_DTYPES, ElementwiseSpec, build, launch, reference
from rocke.sim import Comparison, compare, run

pytestmark = pytest.mark.numeric

TOL = {"f32": (1e-5, 1e-6), "f16": (1e-3, 1e-4), "bf16": (8e-3, 1e-3)}  # (rtol, atol)
CANARY = 7.0  # out starts as this; the reference never produces it at these inputs
CONFIGS = [line for line in load_configs("elementwise") if not line.refuse]


def tail_size(spec: ElementwiseSpec) -> int:
    """Two full workgroups, three full vectors and one element: a partial vector and a nearly empty
    last workgroup."""
    return 2 * spec.block * spec.vec + 3 * spec.vec + 1


def run_case(spec: ElementwiseSpec, arch: str, n: int, fault: str = "") -> Comparison:
    contract = launch(spec, {"n": n})
    rng = np.random.default_rng(n)
    dtype = NUMPY_DTYPES[spec.dtype]
    inputs = {name: rng.uniform(-6.0, 6.0, n).astype(dtype) for name in spec.inputs}
    out = np.full(n, CANARY, dtype)
    kernel = build(spec, arch, _fault=fault)
    run(kernel, arch=arch, grid=contract.grid, block=contract.block, args=contract.ordered_args({**inputs, "out": out}))
    rtol, atol = TOL[spec.dtype]
    return compare(out, reference(spec, inputs)["out"], rtol=rtol, atol=atol, name=f"{spec.op} {spec.dtype}")


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference(line: ConfigLine) -> None:
    spec = ElementwiseSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, tail_size(spec))
    assert result.ok, result.message


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_tiny_problem(arch: str) -> None:
    spec = ElementwiseSpec.from_kv("block=64 dtype=bf16 op=sub vec=8")
    for n in (1, 7, 9):
        result = run_case(spec, arch, n)
        assert result.ok, result.message


NEGATIVE = ElementwiseSpec.from_kv("block=64 dtype=f16 op=add vec=4")


@pytest.mark.parametrize("arch", ["gfx950", "gfx1100"])
def test_negative_control_dropped_tail(arch: str) -> None:
    n = tail_size(NEGATIVE)
    result = run_case(NEGATIVE, arch, n, fault="drop_tail")
    assert not result.ok
    assert result.mismatches == 1 and result.worst_index == (n - 1,)  # only the partial vector's element


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201"])
def test_negative_control_shifted_input(arch: str) -> None:
    result = run_case(NEGATIVE, arch, tail_size(NEGATIVE), fault="shift_input")
    assert not result.ok
    assert result.mismatches > result.count // 2
