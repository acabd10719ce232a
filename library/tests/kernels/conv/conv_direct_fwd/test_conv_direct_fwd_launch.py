"""conv_direct_fwd's launch contract: arguments, buffer sizes, grids, and the problems it refuses."""

from __future__ import annotations

import pytest

from rocke.families.launch import LaunchContract, LaunchError
from rocke.gates.conformance import with_changes
from rocke_library.kernels.conv import conv_direct_fwd
from rocke_library.kernels.conv.conv_direct_fwd import ConvDirectFwdSpec

CONV_KV = ("bias=1 depthwise=0 dil_h=1 dil_w=1 dtype=bf16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 relu=1 stride_h=1 "
           "stride_w=1 thread_k=4 thread_p=4 tile_k=64 tile_p=64 vec=8")
CONV = ConvDirectFwdSpec.from_kv(CONV_KV)
DEPTHWISE = ConvDirectFwdSpec.from_kv(with_changes(CONV_KV, depthwise=1, bias=0, stride_h=2, stride_w=2, vec=4))


def test_conv_contracts() -> None:
    contract = conv_direct_fwd.launch(CONV, {"n": 2, "h": 9, "w": 10, "c": 32, "k": 70, "g": 2})
    assert [a.name for a in contract.args] == ["input", "weight", "bias", "output", "n", "h", "w", "c", "k", "g"]
    assert contract.arg("weight").bytes == 70 * 9 * 16 * 2
    assert contract.arg("bias").bytes == 70 * 2
    assert contract.arg("output").bytes == 2 * 9 * 10 * 70 * 2
    assert contract.grid == (-(-180 // 64), 1, 2)  # kg = 35 channels fit one tile of 64
    assert contract.block == (CONV.threads, 1, 1) == (256, 1, 1)
    dw = conv_direct_fwd.launch(DEPTHWISE, {"n": 1, "h": 9, "w": 9, "c": 72})
    assert [a.name for a in dw.args] == ["input", "weight", "output", "n", "h", "w", "c"]
    assert dw.arg("weight").bytes == 72 * 9 * 2
    assert dw.arg("output").bytes == 25 * 72 * 2
    assert dw.grid == (1, 2, 1)
    assert LaunchContract.from_json(dw.to_json()) == dw


@pytest.mark.parametrize(("spec", "problem", "message"), [
    (CONV, {"n": 1, "h": 4, "w": 4, "c": 32, "k": 9, "g": 2}, "conv_direct_fwd: k=9 is not a multiple of g=2"),
    (CONV, {"n": 1, "h": 4, "w": 4, "c": 24, "k": 8, "g": 2}, "conv_direct_fwd: c/g=12 is not a multiple of vec=8"),
    (DEPTHWISE, {"n": 1, "h": 4, "w": 4, "c": 10}, "conv_direct_fwd: c=10 is not a multiple of vec=4"),
    (ConvDirectFwdSpec.from_kv(with_changes(CONV_KV, pad_h=0)), {"n": 1, "h": 2, "w": 4, "c": 16, "k": 8, "g": 1},
     "conv_direct_fwd: a 2 x 4 input padded by 0, 1 is smaller than the filter window"),
    (CONV, {"n": 4096, "h": 512, "w": 512, "c": 16, "k": 8, "g": 1},
     "conv_direct_fwd: buffer input needs 34359738368 bytes; at most 2147483647 are addressable"),
])
def test_refused_problems(spec: ConvDirectFwdSpec, problem: dict[str, int], message: str) -> None:
    with pytest.raises(LaunchError) as info:
        conv_direct_fwd.launch(spec, problem)
    assert str(info.value) == message
