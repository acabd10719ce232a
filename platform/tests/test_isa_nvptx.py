"""rocke.isa's NVIDIA path against the real NVPTX backend and the real ptxas (sm_90).

The .ll modules are hand-written and name no datalayout, so they run under whichever flavor's
LLVM is installed; where LLVM 20 and LLVM 22 differ, the test states both (platform/docs/
toolchain.md, "What LLVM 20 and LLVM 22 accept and emit for NVPTX"). ptxas comes from the
nvidia-cuda-nvcc-cu12 wheel; without it the ptxas tests skip and say how to install it.
"""

from __future__ import annotations

import pytest

from rocke import isa

FLAVOR = isa.running_flavor()
MAJOR = isa.llvm_major()
pytestmark = [
    pytest.mark.skipif(FLAVOR is None, reason="the running LLVM validates no rocke flavor"),
    pytest.mark.validity,
    pytest.mark.validity_llvm20,
]

ARCH = "sm_90"
TRIPLE = 'target triple = "nvptx64-nvidia-cuda"\n'

VADD = TRIPLE + """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define ptx_kernel void @vadd(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t0 = mul i32 %bid, %bdim
  %i = add i32 %t0, %tid
  %ok = icmp slt i32 %i, %n
  br i1 %ok, label %body, label %exit
body:
  %ix = sext i32 %i to i64
  %pa = getelementptr float, ptr addrspace(1) %a, i64 %ix
  %pb = getelementptr float, ptr addrspace(1) %b, i64 %ix
  %pc = getelementptr float, ptr addrspace(1) %c, i64 %ix
  %va = load float, ptr addrspace(1) %pa, align 4
  %vb = load float, ptr addrspace(1) %pb, align 4
  %s = fadd float %va, %vb
  store float %s, ptr addrspace(1) %pc, align 4
  br label %exit
exit:
  ret void
}
"""

# Thread id, a butterfly shuffle, the CTA barrier and one bf16 m16n8k16 MMA.
WARP = TRIPLE + """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.barrier0()
declare { float, float, float, float } MMA(i32, i32, i32, i32, i32, i32, float, float, float, float)

define ptx_kernel void @warp(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ix = zext i32 %tid to i64
  %p = getelementptr i32, ptr addrspace(1) %in, i64 %ix
  %v = load i32, ptr addrspace(1) %p, align 4
  %s = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %v, i32 16, i32 31)
  %c = bitcast i32 %s to float
  call void @llvm.nvvm.barrier0()
  %d = call { float, float, float, float } MMA(i32 %v, i32 %s, i32 %v, i32 %s, i32 %v, i32 %s,
                                             float %c, float %c, float %c, float %c)
  %d0 = extractvalue { float, float, float, float } %d, 0
  %d3 = extractvalue { float, float, float, float } %d, 3
  %r = fadd float %d0, %d3
  %q = getelementptr float, ptr addrspace(1) %out, i64 %ix
  store float %r, ptr addrspace(1) %q, align 4
  ret void
}
""".replace("MMA", "@llvm.nvvm.mma.m16n8k16.row.col.bf16")


def shared_kernel(nbytes: int) -> str:
    return TRIPLE + f"""
@s = internal addrspace(3) global [{nbytes} x i8] undef, align 16
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define ptx_kernel void @shared(ptr addrspace(1) %out) {{
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ix = zext i32 %tid to i64
  %p = getelementptr i8, ptr addrspace(3) @s, i64 %ix
  %b = trunc i32 %tid to i8
  store i8 %b, ptr addrspace(3) %p, align 1
  call void @llvm.nvvm.barrier0()
  %jx = xor i64 %ix, 1
  %q = getelementptr i8, ptr addrspace(3) @s, i64 %jx
  %v = load i8, ptr addrspace(3) %q, align 1
  %o = getelementptr i8, ptr addrspace(1) %out, i64 %ix
  store i8 %v, ptr addrspace(1) %o, align 1
  ret void
}}
"""


