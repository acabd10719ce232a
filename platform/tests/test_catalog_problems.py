"""`rocke catalog build --problems FILE`: the problem corpus (one problem a line, `KIND --problem
'k=v ...' --arch A` as `rocke plan` takes them) read and planned before anything compiles, each
plan's launches built beside the shipped configs, once per spec, on every arch the corpus names; an
NVIDIA arch skipped with its reason; the index (rocke.catalog/2) read back by read_catalog with the
messages its C++ twin gives (library/tests/test_library_sdk.py compares them). Planners here are
stand-ins (platform has none of its own); the library's real ones are served end to end in
library/tests/test_library_sdk.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rocke import isa
from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.families.planners import Planner
from rocke.gates.catalog import (
    FORMAT,
    INDEX,
    CatalogError,
    CorpusProblem,
    PlannedProblem,
    build_catalog,
    parse_problem_line,
    plan_problems,
    read_catalog,
    read_problems,
    skip_reason,
    verify_catalog,
)

FAMILY = "elementwise"


def test_a_line_is_what_rocke_plan_takes() -> None:
    where = "corpus:3"
    assert parse_problem_line("conv_fwd --problem 'n=1 h=8' --arch gfx942", where) == \
        CorpusProblem(where, "conv_fwd", "n=1 h=8", "gfx942")
    assert parse_problem_line("  --arch=gfx1100 --problem=\"n=1 h=8\" conv_fwd  # a comment", where) == \
        CorpusProblem(where, "conv_fwd", "n=1 h=8", "gfx1100")
    assert parse_problem_line("", where) is None and parse_problem_line("   # only a comment", where) is None


@pytest.mark.parametrize(("line", "message"), [
    ("conv_fwd --arch gfx942", "corpus:3: --problem is missing (a line is KIND --problem 'k=v ...' --arch A)"),
    ("conv_fwd --problem 'n=1'", "corpus:3: --arch is missing"),
    ("--problem 'n=1' --arch gfx942", "corpus:3: no problem kind"),
    ("conv_fwd --problem 'n=1' --arch gfx9", "corpus:3: --arch 'gfx9' is not one of gfx942, "),
    ("conv_fwd --problem 'n=1' --arch gfx942 --json", "corpus:3: unknown option '--json'"),
    ("conv_fwd --problem 'n=1' --arch gfx942 --arch gfx950", "corpus:3: --arch given twice"),
    ("conv_fwd conv_dgrad --problem 'n=1' --arch gfx942", "corpus:3: unexpected word 'conv_dgrad' after the kind"),
    ("conv_fwd --problem 'n=1 --arch gfx942", "corpus:3: No closing quotation"),
    ("conv_fwd --arch gfx942 --problem", "corpus:3: --problem needs a value"),
])
def test_a_malformed_line_names_the_line_and_the_form(line: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_problem_line(line, "corpus:3")
    assert str(info.value).startswith(message)


def test_read_problems_skips_comments_and_refuses_an_empty_or_binary_file(tmp_path: Path) -> None:
    corpus = tmp_path / "problems.txt"
    corpus.write_text("# the product path\n\nconv_fwd --problem 'n=1' --arch gfx942\n"
                      "attention_fwd --problem 'batch=1' --arch gfx1100  # and one more\n")
    assert read_problems(corpus) == [CorpusProblem(f"{corpus}:3", "conv_fwd", "n=1", "gfx942"),
                                     CorpusProblem(f"{corpus}:4", "attention_fwd", "batch=1", "gfx1100")]
    corpus.write_text("# nothing but comments\n")
    with pytest.raises(ValueError) as empty:
        read_problems(corpus)
    assert str(empty.value) == f"{corpus}: no problem (one a line: KIND --problem 'k=v ...' --arch A)"
    corpus.write_bytes(b"conv_fwd --problem '\xff' --arch gfx942\n")
    with pytest.raises(ValueError) as binary:
        read_problems(corpus)
    assert str(binary.value) == f"{corpus}: not UTF-8 text (byte 20)"
    with pytest.raises(ValueError) as absent:
        read_problems(tmp_path / "absent.txt")
    assert str(absent.value) == f"{tmp_path / 'absent.txt'}: no such file"


def _plan_json(kind: str, arch: str, problem: str, status: str, launches: list[tuple[str, str]]) -> str:
    rejected = [] if status != "refused" else [{"detail": "", "family": FAMILY, "spec": "",
                                                "reasons": [{"code": "ARCH_UNSUPPORTED", "text": "..."}]}]
    return json.dumps({"arch": arch, "kind": kind, "problem": problem, "status": status, "rejected": rejected,
                       "launches": [{"family": f, "spec": s, "contract": {}} for f, s in launches]})


def _configs(arch: str) -> list[str]:
    return [c.kv for c in family_configs(get_family(FAMILY)) if c.arch == arch and not c.refuse]


def _planners() -> dict[str, Planner]:
    """A stand-in kind 'pointwise' whose problem 'config=N' plans elementwise's N-th shipped config of the
    arch; 'config=-1' is refused, 'config=x' malformed."""

    def plan(text: str, arch: str) -> tuple[str, str, str]:
        key, _, value = text.partition("=")
        if key != "config" or not value.lstrip("-").isdigit():
            raise ValueError(f"pointwise problem: malformed '{text}' (expected config=N)")
        if int(value) < 0:
            return _plan_json("pointwise", arch, text, "refused", []), "", "refused"
        return _plan_json("pointwise", arch, text, "planned", [(FAMILY, _configs(arch)[int(value)])]), "", "planned"

    return {"pointwise": Planner("pointwise", "tests", plan, families=(FAMILY,))}


def test_plan_problems_plans_each_line_and_names_the_line_of_a_bad_one() -> None:
    planners = _planners()
    corpus = [CorpusProblem("c:1", "pointwise", "config=0", "gfx950"),
              CorpusProblem("c:2", FAMILY, "config=1", "gfx1201")]  # a family serving one kind names it
    planned = plan_problems(corpus, planners)
    assert planned == [
        PlannedProblem("c:1", "pointwise", "gfx950", "config=0", "planned", ((FAMILY, _configs("gfx950")[0]),)),
        PlannedProblem("c:2", "pointwise", "gfx1201", "config=1", "planned", ((FAMILY, _configs("gfx1201")[1]),)),
    ]
    with pytest.raises(ValueError) as unknown:
        plan_problems([CorpusProblem("c:7", "conv_fwd", "n=1", "gfx942")], planners)
    assert str(unknown.value) == "c:7: unknown problem kind 'conv_fwd'; known: pointwise"
    with pytest.raises(ValueError) as malformed:
        plan_problems([CorpusProblem("c:8", "pointwise", "config=x", "gfx942")], planners)
    assert str(malformed.value) == "c:8: pointwise problem: malformed 'config=x' (expected config=N)"
    with pytest.raises(CatalogError) as refused:
        plan_problems([CorpusProblem("c:1", "pointwise", "config=-1", "gfx942"),
                       CorpusProblem("c:2", "pointwise", "config=-2", "gfx942")], planners)
    reason = "pointwise on gfx942 is refused (elementwise: ARCH_UNSUPPORTED)"
    assert str(refused.value) == f"2 problem(s) refused: c:1: {reason}; c:2: {reason}"


def test_an_nvidia_arch_is_skipped_with_its_reason() -> None:
    assert skip_reason("sm_90", "llvm22") == "sm_90 is an NVIDIA arch; the catalog holds AMD code objects (HSACO) only"
    assert skip_reason("gfx942", None) == "the running llvmlite bundles no LLVM flavor rocke knows"


def test_nothing_to_build_here_fails_before_compiling(tmp_path: Path) -> None:
    with pytest.raises(CatalogError) as info:
        build_catalog(None, arch="sm_90", out=tmp_path)
    assert str(info.value) == f"cannot build code objects here: sm_90: {skip_reason('sm_90', 'llvm22')}"
    assert not any(tmp_path.iterdir())


@pytest.fixture(scope="module")
def needs_toolchain() -> str:
    flavor = isa.running_flavor()
    if flavor is None:
        pytest.skip("the running LLVM validates no rocke flavor")
    if isa.find_lld() is None:
        pytest.skip("ld.lld not found: install Debian package lld-19")
    return flavor


@pytest.mark.validity
@pytest.mark.validity_llvm20
def test_problems_are_built_beside_the_shipped_configs_once_per_spec(needs_toolchain, tmp_path: Path) -> None:
    planners = _planners()
    family = get_family(FAMILY)
    shipped = {family.spec.from_kv(kv).digest() for kv in _configs("gfx950")}
    twice = plan_problems([CorpusProblem("c:1", "pointwise", "config=2", "gfx950"),  # a shipped config
                           CorpusProblem("c:2", "pointwise", "config=2", "gfx950")], planners)
    index, _ = build_catalog([FAMILY], archs=["sm_90"], out=tmp_path, problems=twice, quiet=True)
    digest = family.spec.from_kv(_configs("gfx950")[2]).digest()
    assert index["format"] == FORMAT and index["families"] == [FAMILY]
    assert list(index["entries"]) == ["gfx950"] and set(index["entries"]["gfx950"]) == shipped  # each spec once
    assert index["skipped"] == {"sm_90": skip_reason("sm_90", needs_toolchain)}
    assert index["problems"] == 2 * [
        {"arch": "gfx950", "kind": "pointwise", "launches": [digest], "problem": "config=2", "status": "planned"}]
    assert verify_catalog(tmp_path) == ([], len(shipped))
    catalog = read_catalog(tmp_path)
    assert catalog.skipped == index["skipped"] and catalog.flavor == needs_toolchain

    planned = plan_problems([CorpusProblem("c:1", "pointwise", "config=2", "gfx950"),
                             CorpusProblem("c:2", "pointwise", "config=0", "gfx1201")], planners)
    only, _ = build_catalog(None, out=tmp_path, problems=planned, shipped=False, quiet=True)
    other = family.spec.from_kv(_configs("gfx1201")[0]).digest()
    assert only["families"] == [] and only["skipped"] == {}
    assert {arch: list(entries) for arch, entries in only["entries"].items()} == {"gfx950": [digest],
                                                                                  "gfx1201": [other]}
    assert verify_catalog(tmp_path) == ([], 2)  # the other gfx950 code objects went with their entries
    entry = read_catalog(tmp_path).find("gfx1201", other)
    assert entry is not None and entry.spec == _configs("gfx1201")[0] and entry.kernel.startswith(f"{FAMILY}_")
    assert (tmp_path / entry.hsaco).read_bytes()[:4] == b"\x7fELF"


def _index(tmp_path: Path, value: object) -> Path:
    (tmp_path / INDEX).write_text(json.dumps(value))
    return tmp_path


GOOD = {"family": FAMILY, "hsaco": "gfx950/elementwise/k.hsaco", "hsaco_sha256": "0" * 64, "kernel": "k", "spec": "x"}


@pytest.mark.parametrize(("index", "message"), [
    ([], "not a rocke.catalog/2 index (format None; rebuild it with rocke catalog build)"),
    ({"format": "rocke.catalog/1", "entries": []}, "not a rocke.catalog/2 index (format 'rocke.catalog/1'; "),
    ({"format": FORMAT, "entries": {}}, "flavor is not a string"),
    ({"format": FORMAT, "flavor": "llvm22", "skipped": {"sm_90": 1}, "entries": {}},
     "skipped is not an object of arch -> reason"),
    ({"format": FORMAT, "flavor": "llvm22", "entries": {"gfx950": []}},
     "entries is not an object of arch -> spec digest -> entry"),
    ({"format": FORMAT, "flavor": "llvm22", "entries": {"gfx950": {"d": 3}}}, "entry gfx950 d is not an object"),
    ({"format": FORMAT, "flavor": "llvm22", "entries": {"gfx950": {"d": {**GOOD, "kernel": None}}}},
     "entry gfx950 d: kernel is not a string"),
    ({"format": FORMAT, "flavor": "llvm22", "entries": {"gfx950": {"d": {**GOOD, "hsaco": "../x.hsaco"}}}},
     "entry gfx950 d: hsaco ../x.hsaco is not a path inside the catalog"),
])
def test_read_catalog_names_the_index_and_what_is_wrong(tmp_path: Path, index: object, message: str) -> None:
    with pytest.raises(ValueError) as info:
        read_catalog(_index(tmp_path, index))
    assert str(info.value).startswith(f"{tmp_path / INDEX}: {message}")


def test_read_catalog_of_no_index_or_not_json(tmp_path: Path) -> None:
    with pytest.raises(ValueError) as absent:
        read_catalog(tmp_path)
    assert str(absent.value) == f"{tmp_path / INDEX}: no catalog index (rocke catalog build writes one)"
    (tmp_path / INDEX).write_text("{")
    with pytest.raises(ValueError) as broken:
        read_catalog(tmp_path)
    assert str(broken.value) == f"{tmp_path / INDEX}: not JSON"


@pytest.mark.validity
@pytest.mark.validity_llvm20
def test_a_corpus_of_dead_problems_writes_an_index_of_no_code_object(needs_toolchain, tmp_path: Path) -> None:
    dead = PlannedProblem("c:1", "pointwise", "gfx942", "config=0 n=0", "dead", ())
    out = tmp_path / "new" / "catalog"
    index, _ = build_catalog(None, out=out, problems=[dead], shipped=False, quiet=True)
    assert index["entries"] == {"gfx942": {}} and index["problems"][0]["status"] == "dead"
    assert verify_catalog(out) == ([], 0) and read_catalog(out).find("gfx942", "0" * 64) is None
