"""Cross-check the arch data against the real LLVM 22 AMDGPU and NVPTX backends (llvmlite 0.48-0.50).

* every MMA op: a module calling its intrinsic with the catalog's vector types and immediates
  verifies and selects the catalog's mnemonic on every arch of its set, and on no other arch;
  a wrong fragment length or element type is rejected by the IR verifier;
* every declared feature: a probe compiles to its instruction exactly on the arches listing it;
* occupancy(): never above LLVM's own estimate, and equal to it on cases where whole
  workgroups fill the CU evenly.

AMD archs are checked through the AMDGPU backend; NVIDIA archs (sm_90) through the NVPTX backend,
whose PTX names the instruction (mma.sync, shfl.sync, atom.global.add.f32).

LLVM aborts the process when it cannot select an intrinsic for an arch, so every compile
runs in a forked child of one helper process per batch; an abort marks one case "crash".
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from rocke.arch import ARCH_NAMES, FEATURE_NAMES, MMA_OPS, MmaOp, get_arch, occupancy

AMD_ARCHS = tuple(a for a in ARCH_NAMES if get_arch(a).vendor_target.vendor == "amd")
NVIDIA_ARCHS = tuple(a for a in ARCH_NAMES if get_arch(a).vendor_target.vendor == "nvidia")
AMD_OPS = tuple(op for op in MMA_OPS if op.kind != "mma_sync")
NVIDIA_OPS = tuple(op for op in MMA_OPS if op.kind == "mma_sync")


def _case(arch: str, ir: str) -> dict[str, str]:
    return {"cpu": get_arch(arch).llvm_cpu, "triple": get_arch(arch).vendor_target.triple, "ir": ir}

pytestmark = pytest.mark.validity

_RUNNER = r"""
import json, os, sys
import llvmlite.binding as llvm

llvm.initialize_all_targets()
llvm.initialize_all_asmprinters()
results = []
for case in json.load(sys.stdin):
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            module = llvm.parse_assembly(case["ir"])
            module.verify()
            machine = llvm.Target.from_triple(case["triple"]).create_target_machine(cpu=case["cpu"])
            machine.set_asm_verbosity(True)
            out = {"status": "ok", "module": str(module), "asm": machine.emit_assembly(module)}
        except Exception as exc:
            out = {"status": "invalid", "error": str(exc)}
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(json.dumps(out).encode())
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    results.append(json.loads(data) if data else {"status": "crash", "error": "wait status %d" % status})
json.dump(results, sys.stdout)
"""


def _run_llvm(cases: list[dict[str, str]]) -> list[dict[str, Any]]:
    proc = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout)
    assert len(results) == len(cases)
    return results


@pytest.fixture(scope="module", autouse=True)
def _needs_llvm22() -> None:
    llvm = pytest.importorskip("llvmlite.binding")
    if llvm.llvm_version_info[0] != 22:
        pytest.skip(f"these checks need LLVM 22 (llvmlite 0.48-0.50), found LLVM {llvm.llvm_version_info}")


# --- MMA intrinsics ---------------------------------------------------------------------------

_OTHER_ELEM = {"half": "i16", "i16": "bfloat", "bfloat": "i16", "float": "i32"}


def _mma_ir(op: MmaOp, a_len: int | None = None, a_elem: str | None = None) -> str:
    """A kernel calling op's intrinsic, built only from catalog data (optionally mutating A)."""
    a_type = f"<{a_len or op.a.length} x {a_elem or op.a.llvm_elem}>"
    b_type = op.b.llvm_type if a_len is None and a_elem is None else a_type
    c_type = op.c.llvm_type
    imm_types = "".join(f", {imm.type}" for imm in op.imm_operands)
    imm_args = "".join(f", {imm.llvm_text}" for imm in op.imm_operands)
    return (
        'target triple = "amdgcn-amd-amdhsa"\n'
        f"declare {c_type} @{op.intrinsic}({a_type}, {b_type}, {c_type}{imm_types})\n"
        f"define amdgpu_kernel void @k(ptr addrspace(1) %out, {a_type} %a, {b_type} %b, {c_type} %c) {{\n"
        f"  %d = call {c_type} @{op.intrinsic}({a_type} %a, {b_type} %b, {c_type} %c{imm_args})\n"
        f"  store {c_type} %d, ptr addrspace(1) %out\n"
        "  ret void\n"
        "}\n"
    )


_MMA_CASES = [(op.id, arch, "as_catalog") for op in AMD_OPS for arch in AMD_ARCHS] + [
    (op.id, op.archs[0], mutation) for op in AMD_OPS for mutation in ("double_length", "other_elem")
]


