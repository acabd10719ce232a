"""rocke.lower through the real LLVMs: every sample kernel and an op-coverage corpus (every op of
ops.toml, across the scalar and vector types each accepts) on every arch where it is legal, in both
flavors. Each flavor's text is checked by its own LLVM: parse + verify in-process, then ISA through
rocke.isa.compile_many (one child process per batch).

* `validity` (LLVM 22, llvmlite 0.48-0.50) checks flavor llvm22;
* `validity_llvm20` (LLVM 20, llvmlite 0.45-0.47) checks flavor llvm20;
each skips cleanly when the running LLVM is the other one. Lowering itself needs no LLVM, so the
determinism checks at the bottom are unmarked.
"""

from __future__ import annotations

import re

import pytest

from rocke.arch import ARCH_NAMES, MMA_OPS, get_arch
from rocke.ir import Builder, KernelDef, Value, bf16, f16, f32, i1, i8, i16, i32, i64, kernel_needs, ptr, vec
from rocke.ir.samples import sample_kernels
from rocke.ir.types import Type
from rocke.lower import lower

FLAVORS = ("llvm20", "llvm22")

# --- the op-coverage corpus ---------------------------------------------------------------------

FLOAT_TYPES = (f16, bf16, f32, vec(f16, 2), vec(bf16, 4), vec(f32, 3))
INT_TYPES = (i8, i16, i32, i64, vec(i32, 2), vec(i16, 4), vec(i8, 4))
BUFFER_TYPES = (i8, vec(i8, 2), i16, f16, bf16, i32, f32, vec(f16, 2), i64, vec(f32, 2), vec(f32, 3),
                vec(i32, 4), vec(bf16, 8), vec(f16, 8))


def _tag(ty: Type) -> str:
    return ty.text.replace("vec<", "v").replace(">", "")


def _lanes(ty: Type) -> int:
    return ty.lanes if ty.is_vec else 1  # type: ignore[attr-defined,no-any-return]


def _like(ty: Type, elem: Type) -> Type:
    """elem with ty's lane count."""
    return vec(elem, ty.lanes) if ty.is_vec else elem  # type: ignore[attr-defined,arg-type]


def _elem_ptr(ty: Type) -> Type:
    return ptr(ty, "global")


def float_ops(ty: Type) -> KernelDef:
    b = Builder(f"float_ops_{_tag(ty)}", max_workgroup_size=128)
    src = b.param("src", _elem_ptr(ty), readonly=True, noalias=True)
    dst = b.param("dst", _elem_ptr(ty), writeonly=True, noalias=True)
    ints = b.param("ints", _elem_ptr(_like(ty, i32)), noalias=True)
    tid = b.thread_id_x(name="tid")
    x = b.load(src, tid, name="x")
    y = b.load(src, b.add(tid, b.const(1, i32)), name="y")
    z = b.load(src, b.add(tid, b.const(2, i32)), name="z")
    results = [b.add(x, y), b.sub(x, y), b.mul(x, y), b.divf(x, y), b.remf(x, y), b.negf(x), b.minf(x, y),
               b.maxf(x, y), b.fma(x, y, z), b.exp2(x), b.log2(x), b.rcp(x), b.sqrt(x), b.rsqrt(x)]
    for k, value in enumerate(results):
        b.store(dst, b.add(tid, b.const(k, i32)), value)
    elem = ty.element  # type: ignore[attr-defined]
    if elem != f32:
        wide = b.extf(x, _like(ty, f32), name="wide")
        b.store(dst, tid, b.truncf(b.mul(wide, wide), ty))
    as_int = b.fptosi(x, _like(ty, i32), name="as_int")
    as_uint = b.fptoui(y, _like(ty, i32), name="as_uint")
    b.store(ints, tid, b.add(as_int, as_uint))
    back = b.add(b.sitofp(as_int, ty), b.uitofp(as_uint, ty), name="back")
    b.store(dst, tid, b.sitofp(b.fptosi(back, _like(ty, i16)), ty))
    b.store(dst, tid, b.uitofp(b.fptoui(back, _like(ty, i64)), ty))
    if not ty.is_vec:
        for pred in ("oeq", "one", "olt", "ole", "ogt", "oge", "ord", "ueq", "une", "ult", "ule", "ugt", "uge",
                     "uno"):
            b.store(dst, tid, b.select(b.cmpf(pred, x, y), x, z))
    return b.finish()


