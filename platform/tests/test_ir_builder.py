"""The Builder: typed helpers, result types, name hints, control flow, errors."""

from __future__ import annotations

import pytest

from rocke.ir import (
    Builder,
    KernelDef,
    Value,
    bf16,
    f16,
    f32,
    i1,
    i8,
    i16,
    i32,
    i64,
    print_kernel,
    ptr,
    rsrc,
    vec,
)


def _builder() -> tuple[Builder, Value, Value]:
    b = Builder("k")
    x = b.param("x", ptr(f32, "global"), noalias=True)
    n = b.param("n", i32)
    return b, x, n


def test_value_bool_refuses_python_control_flow():
    b, _, n = _builder()
    cond = b.cmpi("slt", n, n)
    with pytest.raises(TypeError, match="device values cannot drive Python control flow"):
        if cond:
            pass
    with pytest.raises(TypeError, match=r"value %\d+ : i1"):
        bool(cond)
    with pytest.raises(TypeError):
        _ = n and n


def test_result_types_follow_type_rules():
    b, x, n = _builder()
    h = b.const(1.5, f16)
    assert b.add(h, h).type == f16
    assert b.cmpf("olt", h, h).type == i1
    assert b.extf(h, f32).type == f32
    assert b.load(x, n).type == f32
    assert b.load(x, n, lanes=4).type == vec(f32, 4)
    assert b.splat(h, 8).type == vec(f16, 8)
    assert b.extract(b.splat(h, 8), 7).type == f16
    assert b.thread_id_x().type == i32
    assert b.make_rsrc(x, n).type == rsrc
    assert b.buffer_load(b.make_rsrc(x, n), n, vec(i32, 4)).type == vec(i32, 4)
    assert b.lds_alloc(vec(f16, 4), 64).type == ptr(vec(f16, 4), "lds")
    assert b.bitcast(b.splat(h, 2), i32).type == i32
    assert b.mma("any_id", b.splat(h, 4), b.splat(h, 4), b.splat(b.const(0.0, f32), 4)).type == vec(f32, 4)
    assert b.ptr_add(x, b.const(3, i64)).type == ptr(f32, "global")


def test_name_hints_are_kept():
    b, _, n = _builder()
    tid = b.thread_id_x(name="tid")
    acc = b.add(tid, n, name="acc.0")
    assert (tid.name, acc.name) == ("tid", "acc.0")
    with pytest.raises(ValueError, match="invalid name hint 'a b'"):
        b.add(tid, n, name="a b")
    with pytest.raises(ValueError, match="invalid name hint '0x'"):
        b.thread_id_x(name="0x")


def test_constants_are_normalized():
    b, _, _ = _builder()
    assert b.const(0xFFFFFFFF, i32).id >= 0
    k = b.finish()
    assert k.body.ops[0].attrs["value"] == -1
    b = Builder("c")
    values = [b.const(v, t) for v, t in [(True, i1), (-1, i1), (0.1, f16), (1e9, f16), (0.1, bf16), (3, f32)]]
    k = b.finish()
    got = [op.attrs["value"] for op in k.body.ops]
    assert got[0] == 1 and got[1] == 1
    assert got[2] == 0.0999755859375 and got[3] == float("inf") and got[4] == 0.10009765625
    assert got[5] == 3.0 and isinstance(got[5], float)
    assert len(values) == 6
    b = Builder("d")
    with pytest.raises(ValueError, match=r"arith.constant: value 256 does not fit in i8"):
        b.const(256, i8)
    with pytest.raises(TypeError, match=r"arith.constant: i32 constant needs an int value, got float"):
        b.const(1.5, i32)
    with pytest.raises(TypeError, match=r"arith.constant: type must be an int or float scalar type, got vec"):
        b.const(1, vec(i32, 2))


