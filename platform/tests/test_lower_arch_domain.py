"""The arch-domain table (rocke/arch/data/arch_domain.toml) and its generator
platform/tools/probe_arch_domain.py.

Unmarked tests need no LLVM: the committed table covers exactly the intrinsic table for both
flavors and is in the generator's canonical form, its loader refuses malformed text, and the
lowerer refuses what the table marks. `validity` / `validity_llvm20` regenerate that flavor's
section with the real LLVM and require no drift (each skips under the other LLVM).
"""

from __future__ import annotations

import importlib
import importlib.util
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from rocke.arch import (
    ARCH_NAMES,
    FLAVOR_NAMES,
    MMA_OPS,
    ArchDataError,
    IntrinsicDecl,
    domain_probes,
    parse_arch_domain,
    render_arch_domain,
)
from rocke.ir.samples import xlane_ops
from rocke.lower import LowerError, lower

TOOL = Path(__file__).resolve().parents[1] / "tools" / "probe_arch_domain.py"
DATA = Path(__file__).resolve().parents[1] / "src" / "rocke" / "arch" / "data" / "arch_domain.toml"


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("probe_arch_domain", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _committed() -> str:
    return DATA.read_text(encoding="utf-8")


# --- the committed table --------------------------------------------------------------------------


def test_table_covers_exactly_the_intrinsic_table_for_every_flavor() -> None:
    sections = parse_arch_domain(_committed())
    assert sorted(sections) == sorted(FLAVOR_NAMES)
    for flavor in FLAVOR_NAMES:
        assert [name for name, _ in sections[flavor]] == [d.name for d in domain_probes(flavor)]


def test_table_is_in_canonical_form() -> None:
    text = _committed()
    assert render_arch_domain(parse_arch_domain(text)) == text


def test_table_agrees_with_the_mma_catalog() -> None:
    for flavor, section in parse_arch_domain(_committed()).items():
        statuses = dict(section)
        for op in MMA_OPS:
            expected = tuple("ok" if arch in op.archs else "arch-absent" for arch in ARCH_NAMES)
            assert statuses[op.intrinsic] == expected, (flavor, op.id)


def test_gfx12_wait_counters_are_gfx12_only() -> None:
    for _flavor, section in parse_arch_domain(_committed()).items():
        statuses = dict(section)
        for name in ("llvm.amdgcn.s.wait.loadcnt", "llvm.amdgcn.s.wait.dscnt", "llvm.amdgcn.s.wait.kmcnt"):
            assert statuses[name] == ("arch-absent", "arch-absent", "arch-absent", "ok", "arch-absent")


# --- the loader -----------------------------------------------------------------------------------

_GOOD = (
    'format = "rocke.arch_domain/1"\n\n[llvm22]\n'
    '"llvm.x" = { gfx942 = "ok", gfx950 = "ok", gfx1100 = "ok", gfx1201 = "ok", sm_90 = "ok" }\n'
)


def test_parse_and_render_round_trip() -> None:
    sections = parse_arch_domain(_GOOD)
    assert sections == {"llvm22": (("llvm.x", ("ok", "ok", "ok", "ok", "ok")),)}
    assert render_arch_domain(sections).endswith(_GOOD)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('format = "x"\n', "arch_domain.toml: format must be 'rocke.arch_domain/1'"),
        (_GOOD.replace("[llvm22]", "[llvm99]"), "arch_domain.toml: unknown flavor section 'llvm99'"),
        (_GOOD.replace('gfx1201 = "ok"', 'gfx1201 = "maybe"'),
         "arch_domain.toml: llvm22.'llvm.x'.gfx1201: expected one of ok, arch-absent, name-absent"),
        (_GOOD.replace(', sm_90 = "ok"', ""), "arch_domain.toml: llvm22.'llvm.x': 'sm_90' is missing"),
        (_GOOD.replace('gfx942 = "ok", gfx950 = "ok"', 'gfx950 = "ok", gfx942 = "ok"'),
         "arch_domain.toml: llvm22.'llvm.x': list the archs in order gfx942, gfx950, gfx1100, gfx1201, sm_90"),
    ],
)
def test_parse_refuses_malformed_tables(text: str, message: str) -> None:
    with pytest.raises(ArchDataError) as info:
        parse_arch_domain(text)
    assert str(info.value) == message


# --- the lowerer consults it ----------------------------------------------------------------------


def _patched(monkeypatch: pytest.MonkeyPatch, name: str, status: str | None) -> None:
    """The committed table with `name` on gfx942 set to status (None: the entry removed)."""
    sections = dict(parse_arch_domain(_committed()))
    for flavor, section in sections.items():
        rows = []
        for entry, statuses in section:
            if entry == name:
                if status is None:
                    continue
                statuses = (status, *statuses[1:])
            rows.append((entry, statuses))
        sections[flavor] = tuple(rows)
    monkeypatch.setattr(importlib.import_module("rocke.arch.arch_domain"), "arch_domain_table", lambda: sections)


@pytest.mark.parametrize(
    ("status", "reason"),
    [("arch-absent", "LLVM cannot select it there"), ("name-absent", "this LLVM does not know it")],
)
def test_lowering_refuses_an_intrinsic_outside_the_domain(
    monkeypatch: pytest.MonkeyPatch, status: str, reason: str
) -> None:
    _patched(monkeypatch, "llvm.amdgcn.ds.swizzle", status)
    with pytest.raises(LowerError) as info:
        lower(xlane_ops(), arch="gfx942", flavor="llvm22")
    assert str(info.value) == (
        "xlane.ds_swizzle %8 at body[5]: intrinsic 'llvm.amdgcn.ds.swizzle' is outside the arch domain of "
        f"gfx942 under flavor llvm22 ({status}: {reason})"
    )
    lower(xlane_ops(), arch="gfx950", flavor="llvm22")  # only gfx942 was marked


