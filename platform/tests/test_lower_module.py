"""rocke.lower without an LLVM: the module's layout and order, declarations, attributes, params,
names, constants, LDS packing, waitcnt encodings, every refusal, and the data loaders behind them
(flavors.toml, intrinsics.toml)."""

from __future__ import annotations

import re

import pytest

from rocke import isa
from rocke.arch import (
    INTRINSICS,
    TARGET_NAMES,
    ArchDataError,
    UnknownArchError,
    get_arch,
    get_flavor,
    get_target,
    intrinsic_def,
    parse_flavor_data,
)
from rocke.arch.datafile import read_data_text
from rocke.arch.intrinsics import parse_intrinsic_data
from rocke.ir import OPS, Builder, KernelDef, VerifyError, bf16, f16, f32, i1, i8, i32, i64, ptr, vec
from rocke.ir.samples import axpy, block_reduce, gemm_mfma, sample_kernels, sample_needs
from rocke.lower import LowerError, dispatch, lower
from rocke.lower.dispatch import LOWERINGS, merge_lowerings
from rocke.lower.names import sanitize_hint

ARCHS = ("gfx942", "gfx950", "gfx1100", "gfx1201")
FLAVORS = ("llvm20", "llvm22")


def _store_kernel(values, name: str = "k", **attrs) -> KernelDef:  # type: ignore[no-untyped-def]
    """A kernel storing each (value, type) constant through its own pointer param."""
    b = Builder(name, **attrs)
    params = [b.param(f"p{i}", ptr(ty, "global")) for i, (_, ty) in enumerate(values)]
    for p, (value, ty) in zip(params, values, strict=True):
        b.store(p, b.const(0, i32), b.const(value, ty))
    return b.finish()


# --- module layout ----------------------------------------------------------------------------------


def test_module_sections_in_order() -> None:
    text = lower(block_reduce(), arch="gfx942", flavor="llvm22")
    lines = text.split("\n")
    assert text.endswith("\n") and lines[-1] == ""
    assert lines[0] == f'target datalayout = "{get_target("amdgcn").datalayout("llvm22")}"'
    assert lines[1] == 'target triple = "amdgcn-amd-amdhsa"'
    assert lines[2] == ""
    assert lines[3] == "@rocke.lds = internal addrspace(3) global [32 x i8] poison, align 16"
    assert lines[4] == ""
    assert lines[5].startswith("define amdgpu_kernel void @block_reduce(") and lines[5].endswith(") #0 {")
    assert lines[6] == "entry:"
    end = lines.index("}")
    assert lines[end - 1] == "  ret void" and lines[end + 1] == ""
    decls = lines[end + 2: lines.index("", end + 2)]
    assert decls and all(line.startswith("declare ") for line in decls)
    assert lines[-2] == 'attributes #0 = { "amdgpu-flat-work-group-size"="64,256" "target-cpu"="gfx942" }'
    assert lines[-3] == ""


@pytest.mark.parametrize("flavor", FLAVORS)
def test_text_is_plain_and_deterministic(flavor: str) -> None:
    for name, kernel in sample_kernels().items():
        for arch in ARCHS:
            if not sample_needs()[name].satisfied_by(get_arch(arch)):
                continue
            text = lower(kernel, arch=arch, flavor=flavor)
            assert text.isascii() and "\r" not in text and "\t" not in text
            assert ";" not in text and "!" not in text  # no comments, no metadata
            assert "source_filename" not in text and "ModuleID" not in text
            assert text.count("attributes #") == 1 and text.count("#0") == 2
            assert lower(kernel, arch=arch, flavor=flavor) == text


def test_no_lds_global_without_lds() -> None:
    lines = lower(axpy(), arch="gfx942", flavor="llvm20").split("\n")
    assert lines[3].startswith("define amdgpu_kernel void @axpy(")
    assert "addrspace(3)" not in "\n".join(lines)


def test_no_declarations_without_intrinsics() -> None:
    text = lower(_store_kernel([(1, i32)]), arch="gfx1100", flavor="llvm22")
    assert "declare" not in text
    assert text.endswith("  ret void\n}\n\nattributes #0 = { \"amdgpu-flat-work-group-size\"=\"32,256\" "
                          "\"target-cpu\"=\"gfx1100\" }\n")