def int_ops(ty: Type) -> KernelDef:
    b = Builder(f"int_ops_{_tag(ty)}", max_workgroup_size=64)
    src = b.param("src", _elem_ptr(ty), readonly=True)
    dst = b.param("dst", _elem_ptr(ty), writeonly=True)
    tid = b.thread_id_x(name="tid")
    x = b.load(src, tid, name="x")
    y = b.load(src, b.add(tid, b.const(1, i32)), name="y")
    ops = (b.add, b.sub, b.mul, b.divs, b.divu, b.rems, b.remu, b.and_, b.or_, b.xor_, b.shl, b.shrs, b.shru,
           b.mins, b.maxs, b.minu, b.maxu)
    for k, fn in enumerate(ops):
        b.store(dst, b.add(tid, b.const(k, i32)), fn(x, y))
    elem = ty.element  # type: ignore[attr-defined]
    if elem != i64:
        wide = _like(ty, i64)
        b.store(dst, tid, b.trunc(b.add(b.exts(x, wide), b.extu(y, wide)), ty))
    if elem != i8:
        b.store(dst, tid, b.exts(b.trunc(x, _like(ty, i8)), ty))
    if not ty.is_vec:
        for pred in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"):
            b.store(dst, tid, b.select(b.cmpi(pred, x, y), x, y))
        b.store(dst, tid, b.select(b.trunc(x, i1), x, y))
    return b.finish()


def mem_ops() -> KernelDef:
    b = Builder("mem_ops", max_workgroup_size=256)
    halves = b.param("halves", ptr(f16, "global"), readonly=True, align=16)
    triples = b.param("triples", ptr(vec(f32, 3), "global"), align=4)
    table = b.param("table", ptr(vec(f16, 4), "constant"), readonly=True, align=8)
    acc = b.param("acc", ptr(f32, "global"))
    words = b.param("words", ptr(i64, "global"), noalias=True)
    n64 = b.param("n64", i64)
    lds_words = b.lds_alloc(i32, 64, name="lds_words")
    lds_bytes = b.lds_alloc(i8, 3, align=1, name="lds_bytes")
    lds_quads = b.lds_alloc(vec(f32, 4), 16, align=16, name="lds_quads")
    lds_halves = b.lds_alloc(f16, 5, align=2, name="lds_halves")
    tid = b.thread_id_x(name="tid")
    for lanes in (1, 2, 4, 8):
        v = b.load(halves, tid, lanes=lanes, name=f"h{lanes}")
        b.lds_store(lds_halves, b.const(0, i32), v)
    t = b.load(triples, b.exts(tid, i64), name="t")
    b.store(triples, b.add(tid, b.const(1, i32)), t, align=16)
    row = b.load(b.ptr_add(table, b.const(2, i32), name="row_ptr"), tid, name="row")
    b.lds_store(lds_quads, tid, b.extf(b.bitcast(b.bitcast(row, i64), vec(f16, 4)), vec(f32, 4)))
    quad = b.lds_load(b.ptr_add(lds_quads, b.const(1, i32)), tid, name="quad")
    b.lds_store(lds_words, tid, b.bitcast(b.extract(quad, 3), i32))
    pair = b.lds_load(lds_words, tid, lanes=2, align=8, name="pair")
    b.store(words, n64, b.bitcast(pair, i64))
    b.lds_store(lds_bytes, b.const(2, i32), b.trunc(tid, i8))
    b.store(words, tid, b.extu(b.lds_load(lds_bytes, tid), i64))
    b.atomic_add_f32(acc, n64, b.extract(quad, 0))
    b.atomic_add_f32(b.ptr_add(acc, n64), tid, b.const(1.0, f32))
    return b.finish()