def private_array(addrspace: str) -> str:
    """A 1 KiB private array filled in a loop and read at a thread-dependent index."""
    ptr = f"ptr{addrspace}"
    return TRIPLE + f"""
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @private(ptr addrspace(1) %in, ptr addrspace(1) %out) {{
entry:
  %buf = alloca [256 x float], align 4{addrspace.replace(" addrspace", ", addrspace")}
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %fill
fill:
  %i = phi i32 [ 0, %entry ], [ %i1, %fill ]
  %ix = zext i32 %i to i64
  %src = getelementptr float, ptr addrspace(1) %in, i64 %ix
  %v = load float, ptr addrspace(1) %src, align 4
  %dst = getelementptr [256 x float], {ptr} %buf, i64 0, i64 %ix
  store float %v, {ptr} %dst, align 4
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 256
  br i1 %more, label %fill, label %read
read:
  %t = and i32 %tid, 255
  %tx = zext i32 %t to i64
  %p = getelementptr [256 x float], {ptr} %buf, i64 0, i64 %tx
  %r = load float, {ptr} %p, align 4
  %o = getelementptr float, ptr addrspace(1) %out, i64 %tx
  store float %r, ptr addrspace(1) %o, align 4
  ret void
}}
"""


# 96 values loaded up front and consumed in reverse under a 24-register cap (the !nvvm.annotations
# spelling both LLVMs honour): ptxas must spill. Also reads a 256-byte .const table.
def _regspill(values: int = 96, max_registers: int = 24) -> str:
    lines = [
        "@tbl = internal addrspace(4) global [64 x float] zeroinitializer, align 4",
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
        "define ptx_kernel void @regspill(ptr addrspace(1) %in, ptr addrspace(1) %out) {",
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
        "  %base = zext i32 %tid to i64",
    ]
    for i in range(values):
        lines += [
            f"  %p{i} = getelementptr float, ptr addrspace(1) %in, i64 {i * 1024}",
            f"  %q{i} = getelementptr float, ptr addrspace(1) %p{i}, i64 %base",
            f"  %v{i} = load volatile float, ptr addrspace(1) %q{i}, align 4",
        ]
    lines += [
        "  %t = and i64 %base, 63",
        "  %cp = getelementptr [64 x float], ptr addrspace(4) @tbl, i64 0, i64 %t",
        "  %c = load float, ptr addrspace(4) %cp, align 4",
    ]
    prev = "%c"
    for i in reversed(range(values)):
        lines += [
            f"  %m{i} = fmul float %v{i}, {prev}",
            f"  %o{i} = getelementptr float, ptr addrspace(1) %out, i64 {i}",
            f"  store volatile float %m{i}, ptr addrspace(1) %o{i}, align 4",
        ]
        prev = f"%m{i}"
    annotation = f'!0 = !{{ptr @regspill, !"maxnreg", i32 {max_registers}}}'
    lines += ["  ret void", "}", "!nvvm.annotations = !{!0}", annotation]
    return TRIPLE + "\n".join(lines) + "\n"


REGSPILL = _regspill()


def unary_kernel(decl: str, expr: str, attrs: str = "") -> str:
    return TRIPLE + f"""
{decl}
define ptx_kernel void @k(ptr addrspace(1) %p) {attrs} {{
  %x = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr float, ptr addrspace(1) %p, i64 1
  %y = load float, ptr addrspace(1) %q, align 4
  %r = {expr}
  store volatile float %r, ptr addrspace(1) %q, align 4
  ret void
}}
"""


def ptx_of(ll_text: str) -> str:
    ptx = isa.compile_ll(ll_text, ARCH, FLAVOR)
    assert isinstance(ptx, str)
    return ptx


def body_lines(ptx: str) -> list[str]:
    """The kernel body's instructions, whitespace-normalised."""
    body = ptx[ptx.index("{") :]
    return [" ".join(line.split()) for line in body.splitlines() if line.strip()]


def require_ptxas() -> str:
    ptxas = isa.find_ptxas()
    if ptxas is None:
        pytest.skip(f"ptxas not found: {isa.PTXAS_INSTALL_HINT}")
    return ptxas


# --- targets and arguments ------------------------------------------------------------------------


