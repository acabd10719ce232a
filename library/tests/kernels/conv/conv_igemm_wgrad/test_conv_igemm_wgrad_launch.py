"""conv_igemm_wgrad's launch contracts: the direct main kernel (split_k = 1), the split-K main kernel
(f32 workspace, zero-filled first) and its convert kernel; the problems they refuse."""

from __future__ import annotations

import pytest

from rocke.families.launch import LaunchContract, LaunchError
from rocke.gates.conformance import with_changes
from rocke_library.kernels.conv.conv_igemm_wgrad.contract import launch
from rocke_library.kernels.conv.conv_igemm_wgrad.spec import ConvIgemmWgradSpec

KV = ("bk=16 bm=32 bn=32 convert=0 dil_h=1 dil_w=1 double_buffer=1 dtype=bf16 filter_x=3 filter_y=3 lds_pad=8 "
      "op_id=wmma_f32_16x16x16_bf16_gfx12 pad_h=1 pad_w=1 split_k=4 stride_h=2 stride_w=2 vec=8 wm=1 wn=2")
SPLIT = ConvIgemmWgradSpec.from_kv(KV)
DIRECT = ConvIgemmWgradSpec.from_kv(with_changes(KV, split_k=1))
CONVERT = ConvIgemmWgradSpec.from_kv(with_changes(KV, convert=1))
PROBLEM = {"n": 2, "h": 9, "w": 10, "c": 32, "k": 80, "g": 2}
SCALARS = ["n", "h", "w", "c", "k", "g"]
ELEMENTS = 80 * 9 * 16


def test_split_k_contract_states_the_workspace_and_its_zero_fill() -> None:
    contract = launch(SPLIT, PROBLEM)
    assert [a.name for a in contract.args] == ["input", "dy", "workspace", *SCALARS]
    assert contract.arg("workspace").type == "ptr<f32, global>" and contract.arg("workspace").role == "inout"
    assert contract.arg("workspace").bytes == contract.workspace_bytes == ELEMENTS * 4
    assert contract.zero_init == ("workspace",)
    assert contract.arg("input").bytes == 2 * 9 * 10 * 32 * 2
    assert contract.arg("dy").bytes == 2 * 5 * 5 * 80 * 2
    assert contract.grid == (5, 2, 8)  # 9 * 16 = 144 columns in tiles of 32; 40 rows in tiles of 32; 2 groups x 4
    assert contract.block == (64, 1, 1)
    assert LaunchContract.from_json(contract.to_json()) == contract


def test_direct_and_convert_contracts() -> None:
    direct = launch(DIRECT, PROBLEM)
    assert [a.name for a in direct.args] == ["input", "dy", "dw", *SCALARS]
    assert direct.arg("dw").bytes == ELEMENTS * 2
    assert direct.zero_init == () and direct.workspace_bytes == 0
    assert direct.grid == (5, 2, 2)
    convert = launch(CONVERT, PROBLEM)
    assert [a.name for a in convert.args] == ["workspace", "dw", "elements"]
    assert convert.arg("workspace").role == "input" and convert.arg("elements").value == ELEMENTS
    assert convert.grid == (-(-ELEMENTS // (64 * 8)), 1, 1)
    assert convert.zero_init == ()


@pytest.mark.parametrize(("problem", "message"), [
    ({"n": 1, "h": 4, "w": 4, "c": 30, "k": 8, "g": 2}, "conv_igemm_wgrad: c/g=15 is not a multiple of vec=8"),
    ({"n": 1, "h": 4, "w": 4, "c": 16, "k": 8, "g": 3}, "conv_igemm_wgrad: c=16 is not a multiple of g=3"),
])
def test_refused_problems(problem: dict[str, int], message: str) -> None:
    with pytest.raises(LaunchError) as info:
        launch(SPLIT, problem)
    assert str(info.value) == message
