"""platform/docs/simulator.md documents every op of the op table, and nothing that is not one."""

from __future__ import annotations

import re
from pathlib import Path

from rocke.ir import OPS

DOC = Path(__file__).resolve().parents[1] / "docs" / "simulator.md"
ROW = re.compile(r"^\| `([a-z]+\.[a-z0-9_]+)` \| (.+) \|$")


def _op_rows() -> dict[str, str]:
    rows: dict[str, str] = {}
    for line in DOC.read_text(encoding="ascii").splitlines():
        match = ROW.match(line)
        if match and "." in match.group(1):
            assert match.group(1) not in rows, f"{match.group(1)} is documented twice"
            rows[match.group(1)] = match.group(2)
    return rows


def test_every_op_has_a_semantics_row() -> None:
    rows = _op_rows()
    names = [op.name for op in OPS]
    assert sorted(rows) == sorted(names)
    for name, text in rows.items():
        assert len(text) > 3, name


def test_rows_follow_the_op_table_order_per_dialect() -> None:
    documented = list(_op_rows())
    for dialect in sorted({op.dialect for op in OPS}):
        table_order = [op.name for op in OPS if op.dialect == dialect]
        assert [n for n in documented if n.split(".")[0] == dialect] == table_order, dialect