@pytest.fixture(scope="module")
def mma_results() -> dict[tuple[str, str, str], dict[str, Any]]:
    by_id = {op.id: op for op in MMA_OPS}
    cases = []
    for op_id, arch, mutation in _MMA_CASES:
        op = by_id[op_id]
        if mutation == "double_length":
            ir = _mma_ir(op, a_len=2 * op.a.length)
        elif mutation == "other_elem":
            ir = _mma_ir(op, a_elem=_OTHER_ELEM[op.a.llvm_elem])
        else:
            ir = _mma_ir(op)
        cases.append(_case(arch, ir))
    return dict(zip(_MMA_CASES, _run_llvm(cases), strict=True))


def _selected(result: dict[str, Any], pattern: str) -> bool:
    """Whether the compile succeeded and selected an instruction matching `pattern`, in any of
    its encodings (_e32, _e64, _dpp, _sdwa)."""
    return result["status"] == "ok" and re.search(rf"\b{pattern}(_e32|_e64|_dpp|_sdwa)?\b", result["asm"]) is not None


@pytest.mark.parametrize(("op_id", "arch"), [(op.id, arch) for op in AMD_OPS for arch in AMD_ARCHS])
def test_mma_intrinsic_compiles_exactly_on_its_archs(mma_results: dict, op_id: str, arch: str) -> None:
    op = next(o for o in MMA_OPS if o.id == op_id)
    result = mma_results[(op_id, arch, "as_catalog")]
    if arch in op.archs:
        assert result["status"] == "ok", result.get("error")
        assert _selected(result, re.escape(op.mnemonic)), f"{op.mnemonic} not selected for {arch}"
        # LLVM silently re-mangles an overloaded intrinsic's name to its types: the catalog's
        # name must already be the canonical one.
        assert f"@{op.intrinsic}(" in result["module"]
    else:
        assert not _selected(result, re.escape(op.mnemonic)), f"{op_id} also compiles for {arch}: arch set incomplete"


@pytest.mark.parametrize("op_id", [op.id for op in AMD_OPS])
@pytest.mark.parametrize("mutation", ["double_length", "other_elem"])
def test_mma_wrong_fragment_types_are_rejected(mma_results: dict, op_id: str, mutation: str) -> None:
    """The same check with a wrong A/B vector must fail, so the positive result above means something.
    Fixed-type (MFMA) intrinsics fail the IR verifier; overloaded (WMMA) ones accept any vector
    there and then fail instruction selection."""
    op = next(o for o in MMA_OPS if o.id == op_id)
    result = mma_results[(op_id, op.archs[0], mutation)]
    expected = "invalid" if op.kind == "mfma" else ("invalid", "crash")
    assert result["status"] in expected, result.get("error", "compiled")
    if result["status"] == "invalid":
        assert "ntrinsic" in result["error"]  # "Intrinsic has incorrect argument type!" or a mangling error


# --- features ---------------------------------------------------------------------------------

def _kernel(params: str, body: str, decls: str = "") -> str:
    return (f'target triple = "amdgcn-amd-amdhsa"\n{decls}\n'
            f"define amdgpu_kernel void @k(ptr addrspace(1) %p{params}) {{\n{body}\n  ret void\n}}\n!0 = !{{}}\n")


_LDS = "@l = internal addrspace(3) global [256 x i32] poison\n"