@pytest.mark.parametrize("flavor", FLAVORS)
@pytest.mark.parametrize("arch", ARCHS)
def test_declarations_are_exactly_the_used_intrinsics_in_table_order(arch: str, flavor: str) -> None:
    order = {row.name: row.index for row in INTRINSICS}
    for name, kernel in sample_kernels().items():
        if not sample_needs()[name].satisfied_by(get_arch(arch)):
            continue
        text = lower(kernel, arch=arch, flavor=flavor)
        body = text[text.index("define "): text.index("\n}\n")]
        called = set(re.findall(r"call [^@]*@([A-Za-z0-9_.]+)\(", body))
        declared = re.findall(r"^declare [^@]*@([A-Za-z0-9_.]+)\(", text, re.M)
        assert sorted(declared) == sorted(called), name
        rows = []
        for decl in declared:
            row = decl if decl in order else re.sub(r"\.(v\d+)?(f16|bf16|f32)$", ".{M}", decl)
            rows.append(order[row])
        assert rows == sorted(rows), name


def test_declaration_text_comes_from_the_table_and_the_flavor() -> None:
    text = lower(sample_kernels()["buffer_copy"], arch="gfx942", flavor="llvm22")
    assert ("declare ptr addrspace(8) @llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i64, i32)"
            in text.split("\n"))
    assert "declare <4 x i32> @llvm.amdgcn.raw.ptr.buffer.load.v4i32(ptr addrspace(8), i32, i32, i32 immarg)" in text
    old = lower(sample_kernels()["buffer_copy"], arch="gfx942", flavor="llvm20")
    assert "@llvm.amdgcn.make.buffer.rsrc.p8.p1(ptr addrspace(1), i16, i32, i32)" in old
    # The record count is widened only where the flavor's declaration takes i64.
    assert "zext i32 %nbytes.4 to i64" in text and "i16 0, i64 %t" in text
    assert "i16 0, i32 %nbytes.4, i32 159744)" in old  # gfx942's buffer_rsrc_word3 = 0x00027000


# --- attributes and params --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arch", "max_wg", "waves", "expected"),
    [
        ("gfx942", 256, 0, '"amdgpu-flat-work-group-size"="64,256" "target-cpu"="gfx942"'),
        ("gfx1100", 256, 0, '"amdgpu-flat-work-group-size"="32,256" "target-cpu"="gfx1100"'),
        ("gfx950", 16, 0, '"amdgpu-flat-work-group-size"="16,16" "target-cpu"="gfx950"'),
        ("gfx1201", 1024, 3,
         '"amdgpu-flat-work-group-size"="32,1024" "amdgpu-waves-per-eu"="3" "target-cpu"="gfx1201"'),
    ],
)
def test_attribute_group(arch: str, max_wg: int, waves: int, expected: str) -> None:
    kernel = _store_kernel([(1, i32)], max_workgroup_size=max_wg, waves_per_eu=waves)
    assert lower(kernel, arch=arch, flavor="llvm22").endswith(f"attributes #0 = {{ {expected} }}\n")


@pytest.mark.parametrize(("flavor", "nocapture"), [("llvm20", "nocapture"), ("llvm22", "captures(none)")])
def test_param_attributes(flavor: str, nocapture: str) -> None:
    b = Builder("params", max_workgroup_size=64)
    b.param("a", ptr(f32, "global"), noalias=True, readonly=True, align=16)
    b.param("b", ptr(vec(f16, 4), "global"), writeonly=True)
    b.param("c", ptr(i8, "constant"), readonly=True, align=4)
    b.param("d", f16)
    b.param("e", i64)
    define = lower(b.finish(), arch="gfx942", flavor=flavor).split("\n")[3]
    assert define == (
        f"define amdgpu_kernel void @params(ptr addrspace(1) noalias {nocapture} readonly align 16 %a.0, "
        f"ptr addrspace(1) {nocapture} writeonly %b.1, ptr addrspace(4) {nocapture} readonly align 4 %c.2, "
        "half %d.3, i64 %e.4) #0 {"
    )


# --- names and constants ----------------------------------------------------------------------------


