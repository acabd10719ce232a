"""conv_igemm_fwd's launch contract: arguments, buffer sizes, grids, and the problems it refuses."""

from __future__ import annotations

import pytest
from test_conv_igemm_fwd_specs import BASE

from rocke.families.launch import LaunchContract, LaunchError
from rocke.gates.conformance import with_changes
from rocke_library.kernels.conv import conv_igemm_fwd
from rocke_library.kernels.conv.conv_igemm_fwd import ConvIgemmFwdSpec

CONV = ConvIgemmFwdSpec.from_kv(BASE)
STEM = ConvIgemmFwdSpec.from_kv(with_changes(BASE, filter_x=7, filter_y=7, pad_h=3, pad_w=3, stride_h=2,
                                             stride_w=2, vec=1, bias=0))


def test_conv_contract() -> None:
    contract = conv_igemm_fwd.launch(CONV, {"n": 2, "h": 9, "w": 10, "c": 32, "k": 70, "g": 2})
    assert [a.name for a in contract.args] == ["input", "weight", "bias", "output", "n", "h", "w", "c", "k", "g"]
    assert contract.arg("input").bytes == 2 * 9 * 10 * 32 * 2
    assert contract.arg("weight").bytes == 70 * 9 * 16 * 2
    assert contract.arg("bias").bytes == 70 * 2
    assert contract.arg("output").bytes == 2 * 9 * 10 * 70 * 2
    assert contract.grid == (1, -(-180 // 64), 2)  # 35 channels per group fit one bn = 64 tile
    assert contract.block == (CONV.threads, 1, 1) == (256, 1, 1)
    assert (contract.workspace_bytes, contract.zero_init) == (0, ())
    assert LaunchContract.from_json(contract.to_json()) == contract


def test_stem_and_depthwise_contracts() -> None:
    stem = conv_igemm_fwd.launch(STEM, {"n": 1, "h": 224, "w": 224, "c": 3, "k": 64, "g": 1})
    assert [a.name for a in stem.args] == ["input", "weight", "output", "n", "h", "w", "c", "k", "g"]
    assert stem.arg("output").bytes == 112 * 112 * 64 * 2
    assert stem.grid == (1, 112 * 112 // 64, 1)
    depthwise = conv_igemm_fwd.launch(STEM, {"n": 1, "h": 8, "w": 8, "c": 32, "k": 32, "g": 32})
    assert depthwise.arg("weight").bytes == 32 * 49 * 2
    assert depthwise.grid == (1, 1, 32)


@pytest.mark.parametrize(("spec", "problem", "message"), [
    (CONV, {"n": 1, "h": 4, "w": 4, "c": 32, "k": 9, "g": 2}, "conv_igemm_fwd: k=9 is not a multiple of g=2"),
    (CONV, {"n": 1, "h": 4, "w": 4, "c": 30, "k": 8, "g": 4}, "conv_igemm_fwd: c=30 is not a multiple of g=4"),
    (CONV, {"n": 1, "h": 4, "w": 4, "c": 24, "k": 8, "g": 2}, "conv_igemm_fwd: c/g=12 is not a multiple of vec=8"),
    (ConvIgemmFwdSpec.from_kv(with_changes(BASE, pad_h=0)), {"n": 1, "h": 2, "w": 4, "c": 16, "k": 8, "g": 1},
     "conv_igemm_fwd: a 2 x 4 input padded by 0, 1 is smaller than the filter window"),
    (CONV, {"n": 4096, "h": 512, "w": 512, "c": 16, "k": 8, "g": 1},
     "conv_igemm_fwd: buffer input needs 34359738368 bytes; at most 2147483647 are addressable"),
])
def test_refused_problems(spec: ConvIgemmFwdSpec, problem: dict[str, int], message: str) -> None:
    with pytest.raises(LaunchError) as info:
        conv_igemm_fwd.launch(spec, problem)
    assert str(info.value) == message