@pytest.mark.parametrize(
    ("emit", "exc", "message"),
    [
        (
            lambda b, x, n: b.add(n, b.const(1.0, f32)),
            TypeError,
            r"arith.add: operand #1 'rhs' has type f32, expected i32 \(the type of operand #0 'lhs'\)",
        ),
        (
            lambda b, x, n: b.divf(n, n),
            TypeError,
            "arith.divf: operand #0 'lhs' has type i32, expected float",
        ),
        (
            lambda b, x, n: b.load(b.lds_alloc(f32, 4), n),
            TypeError,
            "mem.load: operand #0 'ptr' has type ptr<f32, lds>, expected ptr_global|ptr_constant",
        ),
        (
            lambda b, x, n: b.store(x, n, b.const(1, i32)),
            TypeError,
            "mem.store: operand #2 'value' has type i32, expected the pointee f32 of operand #0",
        ),
        (
            lambda b, x, n: b.extf(b.const(1.0, f32), f16),
            TypeError,
            "arith.extf: cannot cast f32 to f16: the result element must be wider",
        ),
        (lambda b, x, n: b.sitofp(n, vec(f32, 2)), TypeError, "arith.sitofp: cannot cast i32 to vec<f32x2>"),
        (lambda b, x, n: b.bitcast(n, f16), TypeError, "vec.bitcast: result type f16 has 16 bits"),
        (
            lambda b, x, n: b.cmpi("lt", n, n),
            ValueError,
            "arith.cmpi: attribute 'pred' = 'lt' is not one of: eq, ne",
        ),
        (
            lambda b, x, n: b.load(x, n, lanes=100),
            ValueError,
            r"mem.load: attribute 'lanes' = 100 is out of range 1\.\.64",
        ),
        (
            lambda b, x, n: b.load(x, n, align=3),
            ValueError,
            "attribute 'align' = 3 must be 0 or a power of two",
        ),
        (
            lambda b, x, n: b.extract(b.splat(n, 4), 4),
            ValueError,
            "vec.extract: attribute 'index' = 4 is out of range for vec<i32x4>",
        ),
        (
            lambda b, x, n: b.insert(b.splat(n, 4), b.const(1, i16), 0),
            TypeError,
            "vec.insert: operand #1 'x' has type i16, expected i32",
        ),
        (lambda b, x, n: b.add(n, 1), TypeError, "arith.add: operand #1 must be a Value, got int"),
        (lambda b, x, n: b.shuffle_xor(n, 0), ValueError, "xlane.shuffle_xor: attribute 'mask' = 0"),
        (
            lambda b, x, n: b.atomic_add_f32(b.ptr_add(x, n), n, b.const(1, i32)),
            TypeError,
            "mem.atomic_add_f32: operand #2 'value' has type i32, expected f32",
        ),
        (lambda b, x, n: b.emit("scf.yield", [n]), ValueError, "scf.yield: use for_ / if_"),
        (
            lambda b, x, n: b.emit("arith.add", [n, n], {"bogus": 1}),
            ValueError,
            "arith.add: unknown attribute 'bogus'",
        ),
        (lambda b, x, n: b.emit("arith.nope", [n]), ValueError, "unknown op 'arith.nope'"),
        (lambda b, x, n: b.emit("arith.add", [n]), TypeError, "arith.add: takes 2 operands, got 1"),
    ],
)
def test_type_errors_name_op_and_types(emit, exc, message):
    b, x, n = _builder()
    with pytest.raises(exc, match=message):
        emit(b, x, n)


def test_for_with_iter_args_and_results():
    b, x, n = _builder()
    zero, one = b.const(0, i32), b.const(1, i32)
    seen = {}

    def body(i, acc, cnt):
        seen["args"] = (i.type, acc.type, cnt.type, i.name, acc.name)
        return [b.add(acc, b.sitofp(i, f32)), b.add(cnt, one)]

    total, count = b.for_(zero, n, one, [b.const(0.0, f32), zero], body, names=["acc", "cnt"], iv_name="i")
    assert seen["args"] == (i32, f32, i32, "i", "acc")
    assert (total.type, count.type, total.name) == (f32, i32, "acc")
    b.store(x, count, total)
    k = b.finish()
    text = print_kernel(k)
    assert 'scf.for %2, %1, %3, %4, %2 body(%7 "i" : i32, %8 "acc" : f32, %9 "cnt" : i32) {' in text
    assert '%5 "acc" : f32, %6 "cnt" : i32 = scf.for' in text


def test_for_yield_type_mismatch():
    b, x, n = _builder()
    zero = b.const(0, i32)
    with pytest.raises(
        TypeError, match=r"scf.for: body yields \(i32\) but the iter values have types \(f32\)"
    ):
        b.for_(zero, n, n, [b.const(0.0, f32)], lambda i, acc: [i])
    with pytest.raises(TypeError, match=r"scf.for: operand #1 'ub' has type i64, expected i32"):
        b.for_(zero, b.const(1, i64), zero, [], lambda i: None)
    with pytest.raises(TypeError, match=r"scf.for: the body callback must return Values, got int"):
        b.for_(zero, n, n, [zero], lambda i, acc: [3])
    # a failed region leaves the builder usable
    b.store(x, n, b.const(1.0, f32))
    assert isinstance(b.finish(), KernelDef)