def test_codegen_target_maps_each_vendor():
    assert isa.codegen_target("sm_90") == isa.CodegenTarget("sm_90", "nvidia", "nvptx64-nvidia-cuda", "sm_90")
    assert isa.codegen_target("gfx942") == isa.CodegenTarget("gfx942", "amd", "amdgcn-amd-amdhsa", "gfx942")
    assert isa.shared_bytes_limit("sm_90") == 232448
    with pytest.raises(ValueError, match=r"unknown arch 'sm_75'; known archs: gfx942, .*sm_90"):
        isa.codegen_target("sm_75")


def test_nvidia_object_output_is_refused_before_any_child():
    with pytest.raises(ValueError, match="output 'obj' is not made for sm_90: LLVM's NVPTX backend emits PTX"):
        isa.compile_ll(VADD, ARCH, FLAVOR, output="obj")


def test_amdgpu_module_for_an_nvidia_arch_is_a_verify_error():
    amd = 'target triple = "amdgcn-amd-amdhsa"\ndefine amdgpu_kernel void @k() {\n  ret void\n}\n'
    with pytest.raises(isa.LLVMVerifyError, match="module target triple is amdgcn-amd-amdhsa, expected nvptx64"):
        isa.compile_ll(amd, ARCH, FLAVOR)
    isa.verify_ll(VADD, FLAVOR, arch=ARCH)
    with pytest.raises(isa.LLVMVerifyError, match="expected amdgcn-amd-amdhsa"):
        isa.verify_ll(VADD, FLAVOR)


def test_nvptx_datalayout_is_the_documented_one():
    from rocke.isa.llvm_module import target_datalayout

    expected = {
        20: "e-i64:64-i128:128-v16:16-v32:32-n16:32:64",
        22: "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64",
    }
    assert target_datalayout("nvptx64-nvidia-cuda") == expected[MAJOR]
    stale = expected[20 if MAJOR == 22 else 22]
    with pytest.raises(isa.LLVMVerifyError, match="datalayout does not match"):
        isa.compile_ll(f'target datalayout = "{stale}"\n' + VADD, ARCH, FLAVOR)


def test_amdgpu_and_nvidia_jobs_share_one_batch():
    amd = 'target triple = "amdgcn-amd-amdhsa"\ndefine amdgpu_kernel void @k() {\n  ret void\n}\n'
    jobs = [isa.CompileJob(VADD, ARCH), isa.CompileJob(amd, "gfx942"), isa.CompileJob(WARP, ARCH)]
    results = list(isa.compile_many(jobs, FLAVOR))
    assert [r.ok for r in results] == [True, True, True]
    assert ".visible .entry vadd(" in results[0].value
    assert ".amdgpu_metadata" in results[1].value
    assert ".visible .entry warp(" in results[2].value


# --- PTX: what each LLVM accepts and emits ----------------------------------------------------------


def test_vadd_ptx_header_and_entry():
    ptx = ptx_of(VADD)
    assert "\n.version 7.8\n.target sm_90\n.address_size 64\n" in ptx
    assert ".visible .entry vadd(" in ptx
    assert "mov.u32 %r1, %tid.x;" in body_lines(ptx)


def test_compile_ptx_takes_an_explicit_cpu():
    ptx = isa.compile_ptx(VADD, FLAVOR, cpu="sm_80")
    assert "\n.version 7.0\n.target sm_80\n" in ptx


def test_warp_kernel_ptx():
    lines = body_lines(ptx_of(WARP))
    assert "shfl.sync.bfly.b32 %r3, %r2, 16, 31, -1;" in lines
    assert "bar.sync 0;" in lines
    assert "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in lines


def test_barrier_spellings():
    modern = TRIPLE + (
        "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
        "define ptx_kernel void @k() {\n  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n  ret void\n}\n"
    )
    if MAJOR >= 22:
        assert "bar.sync 0;" in body_lines(ptx_of(modern))
    else:
        unknown = r"llvm\.nvvm\.barrier\.cta\.sync\.aligned\.all: not an intrinsic"
        with pytest.raises(isa.LLVMCodegenError, match=unknown):
            ptx_of(modern)


def test_unknown_nvvm_name_is_a_codegen_error():
    bogus = unary_kernel("declare float @llvm.nvvm.bogus.f32(float)", "call float @llvm.nvvm.bogus.f32(float %x)")
    with pytest.raises(isa.LLVMCodegenError, match=r"llvm\.nvvm\.bogus\.f32: not an intrinsic of this LLVM"):
        ptx_of(bogus)