# feature -> (kernel IR, pattern of the instruction the feature provides). mfma / wmma come from
# the MMA checks.
FEATURE_PROBES = {
    "packed_fp32": (_kernel(", <2 x float> %a, <2 x float> %b", "  %r = fmul <2 x float> %a, %b\n"
                            "  store <2 x float> %r, ptr addrspace(1) %p"), "v_pk_mul_f32"),
    "global_atomic_fadd_f32": (_kernel(", float %v", '  %r = atomicrmw fadd ptr addrspace(1) %p, float %v '
                                       'syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !0'),
                               "global_atomic_add_f32"),
    "global_atomic_pk_add_bf16": (_kernel(", <2 x bfloat> %v", '  %r = atomicrmw fadd ptr addrspace(1) %p, '
                                          '<2 x bfloat> %v syncscope("agent") monotonic, '
                                          "!amdgpu.no.fine.grained.memory !0"), "global_atomic_pk_add_bf16"),
    "ds_bpermute": (_kernel(", i32 %a, i32 %b", "  %r = call i32 @llvm.amdgcn.ds.bpermute(i32 %a, i32 %b)\n"
                            "  store i32 %r, ptr addrspace(1) %p", "declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)"),
                    "ds_bpermute_b32"),
    "ds_swizzle": (_kernel(", i32 %a", "  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %a, i32 31)\n"
                           "  store i32 %r, ptr addrspace(1) %p", "declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)"),
                   "ds_swizzle_b32"),
    "dpp": (_kernel(", i32 %a", "  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 273, i32 15, "
                    "i32 15, i1 false)\n  store i32 %r, ptr addrspace(1) %p",
                    "declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)"), "v_mov_b32_dpp"),
    "permlane16": (_kernel(", i32 %a, i32 %s", "  %r = call i32 @llvm.amdgcn.permlane16.i32(i32 %a, i32 %a, "
                           "i32 %s, i32 %s, i1 false, i1 false)\n  store i32 %r, ptr addrspace(1) %p",
                           "declare i32 @llvm.amdgcn.permlane16.i32(i32, i32, i32, i32, i1, i1)"), "v_permlane16_b32"),
    "permlane32_swap": (_kernel(", i32 %a, i32 %b", "  %r = call {i32, i32} @llvm.amdgcn.permlane32.swap(i32 %a, "
                                "i32 %b, i1 false, i1 false)\n  %x = extractvalue {i32, i32} %r, 0\n"
                                "  store i32 %x, ptr addrspace(1) %p",
                                "declare {i32, i32} @llvm.amdgcn.permlane32.swap(i32, i32, i1, i1)"),
                        "v_permlane32_swap_b32"),
    "fp8_conversion": (_kernel(", float %a, float %b", "  %r = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %a, "
                               "float %b, i32 0, i1 false)\n  store i32 %r, ptr addrspace(1) %p",
                               "declare i32 @llvm.amdgcn.cvt.pk.fp8.f32(float, float, i32, i1)"), "v_cvt_pk_fp8_f32"),
    "cvt_pk_bf16_f32": (_kernel(", <2 x float> %a", "  %r = fptrunc <2 x float> %a to <2 x bfloat>\n"
                                "  store <2 x bfloat> %r, ptr addrspace(1) %p"), "v_cvt_pk_bf16_f32"),
    "dot2_f32_f16": (_kernel(", <2 x half> %a, <2 x half> %b, float %c", "  %r = call float "
                             "@llvm.amdgcn.fdot2(<2 x half> %a, <2 x half> %b, float %c, i1 false)\n"
                             "  store float %r, ptr addrspace(1) %p",
                             "declare float @llvm.amdgcn.fdot2(<2 x half>, <2 x half>, float, i1)"),
                     "v_(dual_)?dot2(c|acc)?_f32_f16"),  # also gfx9's VOP2 v_dot2c, gfx11's VOPD dual form
    "global_load_lds": (_kernel("", "  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %p, ptr addrspace(3) "
                                "@l, i32 4, i32 0, i32 0)", _LDS + "declare void @llvm.amdgcn.global.load.lds("
                                "ptr addrspace(1), ptr addrspace(3), i32, i32, i32)"), "global_load_lds_dword"),
    "global_load_lds_b128": (_kernel("", "  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %p, "
                                     "ptr addrspace(3) @l, i32 16, i32 0, i32 0)", _LDS + "declare void "
                                     "@llvm.amdgcn.global.load.lds(ptr addrspace(1), ptr addrspace(3), i32, i32, i32)"),
                             "global_load_lds_dwordx4"),
    "ds_read_tr16_b64": (_kernel("", "  %r = call <4 x i16> @llvm.amdgcn.ds.read.tr16.b64.v4i16(ptr addrspace(3) @l)\n"
                                 "  store <4 x i16> %r, ptr addrspace(1) %p", _LDS + "declare <4 x i16> "
                                 "@llvm.amdgcn.ds.read.tr16.b64.v4i16(ptr addrspace(3))"), "ds_read_b64_tr_b16"),
    "readfirstlane": (_kernel("", "  %t = call i32 @llvm.amdgcn.workitem.id.x()\n"
                              "  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %t)\n"
                              "  store i32 %r, ptr addrspace(1) %p",
                              "declare i32 @llvm.amdgcn.workitem.id.x()\n"
                              "declare i32 @llvm.amdgcn.readfirstlane.i32(i32)"), "v_readfirstlane_b32"),
}


def _ptx_kernel(params: str, body: str, decls: str = "") -> str:
    return (f'target triple = "nvptx64-nvidia-cuda"\n{decls}\n'
            f"define ptx_kernel void @k(ptr addrspace(1) %p{params}) {{\n{body}\n  ret void\n}}\n")