def test_if_with_and_without_results():
    b, x, n = _builder()
    cond = b.cmpi("sgt", n, b.const(0, i32))
    (r,) = b.if_(cond, lambda: b.const(1.0, f32), lambda: [b.const(2.0, f32)], names=["r"])
    assert r.type == f32 and r.name == "r"
    assert b.if_(cond, lambda: b.store(x, n, r)) == []
    with pytest.raises(TypeError, match=r"scf.if: then yields \(f32\) but else yields \(\)"):
        b.if_(cond, lambda: [r])
    with pytest.raises(TypeError, match=r"scf.if: operand #0 'cond' has type i32, expected i1"):
        b.if_(n, lambda: None)
    b.finish()


def test_host_time_control_flow_unrolls():
    b, x, n = _builder()
    acc = b.const(0.0, f32)
    for k in range(3):
        if k % 2 == 0:
            acc = b.add(acc, b.const(float(k), f32))
    b.store(x, n, acc)
    k = b.finish()
    assert [op.opcode for op in k.body.ops].count("arith.add") == 2


def test_params_rules():
    b = Builder("p")
    with pytest.raises(TypeError, match="param 'flag': type i1 is not allowed"):
        b.param("flag", i1)
    with pytest.raises(ValueError, match="param 'n': attribute 'noalias' applies only to pointer params"):
        b.param("n", i32, noalias=True)
    with pytest.raises(ValueError, match="param 'p': attribute 'align' = 12 must be 0 or a power of two"):
        b.param("p", ptr(f16, "global"), align=12)
    with pytest.raises(TypeError, match="not allowed"):
        b.param("l", ptr(f16, "lds"))
    b.param("n", i32)
    b.thread_id_x()
    with pytest.raises(ValueError, match="params must be declared before the first op"):
        b.param("late", i32)


def test_kernel_attrs_and_name():
    with pytest.raises(ValueError, match=r"invalid kernel name 'a.b'"):
        Builder("a.b")
    with pytest.raises(
        ValueError, match=r"kernel @k: attribute 'max_workgroup_size' = 2048 is out of range 1\.\.1024"
    ):
        Builder("k", max_workgroup_size=2048)
    k = Builder("k", waves_per_eu=4).finish()
    assert k.attrs == {"max_workgroup_size": 256, "waves_per_eu": 4}


def test_lds_alloc_only_in_kernel_body():
    b, _, n = _builder()
    cond = b.cmpi("eq", n, n)
    with pytest.raises(ValueError, match=r"mem.lds_alloc: only allowed directly in the kernel body"):
        b.if_(cond, lambda: b.lds_alloc(f32, 4) and None)


def test_nesting_depth_limit():
    b, _, n = _builder()
    cond = b.cmpi("eq", n, n)

    def nest(level):
        if level == 0:
            return None
        b.if_(cond, lambda: nest(level - 1))
        return None

    nest(63)  # kernel body + 63 nested regions = depth 64
    with pytest.raises(ValueError, match="region nesting deeper than 64"):
        nest(64)


def test_finish_numbers_in_text_order_and_freezes():
    b, x, n = _builder()
    zero = b.const(0, i32)
    (r,) = b.if_(b.cmpi("eq", n, zero), lambda: [b.const(1, i32, name="a")], lambda: [zero])
    b.store(x, r, b.const(1.0, f32))
    k = b.finish()
    # text order: params, zero (%2), cmp (%3), the if's result (%4), then the ops of its regions
    assert r.id == 4 and k.body.ops[2].regions[0].ops[0].results[0].id == 5
    assert '%4 : i32 = scf.if %3 then {\n    %5 "a" : i32 = arith.constant' in print_kernel(k)
    with pytest.raises(ValueError, match="builder of kernel @k is finished"):
        b.thread_id_x()


def test_every_helper_has_its_op():
    b, _, _ = _builder()
    assert b.const_ == b.const
    h = b.const(1.0, f16)
    assert b.truncf(b.extf(h, f32), bf16).type == bf16
    assert b.waitcnt(vmcnt=0) is None and b.barrier() is None and b.wave_lds_fence() is None
    k = b.finish()
    assert [op.opcode for op in k.body.ops][-3:] == ["sync.waitcnt", "sync.barrier", "sync.wave_lds_fence"]
    assert k.body.ops[-3].attrs == {"lgkmcnt": -1, "vmcnt": 0}


def test_bench_harness_builds_ten_thousand_ops():
    # The timing itself is measured in the bench lane (bench_ir_build.py); here only the harness is checked.
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "bench_ir_build", Path(__file__).with_name("bench_ir_build.py")
    )
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    kernel = bench.build_kernel(10_000)
    assert kernel.op_count() == 10_000