def test_names_come_from_ids_and_hints() -> None:
    b = Builder("names", max_workgroup_size=64)
    p = b.param("out.ptr", ptr(i32, "global"))
    tid = b.thread_id_x()
    lane = b.lane_id(name="my.lane")
    b.store(p, tid, lane)
    text = lower(b.finish(), arch="gfx942", flavor="llvm22")
    assert "%out.ptr.0" in text and "%v1 = call i32 @llvm.amdgcn.workitem.id.x()" in text
    assert "%t0 = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)" in text
    assert "%my.lane.2 = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %t0)" in text
    assert "%t1 = getelementptr inbounds i32, ptr addrspace(1) %out.ptr.0, i32 %v1" in text
    assert sanitize_hint("a-b c.d_9") == "a_b_c.d_9"


def test_block_labels_count_scf_ops_in_program_order() -> None:
    text = lower(block_reduce(), arch="gfx1100", flavor="llvm22")
    labels = re.findall(r"^([a-z0-9.]+):$", text, re.M)
    assert labels == ["entry", "if0.then", "if0.else", "if0.join", "if1.then", "if1.join", "if2.then",
                      "for3.header", "for3.body", "for3.latch", "for3.exit", "if2.join"]
    assert "  %acc.39 = phi float [ 0x0000000000000000, %if2.then ], [ %acc.41, %for3.latch ]" in text
    assert "  %value.12 = phi float [ %v13, %if0.then ], [ 0x0000000000000000, %if0.else ]" in text
    assert "  %acc.37 = phi float [ %acc.39, %for3.header ]" in text


def test_constants_in_llvm_hex_form() -> None:
    nan, inf = float("nan"), float("inf")
    values = [(1.5, f32), (1.5, f16), (1.5, bf16), (nan, f32), (nan, f16), (nan, bf16), (-0.0, f32), (-inf, f16),
              (inf, bf16), (-1, i8), (-(2**63), i64), (65504.0, f16), (2.0**-24, f16)]
    text = lower(_store_kernel(values), arch="gfx942", flavor="llvm22")
    stored = re.findall(r"store (\w+) (\S+), ", text)
    assert stored == [
        ("float", "0x3FF8000000000000"), ("half", "0xH3E00"), ("bfloat", "0xR3FC0"),
        ("float", "0x7FF8000000000000"), ("half", "0xH7E00"), ("bfloat", "0xR7FC0"),
        ("float", "0x8000000000000000"), ("half", "0xHFC00"), ("bfloat", "0xR7F80"),
        ("i8", "-1"), ("i64", "-9223372036854775808"), ("half", "0xH7BFF"), ("half", "0xH0001"),
    ]


def test_i1_constants_are_true_and_false() -> None:
    b = Builder("flags", max_workgroup_size=64)
    p = b.param("p", ptr(i32, "global"))
    one, two = b.const(1, i32), b.const(2, i32)
    b.store(p, one, b.select(b.const(1, i1), one, two))
    b.store(p, two, b.select(b.const(0, i1), one, two))
    text = lower(b.finish(), arch="gfx942", flavor="llvm22")
    assert "select i1 true, i32 1, i32 2" in text and "select i1 false, i32 1, i32 2" in text


def test_gpu_constants_and_lane_ids_follow_the_wave_size() -> None:
    b = Builder("waves", max_workgroup_size=64)
    p = b.param("p", ptr(i32, "global"))
    b.store(p, b.lane_id(), b.wave_size())
    kernel = b.finish()
    wave64 = lower(kernel, arch="gfx950", flavor="llvm22")
    wave32 = lower(kernel, arch="gfx1201", flavor="llvm22")
    assert "mbcnt.hi" in wave64 and "store i32 64," in wave64
    assert "mbcnt.hi" not in wave32 and "store i32 32," in wave32


# --- LDS ------------------------------------------------------------------------------------------