_SHFL_IDX = "declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)"

# NVIDIA feature -> (kernel IR, pattern of the PTX instruction that provides it): the lowering's own
# instructions for the op each feature names (rocke/lower/nvptx). mma_sync comes from the MMA checks.
NVIDIA_FEATURE_PROBES = {
    "global_atomic_fadd_f32": (_ptx_kernel(", float %v",
                                           "  %r = atomicrmw fadd ptr addrspace(1) %p, float %v monotonic"),
                               r"atom\.global\.add\.f32"),
    "ds_bpermute": (_ptx_kernel(", i32 %a, i32 %l", "  %r = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %a, "
                                "i32 %l, i32 31)\n  store i32 %r, ptr addrspace(1) %p", _SHFL_IDX),
                    r"shfl\.sync\.idx\.b32"),
    "ds_swizzle": (_ptx_kernel(", i32 %a, i32 %l", "  %r = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %a, "
                               "i32 %l, i32 31)\n  store i32 %r, ptr addrspace(1) %p", _SHFL_IDX),
                   r"shfl\.sync\.idx\.b32"),
    "readfirstlane": (_ptx_kernel(", i32 %a", "  %m = call i32 @llvm.nvvm.activemask()\n"
                                  "  %r = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %m, i32 %a, i32 0, i32 31)\n"
                                  "  store i32 %r, ptr addrspace(1) %p",
                                  "declare i32 @llvm.nvvm.activemask()\n" + _SHFL_IDX), r"activemask\.b32"),
}


def test_every_feature_has_a_probe() -> None:
    assert set(FEATURE_PROBES) | {"mfma", "wmma", "mma_sync"} == set(FEATURE_NAMES)
    for arch in NVIDIA_ARCHS:
        assert set(get_arch(arch).features) - {"mma_sync"} <= set(NVIDIA_FEATURE_PROBES)


@pytest.fixture(scope="module")
def feature_results() -> dict[tuple[str, str], dict[str, Any]]:
    keys = [(feature, arch) for feature in FEATURE_PROBES for arch in AMD_ARCHS]
    keys += [(feature, arch) for feature in NVIDIA_FEATURE_PROBES for arch in NVIDIA_ARCHS]
    cases = [_case(arch, (FEATURE_PROBES if arch in AMD_ARCHS else NVIDIA_FEATURE_PROBES)[feature][0])
             for feature, arch in keys]
    return dict(zip(keys, _run_llvm(cases), strict=True))


@pytest.mark.parametrize(("feature", "arch"), [(f, a) for f in NVIDIA_FEATURE_PROBES for a in NVIDIA_ARCHS])
def test_nvidia_feature_probes_select_their_instruction(feature_results: dict, feature: str, arch: str) -> None:
    result = feature_results[(feature, arch)]
    assert result["status"] == "ok", result.get("error")
    assert re.search(NVIDIA_FEATURE_PROBES[feature][1], result["asm"]), (feature, arch)
    assert get_arch(arch).has_feature(feature)


def _mma_sync_ir(op: MmaOp) -> str:
    """A kernel calling an mma.sync row's intrinsic with its fragments in parts (catalog data only)."""
    params = [*op.a.llvm_arg_types, *op.b.llvm_arg_types, *op.c.llvm_arg_types]
    args = ", ".join(f"{ty} %x{i}" for i, ty in enumerate(params))
    ret = op.c.llvm_type
    return _ptx_kernel(f", {args}", f"  %d = call {ret} @{op.intrinsic}({args})\n"
                       f"  %e = extractvalue {ret} %d, 0\n  store float %e, ptr addrspace(1) %p",
                       f"declare {ret} @{op.intrinsic}({', '.join(params)})")


@pytest.mark.parametrize("op_id", [op.id for op in NVIDIA_OPS])
def test_mma_sync_rows_select_their_instruction(op_id: str) -> None:
    op = next(o for o in NVIDIA_OPS if o.id == op_id)
    results = _run_llvm([_case(arch, _mma_sync_ir(op)) for arch in op.archs])
    for arch, result in zip(op.archs, results, strict=True):
        assert result["status"] == "ok", result.get("error")
        assert op.mnemonic in result["asm"], (op_id, arch)
        assert get_arch(arch).has_feature("mma_sync")


