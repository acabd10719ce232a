"""gemm's launch contract: argument order and roles, grid and block, JSON form, argument binding."""

from __future__ import annotations

import json

import pytest

from rocke.families.gemm import GemmSpec
from rocke.families.gemm import launch as launch_gemm
from rocke.families.launch import CONTRACT_FORMAT, LaunchContract, LaunchError

GEMM = GemmSpec.from_kv(
    "a_dtype=bf16 a_layout=col b_dtype=bf16 b_layout=row bias=1 bk=32 bm=64 bn=32 c_dtype=f16 double_buffer=1 "
    "lds_pad=8 op_id=wmma_f32_16x16x16_bf16_gfx11 wm=2 wn=1"
)


def test_gemm_contract() -> None:
    c = launch_gemm(GEMM, {"m": 100, "n": 70, "k": 33})
    assert [(a.name, a.type, a.role, a.bytes, a.value) for a in c.args] == [
        ("a", "ptr<bf16, global>", "input", 6600, None),
        ("b", "ptr<bf16, global>", "input", 4620, None),
        ("c", "ptr<f16, global>", "output", 14000, None),
        ("bias", "ptr<f16, global>", "input", 140, None),
        ("m", "i32", "scalar", 0, 100),
        ("n", "i32", "scalar", 0, 70),
        ("k", "i32", "scalar", 0, 33),
        ("alpha", "f32", "scalar", 0, None),
    ]
    assert c.grid == (3, 2, 1) and c.block == (64, 1, 1)
    assert c.problem == (("k", 33), ("m", 100), ("n", 70))


def test_json_is_sorted_lf_and_round_trips() -> None:
    c = launch_gemm(GEMM, {"m": 100, "n": 70, "k": 33})
    text = c.to_json()
    assert text.endswith("}\n") and "\r" not in text
    data = json.loads(text)
    assert data["format"] == CONTRACT_FORMAT
    assert json.dumps(data, sort_keys=True, indent=2) + "\n" == text
    assert list(data) == sorted(data)
    assert LaunchContract.from_json(text) == c
    with pytest.raises(LaunchError, match=r"expected format 'rocke\.launch/1'"):
        LaunchContract.from_json(text.replace(CONTRACT_FORMAT, "rocke.launch/9"))


def test_ordered_args() -> None:
    c = launch_gemm(GEMM, {"m": 100, "n": 70, "k": 33})
    given = {"a": "A", "b": "B", "c": "C", "bias": "BIAS", "alpha": 0.5}
    assert c.ordered_args(given) == ["A", "B", "C", "BIAS", 100, 70, 33, 0.5]
    assert c.ordered_args({**given, "m": 100}) == ["A", "B", "C", "BIAS", 100, 70, 33, 0.5]
    with pytest.raises(LaunchError, match="gemm: argument m is fixed to 100 by the problem"):
        c.ordered_args({**given, "m": 99})
    with pytest.raises(LaunchError, match="gemm: missing argument 'alpha'"):
        c.ordered_args({k: v for k, v in given.items() if k != "alpha"})
    with pytest.raises(LaunchError, match="gemm: unknown argument\\(s\\): d, e"):
        c.ordered_args({**given, "e": 1, "d": 2})


@pytest.mark.parametrize(
    ("problem", "message"),
    [
        ({"m": 1, "n": 1}, "gemm: the problem needs exactly the sizes m, n, k; got m, n"),
        ({"m": 1, "n": 1, "k": 0}, "gemm: problem size k must be a positive int"),
        ({"m": 1, "n": 1, "k": True}, "gemm: problem size k must be a positive int"),
        ({"m": 65536, "n": 1, "k": 16384}, "gemm: buffer a needs 2147483648 bytes; at most 2147483647 are addressable"),
    ],
)
def test_gemm_problem_refusals(problem: dict, message: str) -> None:
    with pytest.raises(LaunchError) as info:
        launch_gemm(GEMM, problem)
    assert str(info.value) == message