def test_lowering_refuses_an_intrinsic_without_an_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    _patched(monkeypatch, "llvm.amdgcn.workitem.id.x", None)
    with pytest.raises(LowerError) as info:
        lower(xlane_ops(), arch="gfx1100", flavor="llvm20")
    assert str(info.value) == (
        "gpu.thread_id_x %3 at body[0]: intrinsic 'llvm.amdgcn.workitem.id.x' has no arch-domain entry for "
        "flavor llvm20; regenerate rocke/arch/data/arch_domain.toml with platform/tools/probe_arch_domain.py"
    )


def test_overloaded_vectors_take_their_elements_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    from rocke.ir import Builder, f16, ptr, vec

    b = Builder("fma_v4f16", max_workgroup_size=64)
    p = b.param("p", ptr(vec(f16, 4), "global"))
    tid = b.thread_id_x()
    x = b.load(p, tid)
    b.store(p, tid, b.fma(x, x, x))
    kernel = b.finish()
    assert "declare <4 x half> @llvm.fma.v4f16(<4 x half>, <4 x half>, <4 x half>)" in lower(
        kernel, arch="gfx942", flavor="llvm22")
    _patched(monkeypatch, "llvm.fma.f16", "arch-absent")
    with pytest.raises(LowerError, match=r"intrinsic 'llvm\.fma\.f16' is outside the arch domain of gfx942"):
        lower(kernel, arch="gfx942", flavor="llvm22")


# --- the generator --------------------------------------------------------------------------------


def test_probe_module_passes_immargs_as_constants() -> None:
    from rocke.arch import get_flavor

    decl = IntrinsicDecl(0, "llvm.amdgcn.ds.swizzle", "i32", ("i32", "i32 immarg"), "llvm.amdgcn.ds.swizzle")
    text = _tool().probe_module(decl, get_flavor("llvm22"), "gfx942")
    assert "define amdgpu_kernel void @probe(ptr addrspace(1) %out, i32 %a0) {" in text
    assert "  %r = call i32 @llvm.amdgcn.ds.swizzle(i32 %a0, i32 0)" in text
    assert "  store i32 %r, ptr addrspace(1) %out" in text
    assert text.endswith("declare i32 @llvm.amdgcn.ds.swizzle(i32, i32 immarg)\n")
    # An arch of another target probes with that target's triple and kernel calling convention.
    nvptx = _tool().probe_module(decl, get_flavor("llvm22"), "sm_90")
    assert 'target triple = "nvptx64-nvidia-cuda"' in nvptx
    assert "define ptx_kernel void @probe(ptr addrspace(1) %out, i32 %a0) {" in nvptx


def test_regenerating_one_flavor_keeps_the_others() -> None:
    tool = _tool()
    current = _committed()
    sections = parse_arch_domain(current)
    assert tool.regenerated_text(current, "llvm22", sections["llvm22"]) == current
    changed = tool.regenerated_text(current, "llvm22", sections["llvm22"][:1])
    assert parse_arch_domain(changed)["llvm20"] == sections["llvm20"]
    assert parse_arch_domain(changed)["llvm22"] == sections["llvm22"][:1]


def _needs_llvm(major: int) -> None:
    llvm = pytest.importorskip("llvmlite.binding")
    have = llvm.llvm_version_info[0]
    if have != major:
        pytest.skip(f"needs LLVM {major}; the running llvmlite has LLVM {have}")


def _check_no_drift(flavor: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = _tool().main(["--check", "--flavor", flavor])
    assert status == 0, out.getvalue() + err.getvalue()
    assert "up to date" in out.getvalue()


@pytest.mark.validity
def test_llvm22_section_regenerates_without_drift() -> None:
    _needs_llvm(22)
    _check_no_drift("llvm22")


@pytest.mark.validity_llvm20
def test_llvm20_section_regenerates_without_drift() -> None:
    _needs_llvm(20)
    _check_no_drift("llvm20")


@pytest.mark.parametrize(
    "major", [pytest.param(22, marks=pytest.mark.validity), pytest.param(20, marks=pytest.mark.validity_llvm20)]
)
def test_probe_classifies_unknown_and_unselectable_intrinsics(major: int) -> None:
    _needs_llvm(major)
    from rocke.arch import get_flavor
    from rocke.isa import CompileJob, compile_many, running_flavor

    tool = _tool()
    flavor = running_flavor()
    unknown = IntrinsicDecl(0, "llvm.amdgcn.rocke.no.such.thing", "i32", ("i32",), "llvm.amdgcn.rocke.no.such.thing")
    wait = IntrinsicDecl(0, "llvm.amdgcn.s.wait.loadcnt", "void", ("i16 immarg",), "llvm.amdgcn.s.wait.loadcnt")
    cases = [(unknown, "gfx942", "name-absent"), (wait, "gfx942", "arch-absent"), (wait, "gfx1201", "ok")]
    jobs = [CompileJob(tool.probe_module(decl, get_flavor(flavor), arch), arch) for decl, arch, _ in cases]
    results = list(compile_many(jobs, flavor))
    assert [tool.classify(decl, r) for (decl, _, _), r in zip(cases, results, strict=True)] == [
        expected for _, _, expected in cases
    ]
    bad = IntrinsicDecl(0, "llvm.amdgcn.ds.bpermute", "i32", ("i64", "i32"), "llvm.amdgcn.ds.bpermute")
    (result,) = compile_many([CompileJob(tool.probe_module(bad, get_flavor(flavor), "gfx942"), "gfx942")], flavor)
    with pytest.raises(tool.TableError, match=r"LLVM refuses the declaration of llvm\.amdgcn\.ds\.bpermute"):
        tool.classify(bad, result)
