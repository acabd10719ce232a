"""Resource-refusal tables: format, the refusal in `build` (both engines, one text), and the gate's
checks against planted faults (a row without a refusal config, a row for a must-build config, a
shipped config that spills, drift between the table and a measurement).

No LLVM here: measurements are Resources records made by hand. The real measurements run in the
validity lanes (the gate, test_family_validity.py)."""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from rocke import isa
from rocke.engine import native_engine
from rocke.families import build_family, refusals, registry
from rocke.families.configs import family_configs
from rocke.families.platform_families import provide
from rocke.gates import emitters, validity

FAMILIES = {family.name: family for family in provide()}
GEMM = FAMILIES["gemm"]
GENERATOR = Path(__file__).resolve().parents[1] / "tools" / "gen_cpp_tables.py"


def _res(**changes: int) -> isa.Resources:
    base = dict(kernel="k", arch="gfx942", wave_size=64, vgprs=64, agprs=0, unified_vgprs=64, sgprs=40,
                reserved_vgprs=64, reserved_sgprs=40, scratch_bytes=0, lds_bytes=16384, vgpr_spill=0,
                sgpr_spill=0, workgroup_size=256, occupancy=4, counted_occupancy=4)
    return isa.Resources(**{**base, **changes})  # type: ignore[arg-type]


def _first_build_config(family):
    return next(c for c in family_configs(family) if not c.refuse)


def _row(family_name: str, arch: str, kv: str, flavor: str = "llvm22", reason: str = "spills",
         **changes: int) -> refusals.RefusalRow:
    measured = refusals.Measured.of(flavor, reason, _res(arch=arch, vgpr_spill=12, scratch_bytes=64, **changes))
    return refusals.RefusalRow(arch, refusals.spec_digest(family_name, kv), kv, (measured,))


# --- the one shippable rule ----------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "reason"), [
    ({}, None),
    ({"vgpr_spill": 1}, "spills"),
    ({"sgpr_spill": 3}, "spills"),  # SGPR spills to VGPR lanes need no scratch, yet are refused
    ({"scratch_bytes": 16}, "scratch"),
    ({"lds_bytes": 65537}, "lds_over_capacity"),
    ({"occupancy": 0}, "occupancy_zero"),
    ({"vgpr_spill": 1, "occupancy": 0}, "spills"),  # the first rule that applies names it
])
def test_refusal_reason_is_the_one_shippable_rule(changes, reason):
    res = _res(**changes)
    assert isa.refusal_reason(res) == reason
    assert isa.shippable(res) is (reason is None)
    assert reason is None or reason in isa.REFUSAL_REASONS


# --- table format --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_shipped_tables_parse_and_every_row_has_a_refusal_config(name):
    family = FAMILIES[name]
    path = refusals.table_path(family)
    assert path is not None and path.is_file(), f"{name} ships no {refusals.table_name(name)}"
    table = refusals.parse_table(path.read_text(encoding="ascii"), name, path.name)
    assert validity.table_problems(family, table, family_configs(family), [], "llvm22", complete=False) == []


def test_table_round_trips_and_rejects_malformed_text():
    kv = _first_build_config(GEMM).kv
    table = refusals.make_table("gemm", {("gfx942", refusals.spec_digest("gemm", kv)): _row("gemm", "gfx942", kv)})
    text = refusals.render_table(table)
    assert refusals.parse_table(text, "gemm", "t.json") == table
    for bad, message in [
        (text.replace('"spills"', '"hot"'), "reason must be one of"),
        (text.replace('"digest": "', '"digest": "0'), "digest is not sha256 of family:kv"),
        (text.replace("rocke.refusals/1", "rocke.refusals/2"), "format must be rocke.refusals/1"),
        (text.replace('"vgpr_spill": 12', '"vgpr_spill": -1'), "vgpr_spill is not a count"),
        (text.replace("\n ", "\n  ", 1), "not in canonical form"),
        ("{", "not JSON"),
    ]:
        with pytest.raises(refusals.RefusalTableError, match=message):
            refusals.parse_table(bad, "gemm", "t.json")
    with pytest.raises(refusals.RefusalTableError, match="family must be elementwise"):
        refusals.parse_table(text, "elementwise", "t.json")


