"""conv_igemm_dgrad's launch contract: arguments, buffer sizes, grid, and the problems it refuses."""

from __future__ import annotations

import pytest

from rocke.families.launch import LaunchContract, LaunchError
from rocke.gates.conformance import with_changes
from rocke_library.kernels.conv.conv_igemm_dgrad.contract import launch
from rocke_library.kernels.conv.conv_igemm_dgrad.spec import ConvIgemmDgradSpec

KV = ("bk=32 bm=64 bn=64 dil_h=1 dil_w=1 double_buffer=1 dtype=f16 filter_x=3 filter_y=3 lds_pad=8 "
      "op_id=mfma_f32_32x32x8_f16 pad_h=1 pad_w=1 stride_h=2 stride_w=2 vec=8 wm=2 wn=2")
SPEC = ConvIgemmDgradSpec.from_kv(KV)


def test_contract() -> None:
    contract = launch(SPEC, {"n": 2, "h": 9, "w": 10, "c": 160, "k": 48, "g": 2})
    names = ["dy", "weight", "dx", "n", "h", "w", "c", "k", "g"]
    assert [a.name for a in contract.args] == names
    assert contract.arg("dy").bytes == 2 * 5 * 5 * 48 * 2
    assert contract.arg("weight").bytes == 48 * 9 * 80 * 2
    assert contract.arg("dx").bytes == 2 * 9 * 10 * 160 * 2
    assert contract.grid == (2, 3, 2)  # 80 channels per group in tiles of 64; 180 pixels in tiles of 64
    assert contract.block == (256, 1, 1)
    assert contract.zero_init == () and contract.workspace_bytes == 0
    assert contract.problem == (("c", 160), ("g", 2), ("h", 9), ("k", 48), ("n", 2), ("w", 10))
    assert LaunchContract.from_json(contract.to_json()) == contract


@pytest.mark.parametrize(("problem", "message"), [
    ({"n": 1, "h": 4, "w": 4, "c": 32, "k": 9, "g": 2}, "conv_igemm_dgrad: k=9 is not a multiple of g=2"),
    ({"n": 1, "h": 4, "w": 4, "c": 33, "k": 9, "g": 3}, "conv_igemm_dgrad: c/g=11 is not a multiple of vec=8"),
    ({"n": 1, "h": 4, "w": 4, "c": 16, "k": 12, "g": 1}, "conv_igemm_dgrad: k/g=12 is not a multiple of vec=8"),
    ({"n": 1, "h": 4, "w": 4, "c": 16, "k": 8}, "conv_igemm_dgrad: the problem needs exactly the sizes n, h, w, c, "
                                                "k, g; got c, h, k, n, w"),
    ({"n": 4096, "h": 512, "w": 512, "c": 16, "k": 8, "g": 1},
     "conv_igemm_dgrad: buffer dy needs 4294967296 bytes; at most 2147483647 are addressable"),
])
def test_refused_problems(problem: dict[str, int], message: str) -> None:
    with pytest.raises(LaunchError) as info:
        launch(SPEC, problem)
    assert str(info.value) == message


def test_a_window_larger_than_the_input_is_refused() -> None:
    spec = ConvIgemmDgradSpec.from_kv(with_changes(KV, pad_h=0, stride_h=1))
    with pytest.raises(LaunchError, match="a 2 x 4 input padded by 0, 1 is smaller than the filter window"):
        launch(spec, {"n": 1, "h": 2, "w": 4, "c": 16, "k": 8, "g": 1})