def test_lds_allocations_are_packed_in_definition_order() -> None:
    b = Builder("lds", max_workgroup_size=64)
    p = b.param("p", ptr(f32, "global"))
    a = b.lds_alloc(i8, 3, align=1, name="a")
    c = b.lds_alloc(f32, 4, align=4, name="c")
    d = b.lds_alloc(vec(f32, 3), 2, align=1, name="d")
    e = b.lds_alloc(f16, 1, align=64, name="e")
    tid = b.thread_id_x()
    b.lds_store(a, tid, b.const(1, i8))
    b.lds_store(c, tid, b.const(1.0, f32))
    b.lds_store(d, tid, b.lds_load(d, tid))
    b.lds_store(e, tid, b.const(1.0, f16))
    b.store(p, tid, b.const(1.0, f32))
    text = lower(b.finish(), arch="gfx942", flavor="llvm22")
    assert "@rocke.lds = internal addrspace(3) global [66 x i8] poison, align 64" in text
    offsets = re.findall(r"%(\w)\.\d+ = getelementptr inbounds i8, ptr addrspace\(3\) @rocke.lds, i32 (\d+)", text)
    assert offsets == [("a", "0"), ("c", "4"), ("d", "20"), ("e", "64")]
    # A vec<f32x3> pointee steps over 12 packed bytes and loads with its natural alignment 4.
    assert "getelementptr inbounds [3 x float], ptr addrspace(3) %d.3, i32" in text
    assert re.search(r"load <3 x float>, ptr addrspace\(3\) %t\d+, align 4", text)


def test_too_much_lds_is_refused_per_arch() -> None:
    b = Builder("big", max_workgroup_size=64)
    big = b.lds_alloc(f32, 40960)  # 163840 bytes: gfx950's limit, above gfx942's
    b.lds_store(big, b.thread_id_x(), b.const(0.0, f32))
    kernel = b.finish()
    lower(kernel, arch="gfx950", flavor="llvm22")
    with pytest.raises(LowerError) as info:
        lower(kernel, arch="gfx942", flavor="llvm22")
    assert str(info.value) == "kernel @big: allocates 163840 bytes of LDS; gfx942 allows 65536 per workgroup"
    assert info.value.where == "kernel @big"


# --- memory access details --------------------------------------------------------------------------


def test_access_alignment_is_the_attribute_or_the_pointees() -> None:
    b = Builder("align", max_workgroup_size=64)
    h = b.param("h", ptr(f16, "global"))
    q = b.param("q", ptr(vec(f32, 4), "global"))
    tid = b.thread_id_x()
    b.store(h, tid, b.load(h, tid, lanes=4))
    b.store(h, tid, b.load(h, tid, lanes=4, align=8), align=8)
    b.store(q, b.exts(tid, i64), b.load(q, tid))
    text = lower(b.finish(), arch="gfx942", flavor="llvm22")
    assert re.findall(r"(?:load|store) (<\d+ x \w+>)[^\n]*align (\d+)", text) == [
        ("<4 x half>", "2"), ("<4 x half>", "2"), ("<4 x half>", "8"), ("<4 x half>", "8"),
        ("<4 x float>", "16"), ("<4 x float>", "16")]
    assert "getelementptr inbounds [4 x float], ptr addrspace(1) %q.1, i64 %v" in text


@pytest.mark.parametrize(
    ("ty", "suffix", "cast"),
    [(i8, "i8", False), (vec(i8, 2), "i16", True), (f16, "i16", True), (i32, "i32", False), (f32, "i32", True),
     (i64, "v2i32", True), (vec(f32, 3), "v3i32", True), (vec(i32, 4), "v4i32", False), (vec(bf16, 8), "v4i32", True)],
)
def test_buffer_accesses_use_the_integer_type_of_their_size(ty, suffix: str, cast: bool) -> None:  # type: ignore[no-untyped-def]
    b = Builder("buf", max_workgroup_size=64)
    src = b.param("src", ptr(i32, "global"))
    r = b.make_rsrc(src, b.const(64, i32))
    b.buffer_store(r, b.const(16, i32), b.buffer_load(r, b.const(0, i32), ty, name="x"))
    text = lower(b.finish(), arch="gfx1100", flavor="llvm22")
    assert f"@llvm.amdgcn.raw.ptr.buffer.load.{suffix}(ptr addrspace(8) %v" in text
    assert f"@llvm.amdgcn.raw.ptr.buffer.store.{suffix}(" in text
    assert ("bitcast" in text) == cast


@pytest.mark.parametrize(("ty", "size"), [(vec(f16, 3), 6), (vec(f32, 8), 32), (vec(i8, 3), 3)])
def test_buffer_access_sizes_outside_the_instructions_are_refused(ty, size: int) -> None:  # type: ignore[no-untyped-def]
    b = Builder("buf", max_workgroup_size=64)
    src = b.param("src", ptr(i32, "global"))
    r = b.make_rsrc(src, b.const(64, i32))
    b.buffer_load(r, b.const(0, i32), ty)
    with pytest.raises(LowerError) as info:
        lower(b.finish(), arch="gfx942", flavor="llvm20")
    assert str(info.value) == (f"mem.buffer_load %4 at body[3]: a buffer access of {ty.text} moves {size} bytes; "
                               "raw buffer accesses move 1, 2, 4, 8, 12 or 16 bytes")


