"""elementwise's launch contract: arguments, grid and block, and the problems it refuses."""

from __future__ import annotations

import pytest

from rocke.families.elementwise import ElementwiseSpec
from rocke.families.elementwise import launch as launch_elementwise
from rocke.families.launch import LaunchError

EW = ElementwiseSpec.from_kv("block=128 dtype=f32 op=mul vec=4")


def test_elementwise_contract() -> None:
    c = launch_elementwise(EW, {"n": 1001})
    assert [(a.name, a.type, a.role, a.bytes, a.value) for a in c.args] == [
        ("x", "ptr<f32, global>", "input", 4004, None),
        ("y", "ptr<f32, global>", "input", 4004, None),
        ("out", "ptr<f32, global>", "output", 4004, None),
        ("n", "i32", "scalar", 0, 1001),
    ]
    assert c.grid == (2, 1, 1) and c.block == (128, 1, 1)  # 1001 / 512 elements per workgroup
    assert (c.workspace_bytes, c.zero_init) == (0, ())
    assert c.kernel == EW.kernel_name() and c.spec == EW.to_kv()


def test_elementwise_problem_refusals() -> None:
    with pytest.raises(LaunchError, match="elementwise: problem size n must be a positive int"):
        launch_elementwise(EW, {"n": -5})
    with pytest.raises(LaunchError, match="elementwise: buffer x needs 2147483648 bytes"):
        launch_elementwise(EW, {"n": 2**29})