# --- refusal in build: planted rows --------------------------------------------------------------------


@pytest.fixture
def planted(monkeypatch):
    """gemm's table with one row for its first must-build config."""
    config = _first_build_config(GEMM)
    row = _row("gemm", config.arch, config.kv)
    table = refusals.RefusalTable("gemm", (row,))
    monkeypatch.setattr(refusals, "_load", lambda name, package: table if name == "gemm"
                        else refusals.RefusalTable(name, ()))
    return config, row


def test_a_listed_spec_is_refused_by_build_with_reason_and_figures(planted):
    config, row = planted
    spec = GEMM.spec.from_kv(config.kv)
    with pytest.raises(refusals.ResourceRefusal) as info:
        build_family(GEMM, spec, config.arch)
    assert str(info.value) == refusals.refusal_message("gemm", row)
    assert str(info.value).startswith(f"gemm: refused on {config.arch} by its resources at the real LLVM "
                                      f"(gemm.refusals.json): llvm22 spills (vgprs=64 ")
    assert "vgpr_spill=12" in str(info.value) and "scratch_bytes=64" in str(info.value)
    assert emitters.emit_python(GEMM, config).refusal == str(info.value)
    assert emitters.emit_python(GEMM, config, resource_table=False).status == "built"
    other = next(c for c in family_configs(GEMM) if not c.refuse and c.arch != config.arch)
    assert build_family(GEMM, GEMM.spec.from_kv(other.kv), other.arch) is not None  # other rows build


def test_a_table_without_rows_for_the_arch_is_not_consulted(planted, monkeypatch):
    """build_family checks a spec against the table only where the table lists its arch (C++
    twin: build_family's RefusalTable::lists, which also spares the normalised kv and its hash)."""
    config, _row = planted
    table = refusals.family_table(GEMM)
    assert table.lists(config.arch) and not table.lists("gfx0")
    other = next(c for c in family_configs(GEMM) if not c.refuse and c.arch != config.arch)
    assert not table.lists(other.arch)
    checked = []
    real = registry.check_resources
    monkeypatch.setattr(registry, "check_resources", lambda *args: checked.append(args[2]) or real(*args))
    assert build_family(GEMM, GEMM.spec.from_kv(other.kv), other.arch) is not None
    with pytest.raises(refusals.ResourceRefusal):
        build_family(GEMM, GEMM.spec.from_kv(config.kv), config.arch)
    assert checked == [config.arch]


def test_cpp_refusal_text_is_the_python_text():
    engine = native_engine()
    config = _first_build_config(GEMM)
    row = refusals.RefusalRow(
        config.arch, refusals.spec_digest("gemm", config.kv), config.kv,
        (refusals.Measured.of("llvm20", "scratch", _res(scratch_bytes=32)),
         refusals.Measured.of("llvm22", "occupancy_zero", _res(occupancy=0, reserved_vgprs=512))))
    parts = [(m.flavor, m.reason, [v for _, v in m.figures]) for m in row.measured]
    assert engine.refusal_message("gemm", row.arch, row.digest, row.kv, parts) == refusals.refusal_message("gemm", row)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_the_compiled_cpp_table_is_the_json_table(name):
    """C++ refuses exactly the rows of the shipped JSON, with the same text (no hand copy can drift)."""
    table = refusals.family_table(FAMILIES[name])
    assert [tuple(r) for r in native_engine().refusal_listing(name)] == refusals.table_listing(table)


