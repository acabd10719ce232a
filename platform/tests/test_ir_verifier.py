"""verify(): one negative test per rule, exact messages, and arch legality."""

from __future__ import annotations

import pytest

from rocke.ir import (
    ArchLike,
    Builder,
    KernelDef,
    Op,
    Param,
    Region,
    Type,
    Value,
    VerifyError,
    f16,
    f32,
    i1,
    i32,
    ptr,
    vec,
    verify,
)
from rocke.ir.samples import MFMA_OP_ID, WMMA_OP_ID, sample_kernels, sample_needs


class FakeArch:
    """A minimal ArchLike: a feature set and an MMA catalog."""

    def __init__(self, name: str, features: tuple[str, ...], mma: dict[str, tuple[Type, Type, Type]]):
        self.name = name
        self._features = features
        self._mma = mma

    def has_feature(self, feature: str) -> bool:
        return feature in self._features

    def mma_signature(self, op_id: str) -> tuple[Type, Type, Type] | None:
        return self._mma.get(op_id)


ALL_FEATURES = ("ds_bpermute", "ds_swizzle", "global_atomic_fadd_f32")
GFX942 = FakeArch("gfx942", ALL_FEATURES, {MFMA_OP_ID: (vec(f16, 4), vec(f16, 4), vec(f32, 4))})
GFX1100 = FakeArch("gfx1100", ALL_FEATURES, {WMMA_OP_ID: (vec(f16, 16), vec(f16, 16), vec(f32, 8))})
NO_ATOMICS = FakeArch("gfx_test", ("ds_bpermute", "ds_swizzle"), {})


def _kernel():
    """x: ptr<f32, global>, n: i32; a thread id, an if with a result, a load and a store."""
    b = Builder("k")
    x = b.param("x", ptr(f32, "global"))
    n = b.param("n", i32)
    tid = b.thread_id_x(name="tid")
    cond = b.cmpi("slt", tid, n)
    (v,) = b.if_(cond, lambda: [b.load(x, tid)], lambda: [b.const(0.0, f32)], names=["v"])
    b.store(x, tid, v)
    return b.finish()


def _fails(kernel, rule, message, arch=None):
    with pytest.raises(VerifyError) as info:
        verify(kernel, arch)
    assert info.value.rule == rule
    assert str(info.value) == message


def test_fake_arch_follows_the_protocol():
    assert isinstance(GFX942, ArchLike)
    verify(_kernel())


def test_rule_kernel():
    k = _kernel()
    k.name = "has space"
    _fails(k, "kernel", "[kernel] kernel: invalid kernel name")


def test_rule_attr_on_kernel_param_and_op():
    k = _kernel()
    k.attrs["max_workgroup_size"] = 0
    _fails(k, "attr", "[attr] kernel @k: attribute 'max_workgroup_size' = 0 is out of range 1..1024")
    k = _kernel()
    del k.attrs["waves_per_eu"]
    _fails(k, "attr", "[attr] kernel @k: missing attribute 'waves_per_eu'")
    k = _kernel()
    k.params[0].attrs["restrict"] = True
    _fails(k, "attr", "[attr] param #0 %0: unknown attribute 'restrict'")
    k = _kernel()
    load = k.body.ops[2].regions[0].ops[0]
    load.attrs["lanes"] = 0
    _fails(k, "attr", "[attr] mem.load %5 at body[2].then[0]: attribute 'lanes' = 0 is out of range 1..64")
    k = _kernel()
    k.body.ops[1].attrs["pred"] = "less"
    _fails(
        k,
        "attr",
        "[attr] arith.cmpi %3 at body[1]: attribute 'pred' = 'less' is not one of: "
        "eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge",
    )


