"""rocke.isa against the real AMDGPU backend: asm, objects, resources, abort isolation, HSACO.

The .ll modules below are hand-written and name no datalayout, so they are
valid for whichever flavor's LLVM runs the tests.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from rocke import isa
from rocke.isa import compile as isa_compile

FLAVOR = isa.running_flavor()
# Real-LLVM checks: they run in both LLVM lanes, each against its own flavor.
pytestmark = [
    pytest.mark.skipif(FLAVOR is None, reason="the running LLVM validates no rocke flavor"),
    pytest.mark.validity,
    pytest.mark.validity_llvm20,
]

ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")
CDNA = ("gfx942", "gfx950")
RDNA = ("gfx1100", "gfx1201")

HEADER = 'target triple = "amdgcn-amd-amdhsa"\n\n'

# A 256-float LDS array (1024 bytes) written, barrier, read back transposed by one lane.
LDS_KERNEL = (
    HEADER
    + """@tile = internal addrspace(3) global [256 x float] poison, align 16

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @lds_swap(ptr addrspace(1) noalias %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %f = uitofp i32 %tid to float
  %p = getelementptr [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tid
  store float %f, ptr addrspace(3) %p
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %x = xor i32 %tid, 1
  %q = getelementptr [256 x float], ptr addrspace(3) @tile, i32 0, i32 %x
  %v = load float, ptr addrspace(3) %q
  %o = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %v, ptr addrspace(1) %o
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
"""
)

# Register pressure pinned by inline-asm clobbers: v199 and s70 must be allocated.
REGS_KERNEL = (
    HEADER
    + """define amdgpu_kernel void @many_regs(ptr addrspace(1) %out) #0 {
entry:
  call void asm sideeffect "; pressure", "~{v199},~{s70}"()
  store i32 1, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
"""
)

# Accumulation registers (CDNA): a63 clobbered -> 64 AGPRs; v37 -> 38 VGPRs.
AGPR_KERNEL = (
    HEADER
    + """define amdgpu_kernel void @acc_regs(ptr addrspace(1) %out) #0 {
entry:
  call void asm sideeffect "; pressure", "~{v37},~{a63}"()
  store i32 1, ptr addrspace(1) %out
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
"""
)

# 128 live floats per lane under a 64-VGPR cap: must spill to scratch.
SPILL_KERNEL = (
    HEADER
    + """declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @spills(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pi = getelementptr <64 x float>, ptr addrspace(1) %in, i32 %tid
  %a = load volatile <64 x float>, ptr addrspace(1) %pi
  %b = load volatile <64 x float>, ptr addrspace(1) %pi
  %c = fmul <64 x float> %a, %b
  %d = fadd <64 x float> %c, %a
  %po = getelementptr <64 x float>, ptr addrspace(1) %out, i32 %tid
  store volatile <64 x float> %d, ptr addrspace(1) %po
  store volatile <64 x float> %b, ptr addrspace(1) %po
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" "amdgpu-num-vgpr"="64" }
"""
)

# An MFMA (CDNA only): on RDNA, LLVM aborts with "Cannot select".
_MFMA = "@llvm.amdgcn.mfma.f32.32x32x8f16"
_MFMA_ARGS = "(<4 x half> %va, <4 x half> %va, <16 x float> zeroinitializer, i32 0, i32 0, i32 0)"
MFMA_KERNEL = (
    HEADER
    + f"""declare <16 x float> {_MFMA}(<4 x half>, <4 x half>, <16 x float>, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @mfma(ptr addrspace(1) %a, ptr addrspace(1) %out) #0 {{
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x half>, ptr addrspace(1) %a, i32 %tid
  %va = load <4 x half>, ptr addrspace(1) %pa
  %r = call <16 x float> {_MFMA}{_MFMA_ARGS}
  %po = getelementptr <16 x float>, ptr addrspace(1) %out, i32 %tid
  store <16 x float> %r, ptr addrspace(1) %po
  ret void
}}

attributes #0 = {{ "amdgpu-flat-work-group-size"="1,256" }}
"""
)

# 160000 bytes of LDS: over gfx942's 64 KiB, so LLVM reports an error and exits.
BIG_LDS_KERNEL = LDS_KERNEL.replace("[256 x float]", "[40000 x float]")

# Two kernels in one module (no workgroup-size attribute: LLVM's default 1024).
TWO_KERNELS = (
    HEADER
    + """define amdgpu_kernel void @first(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @second(ptr addrspace(1) %out) {
entry:
  store i32 2, ptr addrspace(1) %out
  ret void
}
"""
)

SYNTAX_ERROR = HEADER + "define void @f() {\n  ret i32 0\n}\n"

NOT_DOMINATING = (
    HEADER
    + """define void @f() {
entry:
  br label %x
x:
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret void
}
"""
)


def big_kernel(n_ops: int) -> str:
    """A long straight-line kernel that takes the backend a noticeable time to compile."""
    lines = [
        HEADER,
        "define amdgpu_kernel void @big(ptr addrspace(1) %io) {\nentry:\n",
        "  %v0 = load float, ptr addrspace(1) %io\n",
    ]
    for i in range(1, n_ops + 1):
        lines.append(f"  %v{i} = fmul float %v{i - 1}, %v{i - 1}\n")
    lines.append(f"  store float %v{n_ops}, ptr addrspace(1) %io\n  ret void\n}}\n")
    return "".join(lines)


# --- one batch for every module the resource tests read -------------------------------------------

BATCH = (
    [("lds", LDS_KERNEL, arch, "asm") for arch in ARCHS]
    + [("lds", LDS_KERNEL, arch, "obj") for arch in ARCHS]
    + [("regs", REGS_KERNEL, arch, "asm") for arch in ARCHS]
    + [("agpr", AGPR_KERNEL, arch, "asm") for arch in ARCHS]
    + [("spill", SPILL_KERNEL, arch, "asm") for arch in ARCHS]
    + [("mfma", MFMA_KERNEL, arch, "asm") for arch in CDNA]
    + [("two", TWO_KERNELS, "gfx1100", "asm")]
)


@pytest.fixture(scope="module")
def compiled() -> dict[tuple[str, str, str], isa.CompileResult]:
    jobs = [isa.CompileJob(text, arch, output, label=name) for name, text, arch, output in BATCH]
    results = list(isa.compile_many(jobs, FLAVOR))
    assert [r.index for r in results] == list(range(len(jobs)))
    return {(r.label, r.arch, r.output): r for r in results}


def _asm(compiled, name: str, arch: str) -> str:
    value = compiled[(name, arch, "asm")].unwrap()
    assert isinstance(value, str)
    return value


def _res(compiled, name: str, arch: str) -> isa.Resources:
    return isa.resources(_asm(compiled, name, arch), arch)


# --- verify -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [LDS_KERNEL, REGS_KERNEL, MFMA_KERNEL, SPILL_KERNEL, TWO_KERNELS])
def test_verify_accepts_sample_modules(text):
    isa.verify_ll(text, FLAVOR)


# --- asm / obj per arch -----------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
def test_asm_targets_the_arch(compiled, arch):
    result = compiled[("lds", arch, "asm")]
    assert result.ok and result.error is None
    asm = _asm(compiled, "lds", arch)
    assert f'.amdgcn_target "amdgcn-amd-amdhsa--{arch}' in asm
    assert ".amdhsa_kernel lds_swap" in asm
    assert "s_barrier" in asm
    assert result.ir_sha256 == hashlib.sha256(LDS_KERNEL.encode()).hexdigest()


@pytest.mark.parametrize("arch", ARCHS)
def test_obj_is_amdgpu_elf_relocatable(compiled, arch):
    obj = compiled[("lds", arch, "obj")].unwrap()
    assert isinstance(obj, bytes)
    assert obj[:4] == b"\x7fELF"
    assert int.from_bytes(obj[16:18], "little") == 1  # ET_REL
    assert int.from_bytes(obj[18:20], "little") == 224  # EM_AMDGPU
    assert b"lds_swap" in obj


def test_compile_ll_returns_str_for_asm_and_bytes_for_obj():
    asm = isa.compile_ll(LDS_KERNEL, "gfx1201", FLAVOR)
    assert isinstance(asm, str) and "lds_swap" in asm
    obj = isa.compile_ll(LDS_KERNEL, "gfx1201", FLAVOR, output="obj")
    assert isinstance(obj, bytes) and obj[:4] == b"\x7fELF"


# --- resources --------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
def test_lds_kernel_reports_its_lds(compiled, arch):
    res = _res(compiled, "lds", arch)
    assert res.kernel == "lds_swap"
    assert res.arch == arch
    assert res.lds_bytes == 1024
    assert res.scratch_bytes == 0
    assert res.vgpr_spill == 0 and res.sgpr_spill == 0
    assert 1 <= res.vgprs <= 16
    assert res.sgprs >= 1
    assert res.workgroup_size == 256
    assert res.wave_size == (64 if arch in CDNA else 32)
    assert res.occupancy >= 1


@pytest.mark.parametrize("arch", ARCHS)
def test_register_pressure_is_reported(compiled, arch):
    light = _res(compiled, "lds", arch)
    heavy = _res(compiled, "regs", arch)
    assert heavy.vgprs == 200  # v0..v199
    assert heavy.unified_vgprs == 200
    assert heavy.agprs == 0
    assert heavy.sgprs >= 71  # s0..s70 plus what LLVM reserves
    assert heavy.scratch_bytes == 0
    assert 1 <= heavy.occupancy < light.occupancy


@pytest.mark.parametrize("arch", ARCHS)
def test_agprs_exist_only_on_cdna(compiled, arch):
    asm = _asm(compiled, "agpr", arch)
    res = isa.resources(asm, arch)
    if arch in CDNA and ".set acc_regs.num_vgpr," not in asm:
        assert res.vgprs == 40  # no resource symbols: bounded by the accumulator offset
    else:
        assert res.vgprs == 38
    if arch in CDNA:
        assert res.agprs == 64
        assert res.unified_vgprs == 40 + 64  # VGPRs rounded up to 4, then the AGPRs
    else:
        assert res.agprs == 0
        assert res.unified_vgprs == 38


@pytest.mark.parametrize("arch", CDNA)
def test_mfma_accumulator_is_counted(compiled, arch):
    res = _res(compiled, "mfma", arch)
    # The 32x32 f32 accumulator takes 16 registers per lane, in AGPRs (LLVM 22) or VGPRs.
    assert res.agprs >= 16 or res.vgprs >= 16
    assert res.unified_vgprs >= res.vgprs + res.agprs


@pytest.mark.parametrize("arch", ARCHS)
def test_spilling_kernel_reports_scratch(compiled, arch):
    res = _res(compiled, "spill", arch)
    # LLVM 22 honours the 64-VGPR cap; LLVM 20 on CDNA allocates up to 128 and still spills.
    assert res.vgprs <= 128
    assert res.scratch_bytes > 0
    assert res.vgpr_spill > 0


def test_two_kernels_need_a_name(compiled):
    asm = _asm(compiled, "two", "gfx1100")
    both = isa.all_resources(asm, "gfx1100")
    assert [r.kernel for r in both] == ["first", "second"]
    assert all(r.workgroup_size == 1024 for r in both)  # LLVM's default without the attribute
    assert isa.resources(asm, "gfx1100", kernel="second") == both[1]
    with pytest.raises(isa.ResourceParseError, match=r"holds 2 kernels \(first, second\); name one"):
        isa.resources(asm, "gfx1100")
    with pytest.raises(isa.ResourceParseError, match="no kernel third in the assembly"):
        isa.resources(asm, "gfx1100", kernel="third")


def test_resources_refuse_another_arch(compiled):
    asm = _asm(compiled, "lds", "gfx942")
    with pytest.raises(isa.ResourceParseError, match="compiled for gfx942, not gfx950"):
        isa.resources(asm, "gfx950")


def test_resources_to_dict_is_json_ready(compiled):
    res = _res(compiled, "lds", "gfx942")
    data = res.to_dict()
    assert list(data) == [
        "kernel",
        "arch",
        "wave_size",
        "vgprs",
        "agprs",
        "unified_vgprs",
        "sgprs",
        "reserved_vgprs",
        "reserved_sgprs",
        "scratch_bytes",
        "lds_bytes",
        "vgpr_spill",
        "sgpr_spill",
        "workgroup_size",
        "occupancy",
        "counted_occupancy",
    ]
    assert json.loads(json.dumps(data)) == data
    assert isa.Resources(**data) == res


# --- abort isolation --------------------------------------------------------------------------------


def test_llvm_abort_becomes_typed_error_and_the_process_survives():
    with pytest.raises(isa.LLVMAbortError) as info:
        isa.compile_ll(MFMA_KERNEL, "gfx1100", FLAVOR)
    err = info.value
    sha = hashlib.sha256(MFMA_KERNEL.encode("utf-8")).hexdigest()
    assert err.ir_sha256 == sha
    assert err.arch == "gfx1100"
    assert "Cannot select" in err.message
    assert "llvm.amdgcn.mfma.f32.32x32x8f16" in err.message
    assert err.returncode < 0  # killed by a signal (SIGABRT)
    assert sha in str(err) and "Cannot select" in str(err)
    # Still alive, and the toolchain still works.
    assert "lds_swap" in isa.compile_ll(LDS_KERNEL, "gfx1100", FLAVOR)


@pytest.mark.parametrize("children", [1, 2, 4])
def test_batch_continues_after_aborts(children):
    """The same results in job order, one child or several at once (each share its own child,
    restarted after each abort in it)."""
    jobs = [
        isa.CompileJob(LDS_KERNEL, "gfx1100", label="ok-0"),
        isa.CompileJob(MFMA_KERNEL, "gfx1100", label="abort-1"),
        isa.CompileJob(MFMA_KERNEL, "gfx1201", label="abort-2"),
        isa.CompileJob(SYNTAX_ERROR, "gfx942", label="verify-3"),
        isa.CompileJob(BIG_LDS_KERNEL, "gfx942", label="exit-4"),
        isa.CompileJob(LDS_KERNEL, "gfx1201", "obj", label="ok-5"),
    ]
    results = list(isa.compile_many(jobs, FLAVOR, children=children))
    assert [r.label for r in results] == [j.label for j in jobs]
    assert [r.index for r in results] == list(range(len(jobs)))
    assert [r.ok for r in results] == [True, False, False, False, False, True]
    for r in results[1:3]:
        assert isinstance(r.error, isa.LLVMAbortError)
        assert "Cannot select" in r.error.message
        assert r.error.ir_sha256 == r.ir_sha256 == hashlib.sha256(MFMA_KERNEL.encode()).hexdigest()
    assert isinstance(results[3].error, isa.LLVMVerifyError)
    # LLVM's diagnostic handler exits(1) rather than aborting: still a typed abort.
    exited = results[4].error
    assert isinstance(exited, isa.LLVMAbortError)
    assert exited.returncode == 1
    assert "local memory (160000) exceeds limit" in exited.message
    assert isinstance(results[5].unwrap(), bytes)
    with pytest.raises(isa.LLVMAbortError):
        results[1].unwrap()


def test_inline_asm_object_is_refused_without_abort():
    # llvmlite has no AMDGPU assembler: LLVM would abort; the child refuses first.
    with pytest.raises(isa.LLVMCodegenError, match="inline asm cannot be emitted as an object") as info:
        isa.compile_ll(REGS_KERNEL, "gfx1201", FLAVOR, output="obj")
    assert not isinstance(info.value, isa.LLVMAbortError)
    assert info.value.ir_sha256 == hashlib.sha256(REGS_KERNEL.encode()).hexdigest()


def test_compile_reports_verify_errors_without_backend():
    with pytest.raises(isa.LLVMVerifyError, match="Instruction does not dominate all uses"):
        isa.compile_ll(NOT_DOMINATING, "gfx942", FLAVOR)


def test_timeout_kills_the_child():
    results = list(isa.compile_many([isa.CompileJob(big_kernel(20000), "gfx942")], FLAVOR, timeout=0.02))
    (result,) = results
    assert isinstance(result.error, isa.LLVMTimeoutError)
    assert isinstance(result.error, isa.LLVMAbortError)
    assert "no result after 0.02 s" in str(result.error)
    assert result.error.returncode < 0


def test_streaming_can_stop_early():
    jobs = [isa.CompileJob(LDS_KERNEL, arch) for arch in ARCHS]
    stream = isa.compile_many(jobs, FLAVOR)
    first = next(stream)
    assert first.index == 0 and first.ok
    stream.close()  # kills the child; nothing left running


# --- argument errors are raised before any child starts ---------------------------------------------


def test_unknown_arch_and_output_are_refused():
    with pytest.raises(ValueError, match="unknown arch 'gfx908'; known archs: "):
        isa.compile_ll(LDS_KERNEL, "gfx908", FLAVOR)
    with pytest.raises(ValueError, match="unknown output 'bin'; known outputs: asm, obj"):
        isa.compile_ll(LDS_KERNEL, "gfx942", FLAVOR, output="bin")


def test_compile_refuses_another_flavor():
    other = next(name for name in isa.flavor_names() if name != FLAVOR)
    with pytest.raises(isa.FlavorMismatchError, match=f"flavor {other} needs LLVM"):
        isa.compile_ll(LDS_KERNEL, "gfx942", other)
    with pytest.raises(isa.FlavorMismatchError):
        isa.compile_many([isa.CompileJob(LDS_KERNEL, "gfx942")], other)


# --- child failures that are not a module's fault ---------------------------------------------------


def test_child_that_cannot_start_is_an_environment_error(monkeypatch):
    import sys

    monkeypatch.setattr(
        isa_compile, "_child_command", lambda: [sys.executable, "-c", "import sys; sys.exit(3)"]
    )
    with pytest.raises(isa.CompilerChildError, match=r"did not start \(exit code 3\)"):
        isa.compile_ll(LDS_KERNEL, "gfx942", FLAVOR)


def test_child_dying_between_modules_is_not_blamed_on_a_module(monkeypatch):
    import sys

    from rocke.isa import protocol

    magic = protocol.RESPONSE_MAGIC.decode("ascii").strip()
    script = f"import sys; sys.stdout.write('{magic}\\n'); sys.stdout.flush(); sys.exit(4)"
    monkeypatch.setattr(isa_compile, "_child_command", lambda: [sys.executable, "-c", script])
    with pytest.raises(isa.CompilerChildError, match=r"died before job 0 \(exit code 4\)"):
        isa.compile_ll(LDS_KERNEL, "gfx942", FLAVOR)


# --- HSACO ------------------------------------------------------------------------------------------


def _require_lld() -> str:
    lld = isa.find_lld()
    if lld is None:
        pytest.skip("ld.lld not found: install Debian package lld-19")
    return lld


@pytest.mark.parametrize("arch", ARCHS)
def test_link_hsaco(compiled, arch):
    _require_lld()
    hsaco = isa.link_hsaco(compiled[("lds", arch, "obj")].unwrap())
    assert hsaco[:4] == b"\x7fELF"
    assert int.from_bytes(hsaco[16:18], "little") == 3  # ET_DYN
    assert int.from_bytes(hsaco[18:20], "little") == 224  # EM_AMDGPU
    assert b"lds_swap.kd" in hsaco  # the kernel descriptor symbol a loader looks up


def test_link_hsaco_refuses_non_objects():
    with pytest.raises(ValueError, match="needs an AMDGPU ELF relocatable object"):
        isa.link_hsaco(b"not an object")


def test_missing_lld_is_a_clear_error(compiled, monkeypatch, tmp_path):
    monkeypatch.setenv("ROCKE_LLD", str(tmp_path / "no-such-ld.lld"))
    assert isa.find_lld() is None
    with pytest.raises(isa.LldNotFoundError, match=r"ld\.lld not found: ROCKE_LLD="):
        isa.link_hsaco(compiled[("lds", "gfx942", "obj")].unwrap())


def test_concurrent_children_refuse_a_bad_count():
    with pytest.raises(ValueError, match="children must be at least 1, not 0"):
        isa.compile_many([], FLAVOR, children=0)