def test_generated_cpp_tables_are_fresh_and_track_the_json(tmp_path, monkeypatch):
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    spec = importlib.util.spec_from_file_location("gen_cpp_tables_refusals", GENERATOR)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    names = {f"families/{name}/{name}_refusals_json.cpp" for name in FAMILIES}
    shipped = gen.render_all()
    assert names <= set(shipped)
    # A row added to a table changes its generated source: the freshness check would fail.
    src = tmp_path / "src"
    (src / "rocke" / "families" / "gemm").mkdir(parents=True)
    config = _first_build_config(GEMM)
    table = refusals.make_table("gemm", {("a", "b"): _row("gemm", config.arch, config.kv)})
    (src / "rocke" / "families" / "gemm" / "gemm.refusals.json").write_text(refusals.render_table(table))
    monkeypatch.setattr(gen, "SOURCE_ROOT", src)
    text = gen.render_refusal_tables()["families/gemm/gemm_refusals_json.cpp"]
    assert '{"llvm22", "spills", {64, 0, 40, 12, 0, 64, 16384, 4}},' in text
    assert refusals.spec_digest("gemm", config.kv) in text
    assert text != shipped["families/gemm/gemm_refusals_json.cpp"]


# --- the gate's checks: planted faults -----------------------------------------------------------------


def _measured(config, res: isa.Resources | None, flavor: str = "llvm22") -> validity.ValidityRow:
    reason = isa.refusal_reason(res) or "" if res else ""
    return validity.ValidityRow("gemm", config.key, flavor, res, "", reason, config.refuse)


def test_a_row_without_a_refusal_config_fails():
    kv = _first_build_config(GEMM).kv.replace("lds_pad=0", "lds_pad=7")
    assert all(c.kv != kv for c in family_configs(GEMM))
    table = refusals.RefusalTable("gemm", (_row("gemm", "gfx942", kv),))
    problems = validity.table_problems(GEMM, table, family_configs(GEMM), [], "llvm22", complete=False)
    assert problems == [f"table row [gfx942 {kv}] has no refusal config in gemm.cfg"]


def test_a_row_for_a_must_build_config_fails():
    config = _first_build_config(GEMM)
    table = refusals.RefusalTable("gemm", (_row("gemm", config.arch, config.kv),))
    problems = validity.table_problems(GEMM, table, family_configs(GEMM), [], "llvm22", complete=False)
    assert problems == [f"table row [{config.arch} {config.kv}] is a must-build config in gemm.cfg (mark it 'refuse')"]


def test_a_shipped_config_that_spills_fails_the_gate():
    config = _first_build_config(GEMM)
    reason, problem = validity.config_problem(config, _res(vgpr_spill=4, scratch_bytes=16))
    assert reason == "spills" and problem.startswith("spills: vgprs=64 ")
    assert "a shipped config must be shippable" in problem
    refusal = dataclasses.replace(config, refuse=True)
    assert validity.config_problem(refusal, _res(vgpr_spill=4)) == ("spills", "")  # a refusal config may spill
    assert validity.config_problem(config, _res()) == ("", "")


def test_drift_between_table_and_measurement_fails_and_write_fixes_it():
    config = dataclasses.replace(_first_build_config(GEMM), refuse=True)
    configs = [config]
    spilling = _res(arch=config.arch, vgpr_spill=12, scratch_bytes=64)
    measured = [_measured(config, spilling)]
    empty = refusals.RefusalTable("gemm", ())
    # measured unshippable, table has nothing: drift
    problems = validity.table_problems(GEMM, empty, configs, measured, "llvm22", complete=True)
    assert len(problems) == 1 and "drifts at llvm22" in problems[0] and "table nothing, measured spills" in problems[0]
    # regenerated: no drift
    fresh = refusals.make_table("gemm", validity.fresh_rows(GEMM, empty, measured, "llvm22"))
    assert validity.table_problems(GEMM, fresh, configs, measured, "llvm22", complete=True) == []
    # other figures than measured: drift
    changed = [_measured(config, dataclasses.replace(spilling, vgpr_spill=13))]
    assert validity.table_problems(GEMM, fresh, configs, changed, "llvm22", complete=True) != []
    # measured shippable while the table lists it: drift
    assert validity.table_problems(GEMM, fresh, configs, [_measured(config, _res())], "llvm22", complete=True) != []
    # the other flavor's lane neither checks nor drops llvm22's part
    assert validity.table_problems(GEMM, fresh, configs, [_measured(config, _res(), "llvm20")], "llvm20",
                                   complete=True) == []
    assert validity.fresh_rows(GEMM, fresh, [_measured(config, _res(), "llvm20")], "llvm20") == {
        (row.arch, row.digest): row for row in fresh.rows}
