"""Generate the C++ engine's data tables from the TOML files the Python engine reads.

    python platform/tools/gen_cpp_tables.py            # rewrite the generated sources
    python platform/tools/gen_cpp_tables.py --check    # exit 1, naming each stale file

Every data file in DATA_FILES becomes one C++ source holding its document as a constant tree of
nodes (tables, arrays, strings, integers, floats, booleans) in the file's own order, plus one
registry source that finds a document by its package path (e.g. "rocke/ir/data/ops.toml").
Each source sits in the C++ folder of the data file's package: rocke/ir/data/ops.toml becomes
platform/cpp/src/ir/data/ops_toml.cpp, and the registry is platform/cpp/src/data/registry.cpp
(beside the hand-written reader, document.cpp). Every generated source starts with the
generator's banner; a bannered file that regeneration would not write is stale.
The C++ engine builds its typed views (op table, arch facts, MMA catalog) from those trees, the
way the Python engine builds them from tomllib's dicts. So a new data file needs one line in
DATA_FILES and, in C++, only the code that reads it.

Each platform family's resource-refusal table (`rocke/families/<family>/<family>.refusals.json`,
written by the validity gate) becomes `families/<family>/<family>_refusals_json.cpp`: constants
`rocke::families::<family>::kRefusals` rendered by `rocke.families.refusals.render_cpp_tables`,
the loop a library package's own generator runs over its tables.

The output is deterministic (no timestamps, no hash ordering): the same inputs always give the
same bytes. Floats are written as C++ hexadecimal literals, so every binary64 value is exact.
"""

from __future__ import annotations

import importlib
import math
import sys
import tomllib
from pathlib import Path
from typing import Any

PLATFORM = Path(__file__).resolve().parents[1]
SOURCE_ROOT = PLATFORM / "src"
OUTPUT_ROOT = PLATFORM / "cpp" / "src"
GENERATOR = "platform/tools/gen_cpp_tables.py"

# Package paths (relative to platform/src) of every data file the C++ engine reads.
DATA_FILES: tuple[str, ...] = (
    "rocke/ir/data/ir.toml",
    "rocke/ir/data/ops.toml",
    "rocke/arch/data/archs.toml",
    "rocke/arch/data/mma.toml",
    "rocke/arch/data/flavors.toml",
    "rocke/arch/data/targets.toml",
    "rocke/arch/data/intrinsics.toml",
    "rocke/arch/data/arch_domain.toml",
)
REGISTRY_FILE = "data/registry.cpp"
REFUSAL_TABLES = "rocke/families/*/*.refusals.json"  # platform families' tables, relative to SOURCE_ROOT


class _Node:
    """One TOML value: kind is Table, Array, String, Integer, Float or Boolean; label is its dotted path."""

    __slots__ = ("children", "key", "kind", "label", "value")

    def __init__(
        self, kind: str, key: str, value: Any = None, children: list[_Node] | None = None, label: str = ""
    ) -> None:
        self.kind = kind
        self.key = key
        self.value = value
        self.children = children
        self.label = label


def _symbol(package_path: str) -> str:
    """C++ identifier of a document, e.g. rocke/ir/data/ops.toml -> doc_rocke_ir_data_ops_toml."""
    return "doc_" + "".join(ch if ch.isalnum() else "_" for ch in package_path)


def _source_name(package_path: str) -> str:
    """Path (in OUTPUT_ROOT) of a document's source, e.g. rocke/ir/data/ops.toml -> ir/data/ops_toml.cpp."""
    folder, _, name = package_path.removeprefix("rocke/").rpartition("/")
    return f"{folder}/{name.replace('.', '_')}.cpp"


def _build(key: str, value: Any, label: str) -> _Node:
    if isinstance(value, dict):
        kids = [_build(k, v, f"{label}.{k}" if label else k) for k, v in value.items()]
        return _Node("Table", key, children=kids, label=label or "(root)")
    if isinstance(value, list):
        kids = [_build("", v, f"{label}[{i}]") for i, v in enumerate(value)]
        return _Node("Array", key, children=kids, label=label)
    if isinstance(value, bool):
        return _Node("Boolean", key, value)
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise ValueError(f"{label}: integer {value} does not fit in 64 bits")
        return _Node("Integer", key, value)
    if isinstance(value, float):
        return _Node("Float", key, value)
    if isinstance(value, str):
        return _Node("String", key, value)
    raise ValueError(f"{label}: unsupported TOML value of type {type(value).__name__}")


def _cpp_string(text: str) -> str:
    """A C++ string literal of text's UTF-8 bytes; octal escapes never swallow a following digit."""
    out = ['"']
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F and ch != "?":
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    out.append('"')
    return "".join(out)


def _cpp_int(value: int) -> str:
    if value == -(2**63):
        return "(-9223372036854775807LL - 1)"
    return f"{value}LL"


def _cpp_float(value: float) -> str:
    if math.isnan(value):
        return "std::numeric_limits<double>::quiet_NaN()"
    if math.isinf(value):
        return ("-" if value < 0 else "") + "std::numeric_limits<double>::infinity()"
    return value.hex()


