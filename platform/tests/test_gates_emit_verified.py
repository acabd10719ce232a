"""The gates' Python emitter verifies a kernel once, for its arch (finish's verification deferred,
no re-verification per flavor), yet raises what the plain build and lower raise: the Python twin
of rocke_emit_test's check of gates::emit_family."""

from __future__ import annotations

import pytest

from rocke.arch import get_arch, parse_layout_expr
from rocke.arch.layout_expr import LayoutExprError
from rocke.families.configs import ConfigLine
from rocke.families.registry import Family
from rocke.gates.emitters import emit_python
from rocke.ir import Builder, VerifyError, f16, f32, i32, ptr, verify
from rocke.ir.builder import defer_finish_verify
from rocke.ir.core import KernelDef, Op, Value
from rocke.ir.samples import axpy
from rocke.ir.verifier import verify_once
from rocke.lower import lower


class _KvSpec:
    @staticmethod
    def from_kv(kv: str) -> str:
        return kv


def _two_faults(spec: str, arch: str):
    """An MMA op gfx1100 does not have (an arch error, early) and, later, a value of an scf.if's
    region used outside it (a dominance error, which finish reports)."""
    b = Builder("two_faults", max_workgroup_size=64)
    y = b.param("y", ptr(f32, "global"), noalias=True)
    tid = b.thread_id_x()
    one = b.const(1.0, f16)
    acc = b.splat(b.const(0.0, f32), 4)
    b.mma("mfma_f32_16x16x16_f16", b.splat(one, 4), b.splat(one, 4), acc)
    inner = []
    b.if_(b.cmpi("slt", tid, tid), lambda: inner.append(b.add(tid, tid)))
    b.store(y, inner[0], b.const(2.0, f32))
    return b.finish()


def _family(build) -> Family:
    return Family("two_faults", "rocke-tests", _KvSpec, build)


def test_finish_error_wins_over_the_arch_error() -> None:
    with pytest.raises(VerifyError) as plain:
        _two_faults("", "gfx1100")
    assert "dominance" in str(plain.value) or "not visible" in str(plain.value)
    config = ConfigLine(0, "gfx1100", "x=1", False)
    for flavors in (("llvm20", "llvm22"), ()):
        out = emit_python(_family(_two_faults), config, flavors, resource_table=False)
        assert out.crash == f"VerifyError: {plain.value}", out


def test_one_pass_emission_equals_build_and_lower() -> None:
    def build(spec: str, arch: str):
        return axpy()

    out = emit_python(_family(build), ConfigLine(0, "gfx942", "x=1", False), resource_table=False)
    kernel = axpy()
    assert out.ll == {flavor: lower(kernel, arch="gfx942", flavor=flavor) for flavor in ("llvm20", "llvm22")}


def test_verify_once_walks_a_kernel_once_per_arch() -> None:
    """A kernel changed after its verification shows what the scope skips: the same kernel for the
    same arch object only (C++ twin: rocke_emit_test's check_verify_once)."""
    kernel, other = axpy(), axpy()
    gfx942 = get_arch("gfx942")
    with verify_once():
        verify(kernel, gfx942)
        kernel.name = other.name = "9bad"  # the scope's contract forbids this; it shows the skip
        verify(kernel, gfx942)  # verified here for gfx942 already: not walked
        for arch in (get_arch("gfx950"), None):
            with pytest.raises(VerifyError, match="invalid kernel name"):
                verify(kernel, arch)
        with pytest.raises(VerifyError, match="invalid kernel name"):
            verify(other, gfx942)  # another kernel
        with verify_once():
            with pytest.raises(VerifyError, match="invalid kernel name"):
                verify(kernel, gfx942)  # an inner scope knows only its own verifications
    with pytest.raises(VerifyError, match="invalid kernel name"):
        verify(kernel, gfx942)  # the scope is gone


BAD_PRED = ("[attr] arith.cmpi %9 at body[5]: attribute 'pred' = 'bogus' is not one of: eq, ne, slt, sle, "
            "sgt, sge, ult, ule, ugt, uge")


def _cmpi(kernel: KernelDef) -> Op:
    """axpy's range compare: an op the builder checked when it made it."""
    return next(op for op in kernel.body.ops if op.opcode == "arith.cmpi")


def test_verify_once_skips_only_the_op_checks_made_at_emission() -> None:
    """In a verify_once scope, a kernel a Builder finished there skips check_op for the ops the
    builder checked when it made them, and nothing else: a change made after emission shows what is
    skipped and what is not (C++ twin: rocke_emit_test's check_emission_checks)."""
    with verify_once():
        kernel = axpy()  # finished in this scope
        assert _cmpi(kernel).checked_at_emission
        assert not any(op.checked_at_emission for op in kernel.body.ops if op.opcode == "scf.if")
        _cmpi(kernel).attrs["pred"] = "bogus"  # the scope's contract forbids this; it shows the skip
        verify(kernel)  # the op check made at emission is not made again
        verify(kernel, get_arch("gfx942"))
        with verify_once():
            with pytest.raises(VerifyError) as inner:
                verify(kernel)  # an inner scope knows only the kernels finished in it
        assert str(inner.value) == BAD_PRED
    with pytest.raises(VerifyError) as gone:
        verify(kernel)  # the scope is gone
    assert str(gone.value) == BAD_PRED
    early = axpy()  # finished before the scope
    _cmpi(early).attrs["pred"] = "bogus"
    with verify_once(), pytest.raises(VerifyError) as before:
        verify(early)
    assert str(before.value) == BAD_PRED
    with verify_once():
        kernel = axpy()
        cmpi = _cmpi(kernel)
        cmpi.operands = (Value(999, i32), cmpi.operands[1])  # every other rule still runs
        with pytest.raises(VerifyError, match=r"\[dominance\] arith.cmpi %9 at body\[5\]: operand #0 %999"):
            verify(kernel)


def test_deferred_finish_counts_and_nests() -> None:
    with defer_finish_verify() as outer:
        with defer_finish_verify() as inner:
            _two_faults("", "gfx1100")  # no error: finish did not verify
        assert inner.deferred == 1 and outer.deferred == 0
        _two_faults("", "gfx1100")
    assert outer.deferred == 1
    with pytest.raises(VerifyError):
        _two_faults("", "gfx1100")  # the scope is gone: finish verifies again


def test_layout_memo_keeps_the_argument_checks() -> None:
    expr = parse_layout_expr("lane % 16 + 16 * slot")
    assert expr(lane=17, slot=2) == 33 and expr(lane=17, slot=2) == 33
    with pytest.raises(LayoutExprError, match="lane must be a 32-bit int"):
        expr(lane=True, slot=0)  # a bool is not an int lane, memo or not
    zero = parse_layout_expr("lane / (slot - slot)")
    for _ in range(2):
        with pytest.raises(LayoutExprError, match="division by zero"):
            zero(lane=1, slot=0)
