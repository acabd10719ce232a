"""platform/docs/arch.md: its tables are rendered from archs.toml and mma.toml and must match them.

Regenerate after a data change with:  PYTHONPATH=platform/src python platform/tests/test_arch_docs.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path

from rocke.arch import ARCH_NAMES, FACT_NAMES, FEATURE_NAMES, MMA_OPS, arch_data, get_arch

DOC = Path(__file__).resolve().parents[1] / "docs" / "arch.md"


def _value(fact: str, value: object) -> str:
    if fact == "buffer_rsrc_word3":
        return f"`0x{value:08X}`"
    if fact == "sgpr_occupancy":
        return ", ".join(f"<={limit}: {waves}" for limit, waves in value) or "no limit"  # type: ignore[attr-defined]
    if fact == "waitcnt_counters":
        return ", ".join(f"{name} {limit}" for name, limit in value)  # type: ignore[attr-defined]
    if fact == "features":
        return f"{len(value)} (below)"  # type: ignore[arg-type]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render_facts() -> str:
    lines = ["| fact | " + " | ".join(ARCH_NAMES) + " |", "|---|" + "---|" * len(ARCH_NAMES)]
    for fact in FACT_NAMES:
        cells = [_value(fact, getattr(get_arch(name), fact)) for name in ARCH_NAMES]
        lines.append(f"| `{fact}` | " + " | ".join(cells) + " |")
    lines += ["", "Sources:", ""]
    lines += [f"- `{name}`: {source}" for name, source in arch_data().fact_sources]
    return "\n".join(lines)


def render_features() -> str:
    lines = ["| feature | " + " | ".join(ARCH_NAMES) + " | meaning |", "|---|" + "---|" * len(ARCH_NAMES) + "---|"]
    for name, description, _ in arch_data().features:
        marks = ["yes" if get_arch(arch).has_feature(name) else "-" for arch in ARCH_NAMES]
        lines.append(f"| `{name}` | " + " | ".join(marks) + f" | {description} |")
    lines += ["", "Sources:", ""]
    lines += [f"- `{name}`: {source}" for name, _, source in arch_data().features]
    assert len(arch_data().features) == len(FEATURE_NAMES)
    return "\n".join(lines)


def render_mma() -> str:
    lines = ["| op_id | archs | m x n x k | A | B | C/D | intrinsic | immediates |", "|---" * 8 + "|"]
    for op in MMA_OPS:
        imms = ", ".join(f"{i.name}={i.value}" for i in op.imm_operands) or "none"
        frag = [f"`{x.ir_type_text}` as `{x.llvm_type}`" for x in (op.a, op.b, op.c)]
        lines.append(f"| `{op.id}` | {', '.join(op.archs)} | {op.m} x {op.n} x {op.k} | " + " | ".join(frag)
                     + f" | `{op.intrinsic}` | {imms} |")
    lines += ["", "| op_id | A row, col | B row, col | C/D row, col | replication A/B |", "|---|---|---|---|---|"]
    for op in MMA_OPS:
        cells = [f"`{x.row}`, `{x.col}`" for x in (op.a, op.b, op.c)]
        lines.append(f"| `{op.id}` | " + " | ".join(cells) + f" | {op.a.replication} |")
    lines += ["", "Sources:", ""]
    for op in MMA_OPS:
        lines.append(f"- `{op.id}`: {op.source}. Layout: {op.layout_source}.")
    return "\n".join(lines)


SECTIONS = {"facts": render_facts, "features": render_features, "mma": render_mma}


def _marker(name: str) -> tuple[str, str]:
    return f"<!-- generated: {name} (platform/tests/test_arch_docs.py) -->\n", f"<!-- end generated: {name} -->"


def rewrite(text: str) -> str:
    for name, render in SECTIONS.items():
        begin, end = _marker(name)
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + begin + render() + "\n" + end + tail
    return text


def test_doc_tables_match_the_data() -> None:
    assert DOC.is_file(), f"{DOC} is missing"
    text = DOC.read_text(encoding="utf-8")
    for name in SECTIONS:
        begin, end = _marker(name)
        assert text.count(begin) == 1 and text.count(end) == 1, f"platform/docs/arch.md lacks the {name} markers"
    assert text == rewrite(text), "platform/docs/arch.md is stale: regenerate it (see this file's docstring)"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: test_arch_docs.py --write")
    DOC.write_text(rewrite(DOC.read_text(encoding="utf-8")), encoding="utf-8", newline="\n")
