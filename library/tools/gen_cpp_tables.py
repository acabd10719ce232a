"""Generate library's C++ data tables: each family's resource-refusal table.

    python library/tools/gen_cpp_tables.py            # rewrite the generated sources
    python library/tools/gen_cpp_tables.py --check    # exit 1, naming each stale file

Every `<family>.refusals.json` under `rocke_library/kernels/<group>/<family>/` (written by the
validity gate, `rocke check validity --write-refusals`) becomes
`library/cpp/src/kernels/<group>/<family>/<family>_refusals_json.cpp`, beside the family's other
C++ sources: constants `rocke::library::kernels::<group>::<family>::kRefusals`, rendered by
platform's `rocke.families.refusals.render_cpp_tables` (the loop platform's generator runs too)
and checked by `rocke.gates.generated` (what
platform's own generator uses; platform is imported from the installed wheel, or from
../platform/src in a checkout without it). The output is deterministic; a test checks the
committed files are fresh.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

LIBRARY = Path(__file__).resolve().parents[1]
SOURCE_ROOT = LIBRARY / "src"
OUTPUT_ROOT = LIBRARY / "cpp" / "src"
GENERATOR = "library/tools/gen_cpp_tables.py"
REFUSAL_TABLES = "rocke_library/kernels/*/*/*.refusals.json"


def _rocke(name: str) -> Any:
    """A module of the installed rocke (platform), else of ../platform/src in a checkout."""
    try:
        return importlib.import_module(name)
    except ImportError:
        sys.path.insert(0, str(LIBRARY.parent / "platform" / "src"))
        return importlib.import_module(name)


def render_all() -> dict[str, str]:
    """Path (in OUTPUT_ROOT, with "/") -> the exact text it must hold."""
    return _rocke("rocke.families.refusals").render_cpp_tables(
        SOURCE_ROOT, REFUSAL_TABLES, namespace="rocke::library", source_dir="library/src", generator=GENERATOR)


def check(files: dict[str, str]) -> list[str]:
    """Problems that regeneration would fix, one line each (empty when fresh)."""
    return _rocke("rocke.gates.generated").check_files(files, OUTPUT_ROOT, GENERATOR, LIBRARY.parent)


def write(files: dict[str, str]) -> None:
    _rocke("rocke.gates.generated").write_files(files, OUTPUT_ROOT, GENERATOR)


def main(argv: list[str] | None = None) -> int:
    return _rocke("rocke.gates.generated").run_generator(
        argv, description=__doc__.splitlines()[0], generator=GENERATOR, render_all=render_all, check=check,
        write=write, output=str(OUTPUT_ROOT.relative_to(LIBRARY.parent)))


if __name__ == "__main__":
    sys.exit(main())