def test_launch_bounds_spellings():
    annotated = VADD + '!nvvm.annotations = !{!0}\n!0 = !{ptr @vadd, !"maxntidx", i32 256}\n'
    expected = {20: ".maxntid 256, 1, 1", 22: ".maxntid 256"}
    assert expected[MAJOR] in ptx_of(annotated).splitlines()
    attributed = VADD.replace("i32 %n) {", 'i32 %n) "nvvm.maxntid"="128" {')
    has_bound = ".maxntid 128" in ptx_of(attributed).splitlines()
    assert has_bound == (MAJOR >= 22)  # LLVM 20 ignores the function attribute silently


@pytest.mark.parametrize(
    ("name", "decl", "expr", "want"),
    [
        ("exp2", "declare float @llvm.exp2.f32(float)", "call float @llvm.exp2.f32(float %x)",
         {20: "ex2.approx.f32", 22: "ex2.approx.f32"}),
        ("sqrt", "declare float @llvm.sqrt.f32(float)", "call float @llvm.sqrt.f32(float %x)",
         {20: "sqrt.rn.f32", 22: "sqrt.rn.f32"}),
        ("sqrt_afn", "declare float @llvm.sqrt.f32(float)", "call afn float @llvm.sqrt.f32(float %x)",
         {20: "sqrt.rn.f32", 22: "sqrt.approx.f32"}),
        ("fdiv", "", "fdiv float %x, %y", {20: "div.rn.f32", 22: "div.rn.f32"}),
        ("fdiv_afn", "", "fdiv afn float %x, %y", {20: "div.rn.f32", 22: "div.approx.f32"}),
        ("div_approx", "declare float @llvm.nvvm.div.approx.f(float, float)",
         "call float @llvm.nvvm.div.approx.f(float %x, float %y)", {20: "div.approx.f32", 22: "div.approx.f32"}),
        ("lg2_approx", "declare float @llvm.nvvm.lg2.approx.f(float)", "call float @llvm.nvvm.lg2.approx.f(float %x)",
         {20: "lg2.approx.f32", 22: "lg2.approx.f32"}),
        ("shfl_f32", "declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)",
         "call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %x, i32 8, i32 31)",
         {20: "shfl.sync.bfly.b32", 22: "shfl.sync.bfly.b32"}),
    ],
)
def test_math_selection(name, decl, expr, want):
    ops = [line.split()[0] for line in body_lines(ptx_of(unary_kernel(decl, expr)))]
    assert want[MAJOR] in ops, name


@pytest.mark.parametrize(("intrinsic", "libcall"), [("log2", "flog2"), ("log", "flog"), ("exp", "fexp")])
def test_log_and_exp_have_no_selection_and_abort_the_child(intrinsic, libcall):
    module = unary_kernel(
        f"declare float @llvm.{intrinsic}.f32(float)", f"call afn float @llvm.{intrinsic}.f32(float %x)"
    )
    with pytest.raises(isa.LLVMAbortError, match=f"no libcall available for {libcall}$") as info:
        ptx_of(module)
    assert info.value.returncode == 1


def test_private_alloca_in_addrspace5_aborts_the_backend():
    # NVPTX's datalayout has no A5: allocas belong in address space 0.
    with pytest.raises(isa.LLVMAbortError):
        ptx_of(private_array(" addrspace(5)"))


# --- ptxas: cubin and resources ----------------------------------------------------------------------


def test_vadd_cubin_and_resources():
    require_ptxas()
    built = isa.compile_for_arch(VADD, ARCH, FLAVOR)
    assert built.vendor == "nvidia"
    assert built.binary[:4] == b"\x7fELF"
    assert int.from_bytes(built.binary[18:20], "little") == 190  # EM_CUDA
    (res,) = built.resources
    assert res.kernel == "vadd" and res.arch == ARCH
    assert res.registers == 12
    assert (res.spill_store_bytes, res.spill_load_bytes, res.stack_frame_bytes) == (0, 0, 0)
    assert (res.shared_bytes, res.constant_bytes, res.barriers) == (0, 0, 0)
    assert res.param_bytes == 0x210 + 28  # the driver's bank 0 header, then 3 pointers and an i32
    assert isa.shippable(res)


