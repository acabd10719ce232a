"""The flavor facts of rocke/arch/data/flavors.toml, proven against both real LLVMs.

Tests marked `validity` run under LLVM 22 (llvmlite 0.48-0.50), `validity_llvm20` under LLVM 20
(llvmlite 0.45-0.47); each skips with its reason under the other LLVM. Every fact that differs
between flavors names one of these tests in flavors.toml.
"""

from __future__ import annotations

import re

import pytest

from rocke.arch import ARCH_NAMES, FLAVOR_NAMES, get_arch, get_flavor, get_target
from rocke.ir import Builder, bf16, f32, i32, ptr
from rocke.ir.samples import buffer_copy
from rocke.lower import lower


def _needs_llvm(major: int):  # type: ignore[no-untyped-def]
    llvm = pytest.importorskip("llvmlite.binding")
    have = llvm.llvm_version_info[0]
    if have != major:
        pytest.skip(f"needs LLVM {major}; the running llvmlite has LLVM {have}")
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm


def _flavor_of(major: int) -> str:
    return next(name for name in FLAVOR_NAMES if get_flavor(name).llvm_major == major)


def _llvm_prints(llvm, text: str) -> str:  # type: ignore[no-untyped-def]
    module = llvm.parse_assembly(text)
    module.verify()
    return str(module)


lanes = pytest.mark.parametrize(
    "major", [pytest.param(22, marks=pytest.mark.validity), pytest.param(20, marks=pytest.mark.validity_llvm20)]
)


# --- LLVM-free: what the rows say ------------------------------------------------------------------


def test_flavor_rows() -> None:
    assert FLAVOR_NAMES == ("llvm20", "llvm22")
    old, new = get_flavor("llvm20"), get_flavor("llvm22")
    assert (old.llvm_major, old.llvmlite_min, old.llvmlite_max) == (20, "0.45", "0.47")
    assert (new.llvm_major, new.llvmlite_min, new.llvmlite_max) == (22, "0.48", "0.50")
    amd = get_target("amdgcn")
    old_layout, new_layout = amd.datalayout("llvm20"), amd.datalayout("llvm22")
    assert new_layout.startswith("e-m:e-") and "-p8:128:128:128:48-" in new_layout
    assert old_layout.startswith("e-p:64:64-") and "-p8:128:128-" in old_layout
    # The two layouts differ in exactly those two components.
    assert new_layout.replace("e-m:e-", "e-").replace("p8:128:128:128:48", "p8:128:128") == old_layout
    # NVPTX: LLVM 22 adds the 32-bit p6 space and i256 alignment.
    nvptx = get_target("nvptx")
    assert nvptx.datalayout("llvm22").replace("p6:32:32-", "").replace("-i256:256", "") == nvptx.datalayout("llvm20")
    assert (old.nocapture, new.nocapture) == ("nocapture", "captures(none)")


def test_unknown_flavor_lists_the_known_ones() -> None:
    with pytest.raises(ValueError) as info:
        get_flavor("llvm21")
    assert str(info.value) == "unknown flavor 'llvm21'; known flavors: llvm20, llvm22"


def test_lowered_text_uses_each_flavors_spellings() -> None:
    kernel = buffer_copy()
    old = lower(kernel, arch="gfx942", flavor="llvm20")
    new = lower(kernel, arch="gfx942", flavor="llvm22")
    assert old.splitlines()[0] == f'target datalayout = "{get_target("amdgcn").datalayout("llvm20")}"'
    assert new.splitlines()[0] == f'target datalayout = "{get_target("amdgcn").datalayout("llvm22")}"'
    assert " nocapture " in old and "captures(none)" not in old
    assert " captures(none) " in new and "nocapture" not in new
    assert "(ptr addrspace(1), i16, i32, i32)" in old and "to i64" not in old
    assert "(ptr addrspace(1), i16, i64, i32)" in new and re.search(r"zext i32 %nbytes\.4 to i64", new)


# --- against the real LLVMs ------------------------------------------------------------------------


@lanes
def test_flavor_datalayout_is_the_running_llvms(major: int) -> None:
    llvm = _needs_llvm(major)
    from rocke.isa.llvm_module import target_datalayout

    flavor = _flavor_of(major)
    assert get_target("amdgcn").datalayout(flavor) == target_datalayout()
    # Every arch's target machine reports its target's layout.
    for name in ARCH_NAMES:
        arch = get_arch(name)
        target = arch.vendor_target
        machine = llvm.Target.from_triple(target.triple).create_target_machine(cpu=arch.llvm_cpu)
        assert str(machine.target_data) == target.datalayout(flavor), name


