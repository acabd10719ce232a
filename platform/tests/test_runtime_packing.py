"""Kernel parameter buffers from launch contracts (rocke.runtime.packing): offsets, bytes, refusals,
and the contract's layout equal to the built kernel's for every shipped platform config."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from rocke.families import build_family, get_family
from rocke.families.configs import family_configs
from rocke.families.elementwise.contract import launch as elementwise_launch
from rocke.families.elementwise.numerics import edge_problem as elementwise_problem
from rocke.families.elementwise.spec import ElementwiseSpec
from rocke.families.gemm.numerics import edge_problem as gemm_problem
from rocke.families.launch import KernelArg, LaunchContract
from rocke.runtime import PackError, contract_layout, kernel_layout, param_layout


def _contract(args: list[KernelArg]) -> LaunchContract:
    return LaunchContract("f", "k", "", (), tuple(args), (1, 1, 1), (64, 1, 1))


def test_elementwise_contract_packs_pointers_then_the_size():
    spec = ElementwiseSpec.from_kv("block=256 dtype=f16 op=add vec=8")
    contract = elementwise_launch(spec, {"n": 1000})
    layout = contract_layout(contract)
    assert [(s.name, s.kind, s.offset, s.size) for s in layout.slots] == [
        ("x", "pointer", 0, 8), ("y", "pointer", 8, 8), ("out", "pointer", 16, 8), ("n", "int", 24, 4)]
    assert layout.size == 28
    x, y, out = 0x7F0000001000, 0x7F0000002000, 0x7F0000003000
    data = layout.pack(contract.ordered_args({"x": x, "y": y, "out": out}))
    assert data == struct.pack("<QQQi", x, y, out, 1000)
    assert layout.unpack(data) == [x, y, out, 1000]


def test_scalars_are_aligned_to_their_size_and_f32_rounds_to_nearest():
    layout = param_layout([("m", "i32"), ("a", "ptr<f32, global>"), ("alpha", "f32"), ("big", "i64"),
                           ("table", "ptr<i32, constant>")])
    assert [(s.offset, s.size) for s in layout.slots] == [(0, 4), (8, 8), (16, 4), (24, 8), (32, 8)]
    assert layout.size == 40
    data = layout.pack([-5, 2**64 - 1, 0.1, -(2**63), 0])
    assert data[4:8] == bytes(4)  # padding before the pointer
    assert data[16:20] == np.float32(0.1).tobytes()
    assert layout.unpack(data)[:2] == [-5, 2**64 - 1]
    assert layout.pack([np.int32(-5), np.uint64(2**64 - 1), np.float32(0.1), np.int64(-(2**63)), 0]) == data


@pytest.mark.parametrize(("arg", "value", "message"), [
    (("n", "i32"), True, "argument n (i32): needs i32, got a bool"),
    (("n", "i32"), np.bool_(True), "argument n (i32): needs i32, got a bool"),
    (("n", "i32"), 2**31, "argument n (i32): 2147483648 is outside -2147483648..2147483647"),
    (("n", "i32"), 1.5, "argument n (i32): needs an int, got float"),
    (("p", "ptr<f16, global>"), -1, "argument p (ptr<f16, global>): -1 is outside 0..18446744073709551615"),
    (("p", "ptr<f16, global>"), np.zeros(4),
     "argument p (ptr<f16, global>): needs a device address (int), got ndarray"),
    (("alpha", "f32"), 1e39, "argument alpha (f32): 1e+39 is out of the f32 range"),
    (("alpha", "f32"), "1", "argument alpha (f32): needs a float, got str"),
])
def test_bad_values_are_refused_naming_the_argument(arg, value, message):
    with pytest.raises(PackError) as info:
        param_layout([arg]).pack([value])
    assert str(info.value) == message


@pytest.mark.parametrize("type_text", ["ptr<f16, lds>", "ptr<f32, private>", "f16", "bf16", "i8", "vec<f16x4>",
                                       "junk", ""])
def test_types_without_a_parameter_form_are_refused_with_the_allowed_ones(type_text):
    with pytest.raises(PackError) as info:
        param_layout([("w", type_text)])
    assert str(info.value) == (f"argument w: type '{type_text}' cannot be a kernel argument "
                               "(allowed: ptr<T, global>, ptr<T, constant>, i32, i64, f32)")


def test_the_argument_count_and_buffer_size_are_checked():
    layout = param_layout([("a", "ptr<f32, global>"), ("n", "i32")])
    with pytest.raises(PackError, match="takes 2 argument"):
        layout.pack([1])
    with pytest.raises(PackError, match="holds 12 bytes, got 8"):
        layout.unpack(bytes(8))


PROBLEMS = {"elementwise": lambda spec: elementwise_problem(spec),
            "gemm": lambda spec: dict(zip(("m", "n", "k"), gemm_problem(spec), strict=True))}


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_every_shipped_platform_config_packs_its_contract_as_its_kernel(name):
    """The contract (what a host reads) and the kernel (what is compiled) give one layout."""
    family = get_family(name)
    configs = [config for config in family_configs(family) if not config.refuse]
    assert configs
    for config in configs:
        spec = family.spec.from_kv(config.kv)
        contract = family.launch(spec, PROBLEMS[name](spec))
        kernel = build_family(family, spec, config.arch)
        assert [(a.name, a.type) for a in contract.args] == [(p.name, p.type.text) for p in kernel.params]
        assert contract_layout(contract) == kernel_layout(kernel), config