def test_warp_kernel_resources():
    require_ptxas()
    (res,) = isa.compile_for_arch(WARP, ARCH, FLAVOR).resources
    assert res.barriers == 1
    assert res.registers > 0
    assert isa.refusal_reason(res) is None


def test_shared_memory_is_reported():
    require_ptxas()
    (res,) = isa.compile_for_arch(shared_kernel(4096), ARCH, FLAVOR).resources
    assert (res.shared_bytes, res.barriers) == (4096, 1)
    assert isa.shippable(res)


def test_static_shared_memory_over_48k_is_a_ptxas_error():
    require_ptxas()
    with pytest.raises(isa.PtxasError, match=r"uses too much shared data \(0x10000 bytes, 0xc000 max\)"):
        isa.compile_for_arch(shared_kernel(65536), ARCH, FLAVOR)


def test_register_spills_refuse():
    require_ptxas()
    built = isa.compile_for_arch(REGSPILL, ARCH, FLAVOR)
    assert ".maxnreg 24" in built.assembly.splitlines()
    (res,) = built.resources
    assert res.registers <= 24
    assert res.spill_store_bytes > 0 and res.spill_load_bytes > 0 and res.stack_frame_bytes > 0
    assert res.constant_bytes == 256
    assert "Registers are spilled to local memory in function 'regspill'" in built.log
    assert isa.refusal_reason(res) == "spills"
    assert not isa.shippable(res)


def test_private_array_is_a_stack_frame_and_refuses():
    require_ptxas()
    (res,) = isa.compile_for_arch(private_array(""), ARCH, FLAVOR).resources
    assert (res.stack_frame_bytes, res.spill_store_bytes, res.spill_load_bytes) == (1024, 0, 0)
    assert isa.refusal_reason(res) == "scratch"


def test_shared_memory_over_the_block_limit_refuses():
    res = isa.NvidiaResources("k", ARCH, 32, 0, 0, 0, 232448 + 1, 0, 544, 1)
    assert isa.refusal_reason(res) == "lds_over_capacity"
    assert isa.refusal_reason(isa.NvidiaResources("k", ARCH, 32, 0, 0, 0, 232448, 0, 544, 1)) is None
    assert set(isa.NVIDIA_REFUSAL_REASONS) <= set(isa.REFUSAL_REASONS)


def test_missing_ptxas_is_a_typed_error_naming_the_install(monkeypatch):
    monkeypatch.setenv("ROCKE_PTXAS", "/nonexistent/ptxas")
    assert isa.find_ptxas() is None
    with pytest.raises(isa.PtxasNotFoundError, match="pip install nvidia-cuda-nvcc-cu12"):
        isa.run_ptxas(".version 7.8\n.target sm_90\n.address_size 64\n", "sm_90")


def test_ptxas_failure_carries_its_message():
    require_ptxas()
    with pytest.raises(isa.PtxasError, match="ptxas failed for sm_90") as info:
        isa.run_ptxas(".version 7.8\n.target sm_90\n.address_size 64\nthis is not ptx\n", "sm_90")
    assert "syntax error" in info.value.message


def test_ptxas_report_parsing_refuses_garbage():
    with pytest.raises(isa.ResourceParseError, match="names no entry function"):
        isa.ptxas_resources("garbage\n", b"", ARCH)
    log = (
        "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
        "ptxas info    : Function properties for k\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 8 registers, used 0 barriers\n"
    )
    with pytest.raises(isa.ResourceParseError, match="compiled entry k for sm_80, not sm_90"):
        isa.ptxas_resources(log, b"", ARCH)
    with pytest.raises(isa.ResourceParseError, match="not a 64-bit little-endian ELF"):
        isa.ptxas_resources(log.replace("sm_80", "sm_90"), b"not an elf", ARCH)
    with pytest.raises(isa.ResourceParseError, match="states no register count"):
        isa.ptxas_resources("\n".join(log.replace("sm_80", "sm_90").splitlines()[:3]), b"", ARCH)