@lanes
def test_other_flavors_text_is_refused(major: int) -> None:
    _needs_llvm(major)
    from rocke import isa

    mine = _flavor_of(major)
    other = next(name for name in FLAVOR_NAMES if name != mine)
    isa.verify_ll(lower(buffer_copy(), arch="gfx942", flavor=mine), mine)
    with pytest.raises(isa.LLVMVerifyError) as info:
        isa.verify_ll(lower(buffer_copy(), arch="gfx942", flavor=other), mine)
    assert str(info.value).startswith("module datalayout does not match this LLVM's amdgcn-amd-amdhsa datalayout")


_PARAM = (
    "define amdgpu_kernel void @k(ptr addrspace(1) noalias {} %p) {{\n"
    "  store i32 0, ptr addrspace(1) %p\n"
    "  ret void\n"
    "}}\n"
)


@lanes
def test_nocapture_spelling_is_what_the_llvm_prints(major: int) -> None:
    llvm = _needs_llvm(major)
    spelling = get_flavor(_flavor_of(major)).nocapture
    printed = _llvm_prints(llvm, _PARAM.format(spelling))
    assert f" {spelling} " in printed  # the flavor's spelling is a fixed point of its LLVM
    from_nocapture = _llvm_prints(llvm, _PARAM.format("nocapture"))
    if major == 22:
        assert "captures(none)" in from_nocapture and "nocapture" not in from_nocapture
    else:
        assert "nocapture" in from_nocapture and "captures(none)" not in from_nocapture
        # LLVM 20.1 also reads captures(none) and prints it back: it is not rejected there.
        assert "captures(none)" in _llvm_prints(llvm, _PARAM.format("captures(none)"))


_RSRC = (
    "define amdgpu_kernel void @k(ptr addrspace(1) %p, {count} %n) {{\n"
    "  %r = call ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1) %p, i16 0, {count} %n, "
    "i32 159744)\n"
    "  call void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32 1, ptr addrspace(8) %r, i32 0, i32 0, i32 0)\n"
    "  ret void\n"
    "}}\n"
    "declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, {count}, i32)\n"
    "declare void @llvm.amdgcn.raw.ptr.buffer.store.i32(i32, ptr addrspace(8), i32, i32, i32 immarg)\n"
)


@lanes
def test_make_buffer_rsrc_record_count_type(major: int) -> None:
    llvm = _needs_llvm(major)
    right, wrong = ("i64", "i32") if major == 22 else ("i32", "i64")
    _llvm_prints(llvm, _RSRC.format(count=right))
    with pytest.raises(RuntimeError, match="Intrinsic has incorrect argument type"):
        _llvm_prints(llvm, _RSRC.format(count=wrong))
    from rocke.arch import instantiate, intrinsic_def

    decl = instantiate(intrinsic_def("llvm.amdgcn.make.buffer.rsrc.p8.p1"), _flavor_of(major))
    assert decl.arg_types[2] == right


def _remf_bf16_kernel():  # type: ignore[no-untyped-def]
    b = Builder("remf_bf16", max_workgroup_size=64)
    p = b.param("p", ptr(bf16, "global"))
    tid = b.thread_id_x()
    b.store(p, tid, b.remf(b.load(p, tid), b.load(p, b.add(tid, b.const(1, i32)))))
    return b.finish()


_FREM = (
    "define amdgpu_kernel void @k(ptr addrspace(1) %p, bfloat %x, bfloat %y) {\n"
    "  %r = frem bfloat %x, %y\n"
    "  store bfloat %r, ptr addrspace(1) %p\n"
    "  ret void\n"
    "}\n"
)


@lanes
def test_bf16_frem_needs_the_f32_detour(major: int) -> None:
    _needs_llvm(major)
    from rocke import isa

    flavor = _flavor_of(major)
    direct = isa.compile_many([isa.CompileJob(_FREM, arch) for arch in ("gfx942", "gfx1100")], flavor)
    if major == 22:
        assert all(not r.ok and "no libcall available for frem" in str(r.error) for r in direct)
    else:
        assert all(r.ok for r in direct)
    text = lower(_remf_bf16_kernel(), arch="gfx942", flavor=flavor)
    assert "frem float" in text and "frem bfloat" not in text
    isa.compile_ll(text, "gfx942", flavor)


def test_f32_remf_is_plain_frem() -> None:
    b = Builder("remf_f32", max_workgroup_size=64)
    p = b.param("p", ptr(f32, "global"))
    tid = b.thread_id_x()
    b.store(p, tid, b.remf(b.load(p, tid), b.load(p, tid)))
    text = lower(b.finish(), arch="gfx942", flavor="llvm22")
    assert "frem float" in text and "fpext" not in text
