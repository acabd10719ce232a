"""Both engines read the same tables: op table, arch facts, MMA catalog, layout formulas.

The C++ engine's tables are generated from the TOML files the Python engine reads; these tests
compare what each engine made of them, through the rocke_engine bindings of the installed wheel.
"""

from __future__ import annotations

import dataclasses
import tomllib
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.arch import ARCH_NAMES, FEATURE_NAMES, MMA_OPS, LayoutExprError, eval_layout_expr, get_arch
from rocke.arch.errors import UnknownArchError, UnknownFeatureError
from rocke.engine import native_engine
from rocke.ir import OPS

pytestmark = pytest.mark.parity


@pytest.fixture(scope="module")
def engine() -> Any:
    return native_engine()


def _ops_rows() -> list[dict[str, Any]]:
    with resources.files("rocke.ir").joinpath("data", "ops.toml").open("rb") as handle:
        return tomllib.load(handle)["op"]


def _normalized_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row with the keys that only restate a default (variadic = false, ...) dropped."""
    row = dict(row)
    for slots in ("operands", "results"):
        row[slots] = [{k: v for k, v in slot.items() if not (k == "variadic" and v is False)} for slot in row[slots]]
    row["attrs"] = [{k: v for k, v in a.items() if not (k == "zero_or_pow2" and v is False)} for a in row["attrs"]]
    return row


def _python_op_row(opdef: Any) -> dict[str, Any]:
    """What the Python registry made of a row, in the same shape."""

    def slot(s: Any) -> dict[str, Any]:
        return {"name": s.name, "type": s.constraint.text, **({"variadic": True} if s.variadic else {})}

    def attr(a: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"name": a.name, "type": a.kind}
        for key, value in (("default", a.default), ("min", a.min), ("max", a.max)):
            if value is not None:
                out[key] = value
        if a.zero_or_pow2:
            out["zero_or_pow2"] = True
        if a.enum is not None:
            out["enum"] = list(a.enum)
        return out

    return {
        "name": opdef.name,
        "builder": opdef.builder,
        "summary": opdef.summary,
        "operands": [slot(s) for s in opdef.operands],
        "results": [slot(s) for s in opdef.results],
        "attrs": [attr(a) for a in opdef.attrs],
        "type_rule": opdef.type_rule,
        "pure": opdef.pure,
        "convergent": opdef.convergent,
        "feature": opdef.feature,
        "arch_rule": opdef.arch_rule,
        "checks": list(opdef.checks),
        "placement": opdef.placement,
        "regions": [{"name": r.name, "args": r.args, "terminator": r.terminator} for r in opdef.regions],
    }


def test_op_table_equals_ops_toml_and_the_python_registry(engine):
    table = engine.op_table()
    assert engine.op_count() == len(OPS) == len(table)
    assert table == [_normalized_row(row) for row in _ops_rows()]
    assert table == [_python_op_row(op) for op in OPS]


@pytest.mark.parametrize("name", ARCH_NAMES)
def test_arch_facts_are_equal(engine, name):
    arch = get_arch(name)
    assert engine.arch_facts(name) == {f.name: getattr(arch, f.name) for f in dataclasses.fields(arch)}
    assert list(engine.arch_facts(name)) == [f.name for f in dataclasses.fields(arch)]


def test_arch_names_and_unknown_arch(engine):
    assert engine.arch_names() == ARCH_NAMES
    with pytest.raises(UnknownArchError) as py_info:
        get_arch("gfx90a")
    with pytest.raises(UnknownArchError) as cpp_info:
        engine.arch_facts("gfx90a")
    assert str(cpp_info.value) == str(py_info.value)


def test_arch_protocol_is_equal(engine):
    """has_feature and mma_signature (the verifier's ArchLike protocol) answer alike."""
    op_ids = [op.id for op in MMA_OPS] + ["mfma_f32_99x99x99_f16", ""]
    for name in ARCH_NAMES:
        arch = get_arch(name)
        for feature in FEATURE_NAMES:
            assert engine.has_feature(name, feature) == arch.has_feature(feature)
        for op_id in op_ids:
            signature = arch.mma_signature(op_id)
            assert engine.mma_signature(name, op_id) == (None if signature is None else tuple(map(str, signature)))
    with pytest.raises(UnknownFeatureError) as py_info:
        get_arch("gfx942").has_feature("warp_speed")
    with pytest.raises(UnknownFeatureError) as cpp_info:
        engine.has_feature("gfx942", "warp_speed")
    assert str(cpp_info.value) == str(py_info.value)


def _python_mma(op: Any) -> dict[str, Any]:
    def operand(o: Any) -> dict[str, Any]:
        return {
            "name": o.name,
            "dtype": o.dtype,
            "length": o.length,
            "llvm_elem": o.llvm_elem,
            "replication": o.replication,
            "row": o.row,
            "col": o.col,
            "rows": o.rows,
            "cols": o.cols,
            "ir_type_text": o.ir_type_text,
            "llvm_type": o.llvm_type,
        }

    return {
        "id": op.id,
        "kind": op.kind,
        "archs": op.archs,
        "wave_size": op.wave_size,
        "m": op.m,
        "n": op.n,
        "k": op.k,
        "intrinsic": op.intrinsic,
        "mnemonic": op.mnemonic,
        "imm_operands": tuple((i.name, i.type, i.value) for i in op.imm_operands),
        "source": op.source,
        "layout_source": op.layout_source,
        "a": operand(op.a),
        "b": operand(op.b),
        "c": operand(op.c),
        "llvm_call_types": op.llvm_call_types(),
    }


def test_mma_catalog_is_equal(engine):
    assert engine.mma_catalog() == [_python_mma(op) for op in MMA_OPS]


def test_layout_formulas_agree_on_every_lane_and_slot(engine):
    for op in MMA_OPS:
        for frag in (op.a, op.b, op.c):
            for formula in (frag.row, frag.col):
                for lane in range(op.wave_size):
                    for slot in range(frag.length):
                        want = eval_layout_expr(formula, lane=lane, slot=slot)
                        assert engine.eval_layout_expr(formula, lane, slot) == want, (op.id, formula, lane, slot)


def _layout_outcome(fn: Any) -> tuple[str, Any]:
    try:
        return ("value", fn())
    except LayoutExprError as exc:
        return (type(exc).__name__, str(exc))


LAYOUT_EDGE_CASES = [
    "", " ", "lane", "slot", "lane % 0", "lane / (slot - slot)", "2147483647 + 1", "2147483648", "0 - 2147483647",
    "(0 - 2147483647) - 1", "65536 * 65536", "((lane)", "lane)", "lane lane", "lane +", "+ lane", "-1", "Lane",
    "lanes", "x", "lane \t", "lane # 1", "(" * 101 + ")" * 101, "1" * 201, "0000000000002147483647", "7 / -2",
    "lane\u00e9", "\u00e9", "(" * 60 + "lane" + ")" * 60,
]  # fmt: skip


@pytest.mark.parametrize("source", LAYOUT_EDGE_CASES)
def test_layout_errors_are_equal(engine, source):
    for lane, slot in ((0, 0), (5, 3), (-7, 2), (2**31 - 1, 1), (2**31, 0), (0, -(2**40)), (True, 0), (0, 1.0)):
        py = _layout_outcome(lambda lane=lane, slot=slot: eval_layout_expr(source, lane=lane, slot=slot))
        cpp = _layout_outcome(lambda lane=lane, slot=slot: engine.eval_layout_expr(source, lane, slot))
        assert cpp == py, (source, lane, slot)


LAYOUT_ALPHABET = st.sampled_from(
    ["lane", "slot", "0", "1", "7", "16", "65535", "+", "-", "*", "/", "%", "(", ")", " "]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(LAYOUT_ALPHABET, max_size=25).map("".join), st.integers(-70, 70), st.integers(-70, 70))
def test_random_layout_formulas_are_equal(engine, source, lane, slot):
    py = _layout_outcome(lambda: eval_layout_expr(source, lane=lane, slot=slot))
    cpp = _layout_outcome(lambda: engine.eval_layout_expr(source, lane, slot))
    assert cpp == py