@pytest.mark.parametrize("arch", AMD_ARCHS)
@pytest.mark.parametrize("feature", sorted(FEATURE_PROBES))
def test_feature_matches_llvm(feature_results: dict, feature: str, arch: str) -> None:
    result = feature_results[(feature, arch)]
    has = _selected(result, FEATURE_PROBES[feature][1])
    assert get_arch(arch).has_feature(feature) == has, (feature, arch, result["status"], result.get("error"))


@pytest.mark.parametrize("arch", AMD_ARCHS)
@pytest.mark.parametrize("kind", ["mfma", "wmma"])
def test_mma_kind_features_match_llvm(mma_results: dict, kind: str, arch: str) -> None:
    compiled = any(_selected(mma_results[(op.id, arch, "as_catalog")], re.escape(op.mnemonic))
                   for op in MMA_OPS if op.kind == kind)
    assert get_arch(arch).has_feature(kind) == compiled


# --- occupancy --------------------------------------------------------------------------------

# (arch, clobbered VGPRs, AGPRs, SGPRs, LDS bytes, workgroup size, equal to LLVM?)
OCCUPANCY_CASES = [
    ("gfx942", 100, 0, 10, 0, 256, True),
    ("gfx942", 100, 30, 10, 0, 256, True),
    ("gfx942", 10, 0, 100, 0, 256, True),
    ("gfx942", 10, 0, 80, 0, 256, True),
    ("gfx942", 64, 0, 10, 32768, 256, True),
    ("gfx942", 128, 128, 10, 0, 512, True),
    ("gfx942", 96, 0, 10, 0, 512, False),  # LLVM's 5 needs 2.5 workgroups of 8 waves
    ("gfx950", 64, 64, 20, 100000, 256, True),
    ("gfx950", 40, 0, 10, 81920, 64, True),
    ("gfx1100", 100, 0, 10, 0, 256, True),
    ("gfx1100", 64, 0, 10, 16384, 256, True),
    ("gfx1100", 200, 0, 10, 0, 128, True),
    ("gfx1100", 256, 0, 100, 65536, 1024, False),  # 5 waves/SIMD cannot host a 32-wave workgroup
    ("gfx1201", 200, 0, 90, 40000, 128, True),
    ("gfx1201", 24, 0, 10, 0, 1024, True),
    ("gfx1201", 200, 0, 90, 40000, 512, False),
]


def _occupancy_ir(vgprs: int, agprs: int, sgprs: int, lds: int, wg: int) -> str:
    clobbers = ",".join([f"~{{v{i}}}" for i in range(vgprs)] + [f"~{{a{i}}}" for i in range(agprs)]
                        + [f"~{{s{i}}}" for i in range(sgprs)])
    lds_decl = f"@lds = internal addrspace(3) global [{lds} x i8] poison, align 16\n" if lds else ""
    lds_use = "  store volatile i8 0, ptr addrspace(3) @lds\n" if lds else ""
    return (f'target triple = "amdgcn-amd-amdhsa"\n{lds_decl}'
            "define amdgpu_kernel void @k() #0 {\n"
            f'  call void asm sideeffect "", "{clobbers}"()\n{lds_use}  ret void\n}}\n'
            f'attributes #0 = {{ "amdgpu-flat-work-group-size"="{wg},{wg}" }}\n')


def _asm_number(asm: str, pattern: str) -> int:
    found = re.search(pattern, asm)
    return int(found.group(1)) if found else 0


@pytest.fixture(scope="module")
def occupancy_results() -> list[dict[str, Any]]:
    cases = [_case(arch, _occupancy_ir(v, a, s, lds, wg))
             for arch, v, a, s, lds, wg, _ in OCCUPANCY_CASES]
    return _run_llvm(cases)


@pytest.mark.parametrize("index", range(len(OCCUPANCY_CASES)))
def test_occupancy_against_llvm(occupancy_results: list, index: int) -> None:
    arch, _, _, _, _, wg, equal = OCCUPANCY_CASES[index]
    result = occupancy_results[index]
    assert result["status"] == "ok", result.get("error")
    asm = result["asm"]
    llvm_occupancy = _asm_number(asm, r"; Occupancy: (\d+)")
    ours = occupancy(
        arch,
        vgprs=_asm_number(asm, r"; NumVgprs: (\d+)"),
        agprs=_asm_number(asm, r"; NumAgprs: (\d+)"),
        sgprs=_asm_number(asm, r"\.sgpr_count:\s+(\d+)"),
        lds_bytes=_asm_number(asm, r"; LDSByteSize: (\d+) bytes"),
        workgroup_size=wg,
    )
    assert llvm_occupancy > 0
    if equal:
        assert ours == llvm_occupancy
    else:
        assert ours < llvm_occupancy