def test_rule_param():
    k = _kernel()
    k.params = (Param(Value(0, i1, "flag")), k.params[1])
    _fails(
        k,
        "param",
        "[param] param #0 %0: type i1 is not allowed; allowed: "
        "i8|i16|i32|i64|f16|bf16|f32|ptr_global|ptr_constant",
    )
    k = _kernel()
    k.params[0].attrs.update(readonly=True, writeonly=True)
    _fails(k, "param", "[param] param #0 %0: readonly and writeonly exclude each other")


def test_rule_name():
    k = _kernel()
    k.body.ops[0].results[0].name = "bad name"
    _fails(k, "name", "[name] gpu.thread_id_x %2 at body[0]: result #0 %2 has an invalid name hint")


def test_rule_structure_and_opcode():
    k = _kernel()
    k.body.ops[1].operands = (k.body.ops[0].results[0], 7)
    _fails(k, "structure", "[structure] arith.cmpi %3 at body[1]: operand #1 must be a Value with a Type")
    k = _kernel()
    k.body.ops[0].opcode = "gpu.thread_idx"
    _fails(k, "opcode", "[opcode] gpu.thread_idx %2 at body[0]: unknown op")


def test_rule_dominance():
    k = _kernel()
    k.body.ops[0], k.body.ops[1] = k.body.ops[1], k.body.ops[0]
    _fails(
        k, "dominance", "[dominance] arith.cmpi %3 at body[0]: operand #0 %2 is not defined before this op"
    )
    k = _kernel()
    inner = k.body.ops[2].regions[0].ops[0].results[0]  # the load inside 'then'
    k.body.ops[3].operands = (k.params[0].value, k.body.ops[0].results[0], inner)
    _fails(k, "dominance", "[dominance] mem.store at body[3]: operand #2 %5 is not visible here")
    k = _kernel()
    own = k.body.ops[2].results[0]  # the if's own result used inside its region
    k.body.ops[2].regions[1].ops[-1].operands = (own,)
    _fails(k, "dominance", "[dominance] scf.yield at body[2].else[1]: operand #0 %4 is not visible here")
    foreign = Value(99, f32)
    k = _kernel()
    k.body.ops[3].operands = (k.params[0].value, k.body.ops[0].results[0], foreign)
    _fails(k, "dominance", "[dominance] mem.store at body[3]: operand #2 %99 is not defined before this op")


def test_rule_ssa():
    k = _kernel()
    k.body.ops[1].results[0].id = 2
    _fails(k, "ssa", "[ssa] arith.cmpi %2 at body[1]: value id %2 is defined twice")


def test_rule_arity():
    k = _kernel()
    cmp = k.body.ops[1]
    cmp.operands = cmp.operands[:1]
    _fails(k, "arity", "[arity] arith.cmpi %3 at body[1]: takes 2 operands, got 1")
    k = _kernel()
    k.body.ops[0].results = ()
    _fails(k, "arity", "[arity] gpu.thread_id_x at body[0]: produces 1 result, got 0")


def test_rule_type():
    k = _kernel()
    k.body.ops[0].results[0].type = f32
    _fails(
        k,
        "type",
        "[type] gpu.thread_id_x %2 at body[0]: result #0 has type f32, expected i32 (type rule fixed)",
    )
    k = _kernel()
    k.body.ops[1].results[0].type = i32
    _fails(
        k, "type", "[type] arith.cmpi %3 at body[1]: result #0 has type i32, expected i1 (type rule cmp_i1)"
    )
    k = _kernel()
    k.body.ops[2].regions[0].ops[0].results[0].type = vec(f32, 2)
    _fails(
        k,
        "type",
        "[type] mem.load %5 at body[2].then[0]: result #0 has type vec<f32x2>, expected f32 (type rule load)",
    )