def buffer_ops() -> KernelDef:
    b = Builder("buffer_ops", max_workgroup_size=64)
    src = b.param("src", ptr(i32, "global"), readonly=True)
    lut = b.param("lut", ptr(f32, "constant"), readonly=True)
    dst = b.param("dst", ptr(i8, "global"))
    nbytes = b.param("nbytes", i32)
    tid = b.thread_id_x(name="tid")
    rin = b.make_rsrc(src, nbytes, name="rin")
    rlut = b.make_rsrc(lut, nbytes, name="rlut")
    rout = b.make_rsrc(dst, nbytes, name="rout")
    offset = b.mul(tid, b.const(16, i32), name="offset")
    for ty in BUFFER_TYPES:
        b.buffer_store(rout, offset, b.buffer_load(rin, offset, ty, name=f"b_{_tag(ty)}"))
    b.buffer_store(rout, offset, b.buffer_load(rlut, offset, f32))
    return b.finish()


def sync_ops() -> KernelDef:
    b = Builder("sync_ops", max_workgroup_size=1024, waves_per_eu=4)
    out = b.param("out", ptr(i32, "global"))
    tid = b.thread_id_x()
    v = b.load(out, tid)
    for vm, lgkm in ((0, -1), (-1, 0), (3, 2), (-1, -1), (63, 63), (5, 40)):
        b.waitcnt(vmcnt=vm, lgkmcnt=lgkm)
        b.store(out, tid, v)
    b.barrier()
    b.store(out, tid, v)
    b.wave_lds_fence()
    b.store(out, tid, v)
    return b.finish()


def xlane_ops(wave_size: int) -> KernelDef:
    b = Builder(f"xlane_ops_w{wave_size}", max_workgroup_size=256)
    words = b.param("words", ptr(i32, "global"))
    floats = b.param("floats", ptr(f32, "global"))
    tid = b.thread_id_x()
    w = b.load(words, tid, name="w")
    f = b.load(floats, tid, name="f")
    masks = (1, 16, 31) + ((32, 63) if wave_size == 64 else ())
    for mask in masks:
        b.store(words, tid, b.shuffle_xor(w, mask))
        b.store(floats, tid, b.shuffle_xor(f, mask))
    b.store(words, tid, b.ds_swizzle(w, 0x801F))
    b.store(floats, tid, b.ds_bpermute(b.shl(tid, b.const(2, i32)), f))
    b.store(words, tid, b.readfirstlane(w))
    b.store(floats, tid, b.readfirstlane(f))
    return b.finish()


def gpu_ops() -> KernelDef:
    b = Builder("gpu_ops", max_workgroup_size=1024)
    out = b.param("out", ptr(i32, "global"))
    values = [b.thread_id_x(), b.thread_id_y(), b.thread_id_z(), b.block_id_x(), b.block_id_y(), b.block_id_z(),
              b.block_dim_x(), b.block_dim_y(), b.block_dim_z(), b.lane_id(), b.wave_id(), b.wave_size()]
    for k, value in enumerate(values):
        b.store(out, b.const(k, i32), value)
    return b.finish()


def mma_kernel(op_id: str) -> KernelDef:
    op = next(o for o in MMA_OPS if o.id == op_id)
    a_ty, b_ty, c_ty = (vec({"f16": f16, "bf16": bf16, "f32": f32}[x.dtype], x.length) for x in (op.a, op.b, op.c))
    bld = Builder(f"mma_{op_id}", max_workgroup_size=op.wave_size)
    pa = bld.param("a", ptr(a_ty, "global"), readonly=True)
    pb = bld.param("b", ptr(b_ty, "global"), readonly=True)
    pc = bld.param("c", ptr(c_ty, "global"))
    lane = bld.lane_id(name="lane")
    d = bld.mma(op_id, bld.load(pa, lane), bld.load(pb, lane), bld.load(pc, lane), name="d")
    bld.store(pc, lane, bld.mma(op_id, bld.load(pa, lane), bld.load(pb, lane), d))
    return bld.finish()