def test_make_rsrc_flags_and_constant_bases() -> None:
    b = Builder("rsrc", max_workgroup_size=64)
    lut = b.param("lut", ptr(f32, "constant"))
    b.buffer_load(b.make_rsrc(lut, b.const(64, i32)), b.const(0, i32), f32)
    kernel = b.finish()
    rdna = lower(kernel, arch="gfx1100", flavor="llvm20")
    assert "%t0 = addrspacecast ptr addrspace(4) %lut.0 to ptr addrspace(1)" in rdna
    assert "(ptr addrspace(1) %t0, i16 0, i32 64, i32 822243328)" in rdna  # 0x31027000
    cdna = lower(kernel, arch="gfx942", flavor="llvm22")
    assert "%t1 = zext i32 64 to i64" in cdna and "(ptr addrspace(1) %t0, i16 0, i64 %t1, i32 159744)" in cdna


# --- cross-lane and sync ----------------------------------------------------------------------------


def _shuffle_kernel(mask: int) -> KernelDef:
    b = Builder("shuffle", max_workgroup_size=64)
    p = b.param("p", ptr(f32, "global"))
    tid = b.thread_id_x()
    b.store(p, tid, b.shuffle_xor(b.load(p, tid), mask))
    return b.finish()


def test_shuffle_xor_lowering_by_mask() -> None:
    small = lower(_shuffle_kernel(5), arch="gfx1100", flavor="llvm22")
    assert "call i32 @llvm.amdgcn.ds.swizzle(i32 %t1, i32 5151)" in small  # 5 << 10 | 0x1F
    large = lower(_shuffle_kernel(32), arch="gfx942", flavor="llvm22")
    assert "xor i32 %t3, 32" in large and "@llvm.amdgcn.ds.bpermute(i32 %t5, i32 %t1)" in large
    with pytest.raises(LowerError) as info:
        lower(_shuffle_kernel(32), arch="gfx1100", flavor="llvm22")
    assert str(info.value) == "xlane.shuffle_xor %3 at body[2]: mask 32 is not below the wave size 32 of gfx1100"


def _waitcnt_kernel(pairs) -> KernelDef:  # type: ignore[no-untyped-def]
    b = Builder("waits", max_workgroup_size=64)
    for vm, lgkm in pairs:
        b.waitcnt(vmcnt=vm, lgkmcnt=lgkm)
    return b.finish()


@pytest.mark.parametrize(
    ("arch", "expected"),
    [
        # gfx9: vmcnt[3:0] | expcnt << 4 | lgkmcnt << 8 | vmcnt[5:4] << 14 (lgkmcnt clamps to 15)
        ("gfx942", ["s.waitcnt(i32 3952)", "s.waitcnt(i32 49279)", "s.waitcnt(i32 53119)", "s.waitcnt(i32 3963)"]),
        # gfx11: expcnt | lgkmcnt << 4 | vmcnt << 10
        ("gfx1100", ["s.waitcnt(i32 1015)", "s.waitcnt(i32 64519)", "s.waitcnt(i32 65527)", "s.waitcnt(i32 11911)"]),
        # gfx12: one wait per counter, kmcnt clamps to 31
        ("gfx1201", ["s.wait.loadcnt(i16 0)", "s.wait.dscnt(i16 0)", "s.wait.kmcnt(i16 0)", "s.wait.loadcnt(i16 63)",
                     "s.wait.dscnt(i16 63)", "s.wait.kmcnt(i16 31)", "s.wait.loadcnt(i16 11)", "s.wait.dscnt(i16 40)",
                     "s.wait.kmcnt(i16 31)"]),
    ],
)
def test_waitcnt_encodings(arch: str, expected: list[str]) -> None:
    text = lower(_waitcnt_kernel([(0, -1), (-1, 0), (-1, -1), (63, 63), (11, 40)]), arch=arch, flavor="llvm22")
    assert re.findall(r"call void @llvm\.amdgcn\.(s\.wait[a-z.]*\(i\d+ \d+\))", text) == expected