def test_rule_addrspace():
    b = Builder("k")
    x = b.param("x", ptr(f32, "global"))
    c = b.param("c", ptr(f32, "constant"))
    lds = b.lds_alloc(f32, 64, name="tile")
    tid = b.thread_id_x()
    b.lds_store(lds, tid, b.load(c, tid))
    b.store(x, tid, b.lds_load(lds, tid))
    k = b.finish()
    verify(k)
    store = k.body.ops[-1]
    store.operands = (c, *store.operands[1:])  # store through the constant pointer
    _fails(
        k,
        "addrspace",
        "[addrspace] mem.store at body[5]: operand #0 'ptr' has type ptr<f32, constant>, expected ptr_global",
    )
    b2 = Builder("k2")  # then turn a global load into an LDS load
    gx = b2.param("x", ptr(f32, "global"))
    t = b2.thread_id_x()
    b2.store(gx, t, b2.load(gx, t))
    kd = b2.finish()
    kd.body.ops[1].opcode = "mem.lds_load"
    kd.body.ops[1].attrs = {"align": 0, "lanes": 1}
    _fails(
        kd,
        "addrspace",
        "[addrspace] mem.lds_load %2 at body[1]: "
        "operand #0 'ptr' has type ptr<f32, global>, expected ptr_lds",
    )


def test_rule_placement():
    k = _kernel()
    then = k.body.ops[2].regions[0]
    then.ops.insert(0, Op("mem.lds_alloc", (), (Value(50, ptr(f32, "lds")),), {"align": 16, "count": 4}))
    _fails(
        k,
        "placement",
        "[placement] mem.lds_alloc %50 at body[2].then[0]: only allowed directly in the kernel body",
    )
    k = _kernel()
    k.body.ops.insert(1, Op("scf.yield"))
    _fails(k, "placement", "[placement] scf.yield at body[1]: must be the last op of a region it terminates")
    k = _kernel()
    then = k.body.ops[2].regions[0]
    then.ops.insert(0, Op("scf.yield"))
    _fails(
        k,
        "placement",
        "[placement] scf.yield at body[2].then[0]: must be the last op of a region it terminates",
    )


def test_rule_region():
    k = _kernel()
    if_op = k.body.ops[2]
    if_op.regions = if_op.regions[:1]
    _fails(k, "region", "[region] scf.if %4 at body[2]: has 1 regions, expected 2")
    k = _kernel()
    k.body.ops[2].regions[1].ops.pop()
    _fails(k, "region", "[region] scf.if %4 at body[2]: region 'else' must end with scf.yield")
    k = _kernel()
    k.body.ops[2].regions[0].args = (Value(60, i32),)
    _fails(k, "region", "[region] scf.if %4 at body[2]: region 'then' has arguments (i32), expected ()")
    b = Builder("f")
    n = b.param("n", i32)
    b.for_(n, n, n, [b.const(0.0, f32)], lambda i, acc: [acc])
    k = b.finish()
    k.body.ops[1].regions[0].args[1].type = i32
    _fails(
        k,
        "region",
        "[region] scf.for %2 at body[1]: region 'body' has arguments (i32, i32), expected (i32, f32)",
    )


def test_rule_region_depth():
    b = Builder("deep")
    n = b.param("n", i32)
    cond = b.cmpi("eq", n, n)

    def nest(level):
        if level:
            b.if_(cond, lambda: nest(level - 1))

    nest(63)
    k = b.finish()
    region = k.body.ops[-1].regions[0]
    while region.ops[0].opcode == "scf.if":
        region = region.ops[0].regions[0]
    region.ops.insert(
        0, Op("scf.if", (cond,), (), {}, (Region((), [Op("scf.yield")]), Region((), [Op("scf.yield")])))
    )
    with pytest.raises(
        VerifyError, match=r"\[region\] scf.if at body\[1\](\.then\[0\]){63}: region nesting deeper than 64"
    ):
        verify(k)


def test_rule_yield():
    k = _kernel()
    k.body.ops[2].regions[1].ops[-1].operands = ()
    _fails(k, "yield", "[yield] scf.if %4 at body[2]: region 'else' yields (), expected (f32)")


