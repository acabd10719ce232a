"""The op table (data/ops.toml) and the registry Python builds from it."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from rocke.ir import OP_BY_NAME, OPS, Builder, get_op
from rocke.ir.optable import CHECKS, PLACEMENTS, REGION_ARGS, TYPE_RULES

REQUIRED_OPS = [
    "arith.constant",
    "arith.add",
    "arith.sub",
    "arith.mul",
    "arith.divf",
    "arith.divs",
    "arith.divu",
    "arith.remf",
    "arith.rems",
    "arith.remu",
    "arith.and",
    "arith.or",
    "arith.xor",
    "arith.shl",
    "arith.shrs",
    "arith.shru",
    "arith.cmpi",
    "arith.cmpf",
    "arith.select",
    "arith.extf",
    "arith.truncf",
    "arith.sitofp",
    "arith.uitofp",
    "arith.fptosi",
    "arith.fptoui",
    "arith.exts",
    "arith.extu",
    "arith.trunc",
    "arith.fma",
    "arith.minf",
    "arith.maxf",
    "arith.mins",
    "arith.maxs",
    "arith.minu",
    "arith.maxu",
    "math.exp2",
    "math.log2",
    "math.rcp",
    "math.sqrt",
    "math.rsqrt",
    "gpu.thread_id_x",
    "gpu.thread_id_y",
    "gpu.thread_id_z",
    "gpu.block_id_x",
    "gpu.block_id_y",
    "gpu.block_id_z",
    "gpu.block_dim_x",
    "gpu.block_dim_y",
    "gpu.block_dim_z",
    "gpu.lane_id",
    "gpu.wave_id",
    "mem.load",
    "mem.store",
    "mem.make_rsrc",
    "mem.buffer_load",
    "mem.buffer_store",
    "mem.lds_alloc",
    "mem.lds_load",
    "mem.lds_store",
    "mem.atomic_add_f32",
    "xlane.ds_swizzle",
    "xlane.ds_bpermute",
    "xlane.readfirstlane",
    "xlane.shuffle_xor",
    "sync.barrier",
    "sync.wave_lds_fence",
    "sync.waitcnt",
    "mma.mma",
    "vec.extract",
    "vec.insert",
    "vec.splat",
    "vec.bitcast",
    "scf.for",
    "scf.if",
    "scf.yield",
]


def _raw_table():
    with resources.files("rocke.ir").joinpath("data", "ops.toml").open("rb") as handle:
        return tomllib.load(handle)["op"]


def test_required_ops_are_present():
    missing = [name for name in REQUIRED_OPS if name not in OP_BY_NAME]
    assert missing == []


def test_registry_mirrors_the_file_in_order():
    assert [op.name for op in OPS] == [row["name"] for row in _raw_table()]
    assert get_op("arith.add") is OP_BY_NAME["arith.add"]
    with pytest.raises(ValueError, match=r"unknown op 'arith.nope'"):
        get_op("arith.nope")


def test_every_row_is_explicit_and_uses_known_vocabulary():
    keys = None
    for row in _raw_table():
        keys = keys or sorted(row)
        assert sorted(row) == keys, row["name"]
    for op in OPS:
        assert op.type_rule in TYPE_RULES
        assert op.placement in PLACEMENTS
        assert all(check in CHECKS for check in op.checks)
        assert all(region.args in REGION_ARGS for region in op.regions)
        assert [a.name for a in op.attrs] == sorted(a.name for a in op.attrs)
        assert op.summary.endswith(".")


def test_every_builder_name_is_a_builder_method():
    for op in OPS:
        if op.builder:
            assert callable(getattr(Builder, op.builder, None)), op.name
    assert [op.name for op in OPS if not op.builder] == ["scf.yield"]


def test_feature_and_arch_rules():
    assert get_op("mem.atomic_add_f32").feature == "global_atomic_fadd_f32"
    assert get_op("mma.mma").arch_rule == "mma_signature"
    assert [a.name for a in get_op("mma.mma").attrs] == ["op_id"]
    assert get_op("mem.lds_alloc").placement == "kernel_body"
    assert get_op("scf.yield").placement == "terminator"
    assert [r.name for r in get_op("scf.if").regions] == ["then", "else"]
    assert get_op("arith.add").pure and not get_op("mem.store").pure
    assert get_op("xlane.shuffle_xor").convergent


def test_cmp_predicates_are_enumerated():
    assert get_op("arith.cmpi").attr("pred").enum == (
        "eq",
        "ne",
        "slt",
        "sle",
        "sgt",
        "sge",
        "ult",
        "ule",
        "ugt",
        "uge",
    )
    assert "uno" in get_op("arith.cmpf").attr("pred").enum
