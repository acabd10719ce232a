"""img2col's launch contract: arguments, buffer sizes, grid, and the problems it refuses."""

from __future__ import annotations

import pytest

from rocke.families.launch import LaunchContract, LaunchError
from rocke_library.kernels.conv import img2col
from rocke_library.kernels.conv.img2col import Img2colSpec

IMG2COL = Img2colSpec.from_kv("block=256 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 "
                              "stride_h=2 stride_w=2 vec=8")


def test_img2col_contract() -> None:
    contract = img2col.launch(IMG2COL, {"n": 2, "h": 15, "w": 16, "c": 32, "g": 2})
    assert [(a.name, a.type, a.role) for a in contract.args] == [
        ("input", "ptr<f16, global>", "input"), ("col", "ptr<f16, global>", "output"),
        ("n", "i32", "scalar"), ("h", "i32", "scalar"), ("w", "i32", "scalar"), ("c", "i32", "scalar"),
        ("g", "i32", "scalar")]
    assert contract.arg("input").bytes == 2 * 15 * 16 * 32 * 2
    assert contract.arg("col").bytes == 2 * (2 * 8 * 8) * 9 * 16 * 2  # g x M x (taps * C/g)
    assert contract.grid == (-(-(2 * 8 * 8 * 2) // 256), 2, 1)
    assert contract.block == (256, 1, 1)
    assert contract.problem == (("c", 32), ("g", 2), ("h", 15), ("n", 2), ("w", 16))
    assert LaunchContract.from_json(contract.to_json()) == contract


@pytest.mark.parametrize(("problem", "message"), [
    ({"n": 1, "h": 4, "w": 4, "c": 30, "g": 4}, "img2col: c=30 is not a multiple of g=4"),
    ({"n": 1, "h": 4, "w": 4, "c": 24, "g": 2}, "img2col: channels per group c/g=12 are not a multiple of vec=8"),
    ({"n": 1, "h": 4, "w": 4, "c": 16}, "img2col: the problem needs exactly the sizes n, h, w, c, g; got c, h, n, w"),
])
def test_refused_problems(problem: dict[str, int], message: str) -> None:
    with pytest.raises(LaunchError) as info:
        img2col.launch(IMG2COL, problem)
    assert str(info.value) == message