def scf_ops() -> KernelDef:
    b = Builder("scf_ops", max_workgroup_size=256)
    src = b.param("src", ptr(vec(f32, 4), "global"), readonly=True)
    alt = b.param("alt", ptr(vec(f32, 4), "global"), readonly=True)
    out = b.param("out", ptr(vec(f32, 4), "global"))
    n = b.param("n", i64)
    nbytes = b.param("nbytes", i32)
    tid = b.thread_id_x(name="tid")
    odd = b.cmpi("ne", b.and_(tid, b.const(1, i32)), b.const(0, i32), name="odd")
    (base,) = b.if_(odd, lambda: [src], lambda: [alt], names=["base"])
    (res,) = b.if_(odd, lambda: [b.make_rsrc(src, nbytes)], lambda: [b.make_rsrc(alt, nbytes)], names=["res"])
    zero = b.splat(b.const(0.0, f32), 4, name="zero")

    def body(j: Value, acc: Value, p: Value) -> list[Value]:
        (step,) = b.if_(b.cmpi("slt", j, b.const(3, i64)), lambda: [b.load(p, j)], lambda: [zero], names=["step"])
        return [b.add(acc, step), b.ptr_add(p, b.const(1, i32))]

    total, _ = b.for_(b.const(0, i64), n, b.const(1, i64), [zero, base], body, names=["acc", "p"], iv_name="j")

    def count(i: Value) -> None:
        b.if_(odd, lambda: None, lambda: b.store(out, i, total))

    b.for_(b.const(0, i32), b.trunc(n, i32), b.const(2, i32), [], count, iv_name="i")
    b.buffer_store(res, b.const(0, i32), b.buffer_load(res, b.const(16, i32), vec(f32, 4)))
    b.store(out, tid, total)
    return b.finish()


def corpus() -> dict[str, KernelDef]:
    kernels: list[KernelDef] = [float_ops(t) for t in FLOAT_TYPES] + [int_ops(t) for t in INT_TYPES]
    kernels += [mem_ops(), buffer_ops(), sync_ops(), xlane_ops(32), xlane_ops(64), gpu_ops(), scf_ops()]
    kernels += [mma_kernel(op.id) for op in MMA_OPS]
    return {k.name: k for k in kernels}


def legal_archs(kernel: KernelDef) -> tuple[str, ...]:
    needs = kernel_needs(kernel)
    archs = [a for a in ARCH_NAMES if needs.satisfied_by(get_arch(a))]
    if kernel.name.startswith("xlane_ops_w"):
        archs = [a for a in archs if f"w{get_arch(a).wave_size}" in kernel.name]
    return tuple(archs)


def all_kernels() -> dict[str, KernelDef]:
    return {**sample_kernels(), **corpus()}


CASES: tuple[tuple[str, str], ...] = tuple(
    (name, arch) for name, kernel in all_kernels().items() for arch in legal_archs(kernel))


# --- through the real LLVM ------------------------------------------------------------------------


def _check_with_llvm(flavor: str) -> None:
    from rocke import isa

    kernels = all_kernels()
    jobs = []
    for name, arch in CASES:
        text = lower(kernels[name], arch=arch, flavor=flavor)
        isa.verify_ll(text, flavor, arch=arch)
        # NVPTX emits PTX text (ptxas makes the object); AMDGPU an ELF object.
        output = "asm" if isa.codegen_target(arch).vendor == "nvidia" else "obj"
        jobs.append(isa.CompileJob(text, arch, output, f"{name} on {arch}"))
    failures = [f"{r.label}: {r.error}" for r in isa.compile_many(jobs, flavor) if not r.ok]
    assert not failures, "\n\n".join(failures)