def test_barrier_is_fenced() -> None:
    text = lower(block_reduce(), arch="gfx942", flavor="llvm20")
    assert ('  fence syncscope("workgroup") release\n  call void @llvm.amdgcn.s.barrier()\n'
            '  fence syncscope("workgroup") acquire\n') in text


def test_mma_bitcasts_bf16_fragments_to_the_intrinsic_types() -> None:
    b = Builder("mma_bf16", max_workgroup_size=64)
    pa = b.param("a", ptr(vec(bf16, 4), "global"))
    pc = b.param("c", ptr(vec(f32, 4), "global"))
    lane = b.lane_id()
    a = b.load(pa, lane)
    b.store(pc, lane, b.mma("mfma_f32_16x16x16_bf16", a, a, b.load(pc, lane)))
    text = lower(b.finish(), arch="gfx942", flavor="llvm22")
    assert re.search(r"%t\d+ = bitcast <4 x bfloat> %v\d+ to <4 x i16>", text)
    assert "call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16bf16.1k(<4 x i16> %t" in text
    assert "<4 x float> %v" in text and "i32 0, i32 0, i32 0)" in text


# --- refusals and their order -------------------------------------------------------------------------


def test_unknown_flavor_is_refused_first() -> None:
    with pytest.raises(ValueError) as info:
        lower(axpy(), arch="gfx90a", flavor="llvm21")
    assert str(info.value) == "unknown flavor 'llvm21'; known flavors: llvm20, llvm22"
    assert not isinstance(info.value, UnknownArchError)


def test_unknown_arch_is_the_rocke_arch_error() -> None:
    with pytest.raises(UnknownArchError) as info:
        lower(axpy(), arch="gfx90a", flavor="llvm22")
    assert str(info.value) == "unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90"


def test_verifier_runs_with_the_arch() -> None:
    with pytest.raises(VerifyError) as info:
        lower(gemm_mfma(), arch="gfx1100", flavor="llvm22")
    assert info.value.rule == "arch"
    assert "op_id 'mfma_f32_16x16x16_f16' is not available on gfx1100" in str(info.value)
    kernel = axpy()
    kernel.body.ops.pop(0)  # a use before its definition
    with pytest.raises(VerifyError):
        lower(kernel, arch="gfx942", flavor="llvm22")


def test_every_op_has_a_lowering() -> None:
    assert sorted(LOWERINGS) == sorted(op.name for op in OPS if op.name != "scf.yield")
    for target, table in dispatch.LOWERINGS_BY_TARGET.items():
        assert sorted(table) == sorted(op.name for op in OPS if op.name != "scf.yield"), target
    assert sorted(dispatch.LOWERINGS_BY_TARGET) == sorted(TARGET_NAMES)


def test_one_lowering_file_per_dialect() -> None:
    """rocke/lower/ops_<dialect>.py lowers exactly the ops of <dialect>, as the simulator's files do;
    so does every module of a target's own tables (rocke/lower/nvptx/ops_<dialect>.py)."""
    dialects = sorted({op.name.split(".")[0] for op in OPS})
    for dialect in dialects:
        module = getattr(dispatch, f"ops_{dialect}")
        tables = [module.LOWERINGS, getattr(module, "SHARED_LOWERINGS", {})]
        assert module.LOWERINGS, dialect
        for table in tables:
            assert {name.split(".")[0] for name in table} <= {dialect}, module.__name__
    for tables in dispatch.TARGET_TABLES.values():
        for table in tables:
            assert len({name.split(".")[0] for name in table}) == 1


def test_nvptx_module_sections() -> None:
    """An sm_90 module: the nvptx target's datalayout, triple and calling convention, the kernel's
    attributes, then its !nvvm.annotations bound on the workgroup size."""
    text = lower(block_reduce(), arch="sm_90", flavor="llvm22")
    lines = text.split("\n")
    assert lines[0] == f'target datalayout = "{get_target("nvptx").datalayout("llvm22")}"'
    assert lines[1] == 'target triple = "nvptx64-nvidia-cuda"'
    assert lines[3] == "@rocke.lds = internal addrspace(3) global [32 x i8] poison, align 16"
    assert lines[5].startswith("define ptx_kernel void @block_reduce(")
    assert 'attributes #0 = { "target-cpu"="sm_90" }' in lines
    bound = block_reduce().attrs["max_workgroup_size"]
    assert text.endswith(f'\n\n!nvvm.annotations = !{{!0}}\n!0 = !{{ptr @block_reduce, !"maxntidx", i32 {bound}}}\n')
    assert "llvm.amdgcn" not in text