def _flatten(root: _Node) -> list[tuple[_Node, int, int]]:
    """Breadth-first order so the children of every container are contiguous: (node, first, count)."""
    order: list[_Node] = [root]
    firsts: dict[int, int] = {}
    index = 0
    while index < len(order):
        node = order[index]
        if node.children:
            firsts[index] = len(order)
            order.extend(node.children)
        index += 1
    return [(node, firsts.get(i, 0), len(node.children or ())) for i, node in enumerate(order)]


def _node_line(node: _Node, first: int, count: int) -> str:
    key = _cpp_string(node.key)
    if node.kind in ("Table", "Array"):
        return f"    {node.kind[0]}({key}, {first}, {count}),"
    if node.kind == "String":
        return f"    S({key}, {_cpp_string(node.value)}),"
    if node.kind == "Integer":
        return f"    I({key}, {_cpp_int(node.value)}),"
    if node.kind == "Boolean":
        return f"    B({key}, {'true' if node.value else 'false'}),"
    return f"    F({key}, {_cpp_float(node.value)}),"


def _banner(sources: str) -> str:
    return f"// generated by {GENERATOR} from {sources}; do not edit\n"


def render_document(package_path: str, data: dict[str, Any]) -> str:
    """The C++ source holding one TOML document as a constant node tree."""
    rows = _flatten(_build("", data, ""))
    lines = [
        _banner(f"platform/src/{package_path}"),
        '#include "rocke/data/document.hpp"\n',
        "#include <limits>\n",
        "\n",
        "namespace rocke::data::generated {\n",
        "namespace {\n",
        "\n",
        "using namespace rocke::data::make;\n",
        "\n",
        "constexpr Node kNodes[] = {\n",
    ]
    for index, (node, first, count) in enumerate(rows):
        if node.children is not None and count:
            lines.append(f"    // [{index}] {node.label} -> [{first}, {first + count})\n")
        lines.append(_node_line(node, first, count) + "\n")
    lines += [
        "};\n",
        "\n",
        "}  // namespace\n",
        "\n",
        f"extern const Document {_symbol(package_path)};\n",
        f"constexpr Document {_symbol(package_path)}{{{_cpp_string(package_path)}, kNodes, std::size(kNodes)}};\n",
        "\n",
        "}  // namespace rocke::data::generated\n",
    ]
    return "".join(lines)


def render_registry(package_paths: tuple[str, ...]) -> str:
    """The C++ source listing every generated document, in DATA_FILES order."""
    lines = [
        _banner(", ".join(f"platform/src/{p}" for p in package_paths)),
        '#include "rocke/data/document.hpp"\n',
        "\n",
        "namespace rocke::data::generated {\n",
        "\n",
    ]
    lines += [f"extern const Document {_symbol(p)};\n" for p in package_paths]
    lines += ["\n", "}  // namespace rocke::data::generated\n", "\n", "namespace rocke::data {\n", "\n"]
    lines.append("std::span<const Document* const> all_documents() {\n")
    lines.append("  static constexpr const Document* kDocuments[] = {\n")
    lines += [f"      &generated::{_symbol(p)},\n" for p in package_paths]
    lines += ["  };\n", "  return kDocuments;\n", "}\n", "\n", "}  // namespace rocke::data\n"]
    return "".join(lines)


def render_all() -> dict[str, str]:
    """Path (in OUTPUT_ROOT, with "/") -> the exact text it must hold."""
    files: dict[str, str] = {}
    for package_path in DATA_FILES:
        with (SOURCE_ROOT / package_path).open("rb") as handle:
            data = tomllib.load(handle)
        files[_source_name(package_path)] = render_document(package_path, data)
    files[REGISTRY_FILE] = render_registry(DATA_FILES)
    files.update(render_refusal_tables())
    return files


def _rocke_module(name: str) -> Any:
    """A module of the rocke in this checkout (platform/src), imported on first use."""
    if str(SOURCE_ROOT) not in sys.path:
        sys.path.insert(0, str(SOURCE_ROOT))
    return importlib.import_module(name)


def _generated() -> Any:
    return _rocke_module("rocke.gates.generated")


def render_refusal_tables() -> dict[str, str]:
    """families/<family>/<family>_refusals_json.cpp per platform family table (constants
    rocke::families::<family>::kRefusals), beside the family's other C++ sources."""
    return _rocke_module("rocke.families.refusals").render_cpp_tables(
        SOURCE_ROOT, REFUSAL_TABLES, namespace="rocke", source_dir="platform/src", generator=GENERATOR)


def check(files: dict[str, str]) -> list[str]:
    """Problems that regeneration would fix, one line each (empty when fresh)."""
    return _generated().check_files(files, OUTPUT_ROOT, GENERATOR, PLATFORM.parent)


def write(files: dict[str, str]) -> None:
    _generated().write_files(files, OUTPUT_ROOT, GENERATOR)


def main(argv: list[str] | None = None) -> int:
    return _generated().run_generator(
        argv, description=__doc__.splitlines()[0], generator=GENERATOR, render_all=render_all, check=check,
        write=write, output=str(OUTPUT_ROOT.relative_to(PLATFORM.parent)))


if __name__ == "__main__":
    sys.exit(main())
