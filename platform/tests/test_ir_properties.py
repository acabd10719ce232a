"""Property tests: random well-typed kernels survive print -> parse -> print byte for byte, verify,
and canonicalize to the same text whatever their ids were."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocke.ir import (
    Builder,
    KernelDef,
    Type,
    Value,
    bf16,
    canonicalize,
    f16,
    f32,
    i1,
    i8,
    i16,
    i32,
    i64,
    parse_kernel,
    print_kernel,
    ptr,
    vec,
    verify,
)

INTS = (i8, i16, i32, i64)
FLOATS = (f16, bf16, f32)
HINTS = st.one_of(st.none(), st.sampled_from(["acc", "x", "tid", "a.b", "_t0", "v_1"]))
FLOAT_VALUES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1.5, 2.0**-149, 2.0**-24, 65504.0, 3.4e38, math.inf, -math.inf]),
)


class _Gen:
    """Draws ops into a Builder, keeping per-scope pools of available values by type."""

    def __init__(self, data, b: Builder, pointers: list[Value]):
        self.data = data
        self.b = b
        self.pointers = pointers
        self.scopes: list[dict[Type, list[Value]]] = [{}]
        self.budget = data.draw(st.integers(5, 40), label="budget")

    def draw(self, strategy, label=None):
        return self.data.draw(strategy, label=label)

    def add(self, value: Value) -> Value:
        self.scopes[-1].setdefault(value.type, []).append(value)
        return value

    def values_of(self, ty: Type) -> list[Value]:
        found = []
        for scope in self.scopes:
            found.extend(scope.get(ty, []))
        return found

    def any_of(self, ty: Type) -> Value:
        pool = self.values_of(ty)
        if pool and self.draw(st.booleans()):
            return self.draw(st.sampled_from(pool))
        return self.const(ty)

    def const(self, ty: Type) -> Value:
        if ty.is_vec:
            return self.add(self.b.splat(self.const(ty.elem), ty.lanes))
        if ty == i1:
            value = self.draw(st.booleans())
        elif ty in INTS:
            value = self.draw(st.integers(-(1 << (ty.bits - 1)), (1 << ty.bits) - 1))
        else:
            value = self.draw(FLOAT_VALUES)
        return self.add(self.b.const(value, ty, name=self.draw(HINTS)))

    def nested(self, fn):
        self.scopes.append({})
        try:
            return fn()
        finally:
            self.scopes.pop()

    def ops(self, depth: int) -> None:
        count = self.draw(st.integers(0, 6) if depth else st.integers(1, 12))
        for _ in range(count):
            if self.budget <= 0:
                return
            self.budget -= 1
            self.op(depth)

    def op(self, depth: int) -> None:
        b = self.b
        kind = self.draw(
            st.sampled_from(
                ["const", "int", "float", "cmp", "cast", "vec", "mem", "gpu", "xlane", "for", "if"]
            )
        )
        name = self.draw(HINTS)
        if kind == "const":
            self.const(self.draw(st.sampled_from((i1, *INTS, *FLOATS))))
        elif kind == "int":
            ty = self.draw(st.sampled_from(INTS))
            op = self.draw(st.sampled_from(["add", "sub", "mul", "and_", "or_", "xor_", "mins", "maxu"]))
            self.add(getattr(b, op)(self.any_of(ty), self.any_of(ty), name=name))
        elif kind == "float":
            ty = self.draw(st.sampled_from(FLOATS))
            op = self.draw(st.sampled_from(["add", "divf", "minf", "fma", "exp2", "negf"]))
            x = self.any_of(ty)
            if op == "fma":
                self.add(b.fma(x, self.any_of(ty), self.any_of(ty), name=name))
            elif op in ("exp2", "negf"):
                self.add(getattr(b, op)(x, name=name))
            else:
                self.add(getattr(b, op)(x, self.any_of(ty), name=name))
        elif kind == "cmp":
            if self.draw(st.booleans()):
                ty = self.draw(st.sampled_from(INTS))
                cond = b.cmpi(
                    self.draw(st.sampled_from(["eq", "slt", "uge"])), self.any_of(ty), self.any_of(ty)
                )
            else:
                ty = self.draw(st.sampled_from(FLOATS))
                cond = b.cmpf(
                    self.draw(st.sampled_from(["olt", "une", "uno"])), self.any_of(ty), self.any_of(ty)
                )
            self.add(cond)
            self.add(b.select(cond, self.any_of(ty), self.any_of(ty), name=name))
        elif kind == "cast":
            src = self.draw(st.sampled_from(INTS))
            f = self.add(b.sitofp(self.any_of(src), self.draw(st.sampled_from(FLOATS)), name=name))
            self.add(b.fptosi(f, self.draw(st.sampled_from(INTS))))
            if f.type != f32:
                self.add(b.extf(f, f32))
            if src != i8:
                self.add(b.trunc(self.any_of(src), i8))
        elif kind == "vec":
            ty = self.draw(st.sampled_from((*INTS, *FLOATS)))
            lanes = self.draw(st.sampled_from([2, 4, 8]))
            v = self.add(b.splat(self.any_of(ty), lanes, name=name))
            index = self.draw(st.integers(0, lanes - 1))
            self.add(b.insert(v, self.add(b.extract(v, index)), lanes - 1 - index))
            if ty.bits * lanes % 32 == 0:
                self.add(b.bitcast(v, i32 if ty.bits * lanes == 32 else vec(i32, ty.bits * lanes // 32)))
        elif kind == "mem":
            p = self.draw(st.sampled_from(self.pointers))
            index = self.any_of(i32)
            lanes = self.draw(st.sampled_from([1, 2, 4]))
            loaded = self.add(
                b.load(p, index, lanes=lanes, align=self.draw(st.sampled_from([0, 4, 16])), name=name)
            )
            b.store(p, self.any_of(i32), loaded)
        elif kind == "gpu":
            self.add(
                getattr(b, self.draw(st.sampled_from(["thread_id_x", "block_id_y", "lane_id", "wave_id"])))()
            )
            if self.draw(st.booleans()):
                b.barrier()
        elif kind == "xlane":
            x = self.any_of(self.draw(st.sampled_from([i32, f32])))
            self.add(b.shuffle_xor(x, self.draw(st.integers(1, 31)), name=name))
            self.add(b.ds_swizzle(x, self.draw(st.integers(0, 0xFFFF))))
        elif kind == "for" and depth < 3:
            ity = self.draw(st.sampled_from([i32, i64]))
            carried = [
                self.any_of(self.draw(st.sampled_from([i32, f32, f16])))
                for _ in range(self.draw(st.integers(0, 2)))
            ]

            def body(iv, *args):
                def inner():
                    self.add(iv)
                    for arg in args:
                        self.add(arg)
                    self.ops(depth + 1)
                    return [self.any_of(arg.type) for arg in args]

                return self.nested(inner)

            names = [self.draw(HINTS) for _ in carried]
            for r in b.for_(
                self.any_of(ity),
                self.any_of(ity),
                self.any_of(ity),
                carried,
                body,
                names=names,
                iv_name=self.draw(HINTS),
            ):
                self.add(r)
        elif kind == "if" and depth < 3:
            types = [
                self.draw(st.sampled_from([i32, f32, vec(f16, 4)]))
                for _ in range(self.draw(st.integers(0, 2)))
            ]

            def branch():
                def inner():
                    self.ops(depth + 1)
                    return [self.any_of(t) for t in types]

                return self.nested(inner)

            else_ = branch if types or self.draw(st.booleans()) else None
            for r in b.if_(self.any_of(i1), branch, else_, names=[self.draw(HINTS) for _ in types]):
                self.add(r)


@st.composite
def kernels(draw) -> KernelDef:
    b = Builder(
        draw(st.sampled_from(["k", "rand_kernel", "_x9"])),
        max_workgroup_size=draw(st.sampled_from([64, 256, 1024])),
        waves_per_eu=draw(st.integers(0, 10)),
    )
    pointers = [
        b.param(
            "p0", ptr(f32, "global"), noalias=draw(st.booleans()), align=draw(st.sampled_from([0, 4, 16]))
        ),
        b.param("p1", ptr(f16, "global"), readonly=False, writeonly=draw(st.booleans())),
        b.param("p2", ptr(i32, "global")),
    ]
    gen = _Gen(draw(st.data()), b, pointers)
    gen.add(b.param("n", i32))
    gen.add(b.param("scale", f32))
    gen.ops(0)
    return b.finish()


def _scramble(kernel: KernelDef, seed: int) -> None:
    """Give every value a new unique id (a permutation with gaps), in place."""
    values = [p.value for p in kernel.params]
    for op in kernel.walk():
        values.extend(op.results)
        for region in op.regions:
            values.extend(region.args)
    order = list(range(len(values)))
    # a deterministic shuffle driven by seed (Fisher-Yates with an LCG)
    state = seed
    for i in range(len(order) - 1, 0, -1):
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        j = state % (i + 1)
        order[i], order[j] = order[j], order[i]
    for value, slot in zip(values, order, strict=True):
        value.id = slot * 7 + 3


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(kernels())
def test_random_kernels_round_trip_byte_identically(kernel):
    verify(kernel)
    text = print_kernel(kernel)
    parsed = parse_kernel(text)
    verify(parsed)
    assert print_kernel(parsed) == text
    assert print_kernel(canonicalize(parsed)) == text


@SETTINGS
@given(kernels(), st.integers(0, 2**32))
def test_canonicalize_is_idempotent_and_id_independent(kernel, seed):
    canonical_text = print_kernel(kernel)
    _scramble(kernel, seed)
    verify(kernel)
    scrambled_text = print_kernel(kernel)
    reparsed = parse_kernel(scrambled_text)
    assert print_kernel(reparsed) == scrambled_text
    once = canonicalize(reparsed)
    assert print_kernel(once) == canonical_text
    assert print_kernel(canonicalize(once)) == canonical_text