def test_merging_the_lowering_tables_refuses_a_duplicate_op() -> None:
    def first(em, op):  # type: ignore[no-untyped-def]
        pass

    def second(em, op):  # type: ignore[no-untyped-def]
        pass

    assert merge_lowerings({"a.x": first}, {"a.y": second}) == {"a.x": first, "a.y": second}
    with pytest.raises(ValueError, match=re.escape("two lowerings for 'a.x'")):
        merge_lowerings({"a.x": first}, {"a.y": second, "a.x": second})
    with pytest.raises(ValueError, match=re.escape("two lowerings for 'vec.bitcast'")):
        merge_lowerings(dispatch.ops_arith.LOWERINGS, {"vec.bitcast": second}, dispatch.ops_vec.LOWERINGS)


# --- the data files -------------------------------------------------------------------------------


def test_isa_reads_the_one_flavor_table() -> None:
    for name in ("llvm20", "llvm22"):
        row = get_flavor(name)
        assert isa.flavor_toolchain(name) == isa.FlavorToolchain(name, row.llvm_major, row.llvmlite_min,
                                                                 row.llvmlite_max)
    assert isa.flavor_names() == ("llvm20", "llvm22")


_FLAVORS = read_data_text("flavors.toml")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('format = "rocke.flavors/1"', 'format = "x"', "flavors.toml: format must be 'rocke.flavors/1'"),
        ('nocapture = "nocapture"\n', "", "flavors.toml: flavor 'llvm20': 'nocapture' is missing"),
        ('name = "llvm20"', 'name = "llvm30"', "flavors.toml: flavor rows must be sorted by name"),
        ('{ ir = "f16", llvm = "half" },\n', "",
         "flavors.toml: llvm.scalar_types: must list exactly i1, i8, i16, i32, i64, f16, bf16, f32 in this order"),
        ("llvm_major = 22", "llvm_major = -22", "flavors.toml: flavor 'llvm22'.llvm_major: expected a non-negative "
         "integer"),
    ],
)
def test_flavor_loader_refuses_malformed_rows(old: str, new: str, message: str) -> None:
    assert old in _FLAVORS
    with pytest.raises(ArchDataError) as info:
        parse_flavor_data(_FLAVORS.replace(old, new, 1))
    assert str(info.value) == message


_INTRINSICS = read_data_text("intrinsics.toml")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('name = "llvm.fma.{M}"', 'name = "llvm.fma"',
         "intrinsics.toml: intrinsic 'llvm.fma': an overloaded name needs {M}; types may use only {T}"),
        ('name = "llvm.amdgcn.mbcnt.lo"\nret = "i32"', 'name = "llvm.amdgcn.mbcnt.lo"\nret = "{T}"',
         "intrinsics.toml: intrinsic 'llvm.amdgcn.mbcnt.lo': placeholders need an overload"),
        ('overload = "float"', 'overload = "int"', "intrinsics.toml: intrinsic 'llvm.fma.{M}'.overload: expected one "
         "of , float"),
        ('name = "llvm.amdgcn.ds.bpermute"', 'name = "llvm.amdgcn.ds.swizzle"',
         "intrinsics.toml: intrinsic: 'llvm.amdgcn.ds.swizzle' appears twice"),
        ('model = "split_counters"', 'model = "vmcnt_lgkmcnt"', "intrinsics.toml: waitcnt: 'vmcnt_lgkmcnt' appears "
         "twice"),
    ],
)
def test_intrinsic_loader_refuses_malformed_rows(old: str, new: str, message: str) -> None:
    assert old in _INTRINSICS
    with pytest.raises(ArchDataError) as info:
        parse_intrinsic_data(_INTRINSICS.replace(old, new, 1))
    assert str(info.value) == message


def test_intrinsic_table_order_ends_with_the_mma_catalog() -> None:
    from rocke.arch import MMA_OPS

    assert [row.index for row in INTRINSICS] == list(range(len(INTRINSICS)))
    assert [row.mma_op_id for row in INTRINSICS[-len(MMA_OPS):]] == [op.id for op in MMA_OPS]
    assert intrinsic_def("llvm.fma.{M}").overload == "float"