def _needs_llvm(major: int) -> None:
    llvm = pytest.importorskip("llvmlite.binding")
    have = llvm.llvm_version_info[0]
    if have != major:
        pytest.skip(f"needs LLVM {major}; the running llvmlite has LLVM {have}")


@pytest.mark.validity
def test_every_kernel_verifies_and_compiles_with_llvm22() -> None:
    _needs_llvm(22)
    _check_with_llvm("llvm22")


@pytest.mark.validity_llvm20
def test_every_kernel_verifies_and_compiles_with_llvm20() -> None:
    _needs_llvm(20)
    _check_with_llvm("llvm20")


# --- no LLVM needed -------------------------------------------------------------------------------


def test_corpus_covers_every_op() -> None:
    from rocke.ir import OPS

    used = {op.opcode for kernel in all_kernels().values() for op in kernel.walk()}
    assert sorted(o.name for o in OPS if o.name not in used) == []


def test_every_case_has_an_arch_and_mma_ops_their_catalog_archs() -> None:
    kernels = all_kernels()
    assert all(legal_archs(k) for k in kernels.values())
    for op in MMA_OPS:
        assert legal_archs(kernels[f"mma_{op.id}"]) == op.archs


@pytest.mark.parametrize("flavor", FLAVORS)
def test_lowering_is_deterministic(flavor: str) -> None:
    """Same kernel, fresh objects, two lowerings: byte-identical text."""
    kernels, again = all_kernels(), all_kernels()
    first = {(n, a): lower(kernels[n], arch=a, flavor=flavor) for n, a in CASES}
    for (name, arch), text in first.items():
        assert lower(again[name], arch=arch, flavor=flavor) == text


def test_names_are_unique_and_temporaries_numbered_in_text_order() -> None:
    kernels = all_kernels()
    for name, arch in CASES:
        text = lower(kernels[name], arch=arch, flavor="llvm22")
        defined = re.findall(r"^  (%[A-Za-z0-9_.]+) = ", text, re.M)
        labels = re.findall(r"^([A-Za-z0-9_.]+):$", text, re.M)
        assert len(set(defined)) == len(defined) and not set(labels) & {d[1:] for d in defined}, name
        temps = [int(d[2:]) for d in defined if re.fullmatch(r"%t\d+", d)]
        assert temps == list(range(len(temps))), name


# The encodings of sync.waitcnt (vmcnt=11, lgkmcnt=40) read back from the ISA LLVM prints.
WAITCNT_ASM = {
    "gfx942": ["s_waitcnt vmcnt(11)"],  # lgkmcnt 40 clamps to 15: no wait
    "gfx950": ["s_waitcnt vmcnt(11)"],
    "gfx1100": ["s_waitcnt vmcnt(11) lgkmcnt(40)"],
    "gfx1201": ["s_wait_kmcnt 0x1f", "s_wait_loadcnt_dscnt 0xb28"],  # kmcnt clamps to 31
    "sm_90": [],  # no wait counters: sync.waitcnt orders nothing
}


@pytest.mark.parametrize(
    "major", [pytest.param(22, marks=pytest.mark.validity), pytest.param(20, marks=pytest.mark.validity_llvm20)]
)
def test_waitcnt_encodings_read_back_from_the_isa(major: int) -> None:
    _needs_llvm(major)
    from rocke import isa

    flavor = isa.running_flavor()
    b = Builder("waits", max_workgroup_size=64)
    b.waitcnt(vmcnt=11, lgkmcnt=40)
    kernel = b.finish()
    jobs = [isa.CompileJob(lower(kernel, arch=arch, flavor=flavor), arch) for arch in ARCH_NAMES]
    for arch, result in zip(ARCH_NAMES, isa.compile_many(jobs, flavor), strict=True):
        waits = [line.strip() for line in str(result.unwrap()).splitlines() if line.strip().startswith("s_wait")]
        assert waits == WAITCNT_ASM[arch], arch