def test_rule_arch_feature():
    k = sample_kernels()["block_reduce"]
    verify(k, GFX942)
    with pytest.raises(VerifyError) as info:
        verify(k, NO_ATOMICS)
    assert info.value.rule == "arch"
    assert str(info.value).endswith(": needs feature 'global_atomic_fadd_f32', which gfx_test does not have")
    assert str(info.value).startswith("[arch] mem.atomic_add_f32 at body[")


def test_rule_arch_mfma_on_gfx1100_names_op_op_id_and_arch():
    k = sample_kernels()["gemm_mfma"]
    verify(k)
    verify(k, GFX942)
    _fails(
        k,
        "arch",
        f"[arch] mma.mma %23 at body[9].body[7]: op_id '{MFMA_OP_ID}' is not available on gfx1100",
        GFX1100,
    )


def test_rule_arch_mma_signature_mismatch():
    k = sample_kernels()["gemm_mfma"]
    wrong = FakeArch("gfx942", ALL_FEATURES, {MFMA_OP_ID: (vec(f16, 8), vec(f16, 8), vec(f32, 4))})
    with pytest.raises(VerifyError) as info:
        verify(k, wrong)
    assert str(info.value).endswith(
        f"op_id '{MFMA_OP_ID}' on gfx942 takes (a, b, c) = (vec<f16x8>, vec<f16x8>, vec<f32x4>), "
        "got (vec<f16x4>, vec<f16x4>, vec<f32x4>)"
    )


def test_samples_verify_where_their_needs_are_met():
    needs = sample_needs()
    for name, kernel in sample_kernels().items():
        for arch in (GFX942, GFX1100, NO_ATOMICS):
            if needs[name].satisfied_by(arch):
                verify(kernel, arch)
            else:
                with pytest.raises(VerifyError, match=r"^\[arch\] "):
                    verify(kernel, arch)


def test_samples_against_real_arch_targets_when_available():
    arch_pkg = pytest.importorskip("rocke.arch")
    if not hasattr(arch_pkg, "get_arch") or not hasattr(arch_pkg, "ARCH_NAMES"):
        pytest.skip("rocke.arch has no get_arch yet")
    needs = sample_needs()
    for arch_name in arch_pkg.ARCH_NAMES:
        arch = arch_pkg.get_arch(arch_name)
        assert isinstance(arch, ArchLike)
        for name, kernel in sample_kernels().items():
            if needs[name].satisfied_by(arch):
                verify(kernel, arch)
            else:
                with pytest.raises(VerifyError, match=r"^\[arch\] "):
                    verify(kernel, arch)


def test_verify_refuses_non_kernels():
    with pytest.raises(VerifyError, match=r"^\[structure\] kernel: expected a KernelDef, got str"):
        verify("kernel")  # type: ignore[arg-type]
    k = _kernel()
    assert isinstance(k, KernelDef)
    k.body.ops.append("op")  # type: ignore[arg-type]
    _fails(k, "structure", "[structure] op at body[4]: expected an Op, got str")


def test_verify_takes_an_arch_name_and_never_skips_its_checks():
    """verify(kernel, "gfx1100") checks the arch exactly as verify(kernel, get_arch("gfx1100"))."""
    from rocke.arch import UnknownArchError, get_arch
    from rocke.ir.samples import gemm_mfma

    kernel = gemm_mfma()
    verify(kernel, "gfx942")
    with pytest.raises(VerifyError) as by_name:
        verify(kernel, "gfx1100")
    with pytest.raises(VerifyError) as by_target:
        verify(kernel, get_arch("gfx1100"))
    assert str(by_name.value) == str(by_target.value) and "not available on gfx1100" in str(by_name.value)
    with pytest.raises(UnknownArchError, match="unknown arch 'gfx9'"):
        verify(kernel, "gfx9")
    for bad in (42, b"gfx942", ["gfx942"]):
        with pytest.raises(TypeError, match="verify: arch must be an arch name or an ArchTarget"):
            verify(kernel, bad)
