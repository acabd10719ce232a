"""Library's resource-refusal tables (every family it defines): shipped beside each family's spec.py,
well formed, every row with a refusal config, read identically by the C++ engine
(rocke_library_engine), and its generated C++ (library/tools/gen_cpp_tables.py) fresh. The gate's
checks themselves are tested in platform."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import rocke_library_engine

from rocke.families import refusals
from rocke.families.configs import family_configs
from rocke.gates.validity import table_problems
from rocke_library.families import defined

FAMILIES = {family.name: family for family in defined()}

GENERATOR = Path(__file__).resolve().parents[1] / "tools" / "gen_cpp_tables.py"


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_table_ships_and_every_row_has_a_refusal_config(name):
    family = FAMILIES[name]
    path = refusals.table_path(family)
    assert path is not None and path.is_file(), f"{name} ships no {refusals.table_name(name)}"
    assert path.parent.name == name  # in the family's folder
    table = refusals.parse_table(path.read_text(encoding="ascii"), name, path.name)
    assert table_problems(family, table, family_configs(family), [], "llvm22", complete=False) == []


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_the_compiled_cpp_table_is_the_json_table(name):
    table = refusals.family_table(FAMILIES[name])
    assert [tuple(r) for r in rocke_library_engine.refusal_listing(name)] == refusals.table_listing(table)


def test_generated_cpp_tables_are_fresh():
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(FAMILIES) + 1} files up to date" in result.stdout  # one table per family and dispatch's reasons
