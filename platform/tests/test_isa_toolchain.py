"""rocke.isa flavors and in-process verification against the running llvmlite."""

from __future__ import annotations

import hashlib

import llvmlite
import llvmlite.binding as llvm
import pytest

from rocke import isa
from rocke.isa import llvm_module, toolchains

FLAVOR = isa.running_flavor()
needs_flavor = pytest.mark.skipif(FLAVOR is None, reason="the running LLVM validates no rocke flavor")


def real_llvm(test):
    """A check through the running LLVM: it runs in both LLVM lanes, each against its own flavor."""
    for mark in (needs_flavor, pytest.mark.validity, pytest.mark.validity_llvm20):
        test = mark(test)
    return test


GOOD = """target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %out) {
entry:
  store i32 7, ptr addrspace(1) %out
  ret void
}
"""


def _other_flavor() -> str:
    return next(name for name in isa.flavor_names() if name != FLAVOR)


# --- flavor table -----------------------------------------------------------------------------------


def test_flavor_table_rows():
    assert isa.flavor_names() == ("llvm20", "llvm22")
    assert isa.flavor_toolchain("llvm20") == isa.FlavorToolchain("llvm20", 20, "0.45", "0.47")
    assert isa.flavor_toolchain("llvm22") == isa.FlavorToolchain("llvm22", 22, "0.48", "0.50")
    target = toolchains.toolchain_table().target
    assert (target.triple, target.codegen_opt_level, target.code_model) == ("amdgcn-amd-amdhsa", 3, "default")


def test_llvm_version_is_the_running_llvmlite():
    assert isa.llvm_major() == llvm.llvm_version_info[0]
    assert isa.llvm_version() == tuple(llvm.llvm_version_info)
    assert isa.llvmlite_version() == llvmlite.__version__


def test_running_flavor_matches_the_llvm_major():
    rows = [r for r in toolchains.toolchain_table().flavors if r.llvm_major == isa.llvm_major()]
    assert isa.running_flavor() == (rows[0].name if rows else None)


def test_unknown_flavor_lists_known_ones():
    with pytest.raises(ValueError) as info:
        isa.check_flavor("llvm99")
    assert str(info.value) == "unknown flavor 'llvm99'; known flavors: llvm20, llvm22"
    with pytest.raises(ValueError, match="unknown flavor 'llvm21'"):
        isa.verify_ll(GOOD, "llvm21")
    with pytest.raises(ValueError, match="unknown flavor ''"):
        isa.compile_ll(GOOD, "gfx942", "")


def test_flavor_mismatch_message_is_exact(monkeypatch):
    monkeypatch.setattr(toolchains, "llvm_version", lambda: (22, 1, 0))
    monkeypatch.setattr(toolchains, "llvmlite_version", lambda: "0.50.0")
    with pytest.raises(isa.FlavorMismatchError) as info:
        isa.check_flavor("llvm20")
    assert str(info.value) == (
        "flavor llvm20 needs LLVM 20 (llvmlite 0.45-0.47); this environment has LLVM 22.1.0 (llvmlite 0.50.0)"
    )
    assert isa.check_flavor("llvm22").llvm_major == 22

    monkeypatch.setattr(toolchains, "llvm_version", lambda: (20, 1, 8))
    monkeypatch.setattr(toolchains, "llvmlite_version", lambda: "0.46.0")
    with pytest.raises(isa.FlavorMismatchError) as info:
        isa.check_flavor("llvm22")
    assert str(info.value) == (
        "flavor llvm22 needs LLVM 22 (llvmlite 0.48-0.50); this environment has LLVM 20.1.8 (llvmlite 0.46.0)"
    )


@real_llvm
def test_verify_refuses_another_flavor():
    other = _other_flavor()
    with pytest.raises(isa.FlavorMismatchError) as info:
        isa.verify_ll(GOOD, other)
    have = ".".join(str(p) for p in llvm.llvm_version_info)
    assert f"this environment has LLVM {have} (llvmlite {llvmlite.__version__})" in str(info.value)
    assert isinstance(info.value, isa.ToolchainError)


# --- verify_ll --------------------------------------------------------------------------------------


@real_llvm
def test_verify_accepts_good_module():
    assert isa.verify_ll(GOOD, FLAVOR) is None


@real_llvm
def test_verify_reports_parse_errors_with_llvm_text():
    bad = GOOD.replace("store i32 7", "store i32 7 7")
    with pytest.raises(isa.LLVMVerifyError) as info:
        isa.verify_ll(bad, FLAVOR)
    assert "error:" in info.value.message
    assert info.value.message.startswith("LLVM IR parsing error")
    assert info.value.ir_sha256 == hashlib.sha256(bad.encode()).hexdigest()
    assert str(info.value) == info.value.message


@real_llvm
def test_verify_reports_verifier_errors():
    bad = """define void @f() {
entry:
  br label %x
x:
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret void
}
"""
    with pytest.raises(isa.LLVMVerifyError) as info:
        isa.verify_ll(bad, FLAVOR)
    assert info.value.message.startswith("LLVM IR verification error\n")
    assert "Instruction does not dominate all uses!" in info.value.message


@real_llvm
def test_verify_refuses_another_target():
    x86 = GOOD.replace("amdgcn-amd-amdhsa", "x86_64-unknown-linux-gnu").replace("amdgpu_kernel ", "")
    with pytest.raises(isa.LLVMVerifyError) as info:
        isa.verify_ll(x86, FLAVOR)
    assert str(info.value) == "module target triple is x86_64-unknown-linux-gnu, expected amdgcn-amd-amdhsa"


@real_llvm
def test_verify_checks_the_datalayout_against_this_llvm():
    own = llvm_module.target_datalayout()
    assert own.startswith("e-")
    isa.verify_ll(f'target datalayout = "{own}"\n' + GOOD, FLAVOR)
    # A flavor's datalayout written for another LLVM must be caught here, not in the backend.
    stale = own.replace("-S32", "-S64")
    assert stale != own
    with pytest.raises(isa.LLVMVerifyError) as info:
        isa.verify_ll(f'target datalayout = "{stale}"\n' + GOOD, FLAVOR)
    assert info.value.message == (
        "module datalayout does not match this LLVM's amdgcn-amd-amdhsa datalayout\n"
        f"  module: {stale}\n"
        f"  LLVM:   {own}"
    )


def test_ir_sha256_is_sha256_of_utf8_bytes():
    text = "; \u00e9\n"
    assert isa.ir_sha256(text) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_llvm_initialize_is_never_called(monkeypatch):
    # llvmlite >= 0.50 raises from llvm.initialize(); rocke.isa must work without it.
    def refuse() -> None:
        raise AssertionError("llvm.initialize() called")

    monkeypatch.setattr(llvm, "initialize", refuse)
    llvm_module._binding.cache_clear()
    try:
        llvm_module.llvm_binding()
    finally:
        llvm_module._binding.cache_clear()
