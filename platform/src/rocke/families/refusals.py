"""Resource-refusal tables: the specs a family refuses because of what the real LLVM made of them.

One table per family, ``<family>.refusals.json`` beside the family's ``spec.py``, written by the
validity gate (``rocke check validity --write-refusals``) and read by both engines: the Python
engine here, the C++ engine from sources generated from the same file
(``rocke/families/refusals.hpp``; never a hand copy). A row is an (arch, spec digest) pair with,
per flavor whose LLVM refuses the kernel, the measured figures and the reason
(``rocke.isa.REFUSAL_REASONS``). A spec is refused before anything is built when its row exists,
whatever the flavor asked for later: ``build`` knows no flavor, and a spec one validated LLVM
cannot ship is not shipped. See platform/docs/gates.md.

Format (``rocke.refusals/1``, JSON, keys sorted, LF)::

    {"family": "gemm", "format": "rocke.refusals/1", "refusals": [
      {"arch": "gfx1100", "digest": "<sha256 of family:kv>", "kv": "<canonical kv>",
       "measured": {"llvm22": {"reason": "spills", "vgprs": 256, "agprs": 0, "sgprs": 34,
                               "vgpr_spill": 310, "sgpr_spill": 0, "scratch_bytes": 1284,
                               "lds_bytes": 16384, "occupancy": 2}}}]}

Rows are sorted by (arch, digest); a row holds at least one flavor.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from rocke.families.spec import Spec, SpecError
from rocke.isa import REFUSAL_REASONS, Resources

if TYPE_CHECKING:
    from rocke.families.registry import Family

FORMAT = "rocke.refusals/1"
#: The measured figures a row records per flavor, in the order the refusal message names them.
FIGURES: tuple[str, ...] = (
    "vgprs", "agprs", "sgprs", "vgpr_spill", "sgpr_spill", "scratch_bytes", "lds_bytes", "occupancy",
)


class ResourceRefusal(SpecError):
    """A spec the family's refusal table lists: its kernel cannot ship at a validated LLVM."""


@dataclass(frozen=True)
class Measured:
    """What one flavor's LLVM made of a refused spec's kernel."""

    flavor: str
    reason: str
    figures: tuple[tuple[str, int], ...]  # FIGURES order

    @classmethod
    def of(cls, flavor: str, reason: str, res: Resources) -> Measured:
        return cls(flavor, reason, tuple((name, int(getattr(res, name))) for name in FIGURES))

    def to_json(self) -> dict[str, str | int]:
        return {"reason": self.reason, **dict(self.figures)}


@dataclass(frozen=True)
class RefusalRow:
    arch: str
    digest: str
    kv: str
    measured: tuple[Measured, ...]  # sorted by flavor

    def to_json(self) -> dict:
        return {"arch": self.arch, "digest": self.digest, "kv": self.kv,
                "measured": {m.flavor: m.to_json() for m in self.measured}}


@dataclass(frozen=True)
class RefusalTable:
    family: str
    rows: tuple[RefusalRow, ...]  # sorted by (arch, digest)

    def find(self, arch: str, digest: str) -> RefusalRow | None:
        for row in self.rows:
            if row.arch == arch and row.digest == digest:
                return row
        return None

    def lists(self, arch: str) -> bool:
        """Whether a row is for arch: a table that lists none refuses no spec there, unhashed."""
        return any(row.arch == arch for row in self.rows)


class RefusalTableError(ValueError):
    """A malformed refusal table; the message names the file."""


def table_name(family_name: str) -> str:
    return f"{family_name}.refusals.json"


def spec_digest(family_name: str, kv: str) -> str:
    """Spec.digest() of a spec's canonical kv text (also for specs whose rules refuse them)."""
    return hashlib.sha256(f"{family_name}:{kv}".encode()).hexdigest()


def folder_package(family: Family) -> str:
    """The import package of the family's folder: the package holding its spec.py ("" when the spec
    class lives in a top-level module, as a test's toy family does: then there is no table)."""
    if family.spec is None:
        raise ValueError(f"family '{family.name}' has no spec class")
    return family.spec.__module__.rpartition(".")[0]


def _want(cond: bool, source: str, what: str) -> None:
    if not cond:
        raise RefusalTableError(f"{source}: {what}")


def _measured(flavor: str, data: object, source: str) -> Measured:
    _want(isinstance(data, dict), source, f"measured.{flavor} is not an object")
    assert isinstance(data, dict)
    _want(sorted(data) == sorted(("reason", *FIGURES)), source,
          f"measured.{flavor} must hold exactly reason, {', '.join(FIGURES)}")
    _want(data["reason"] in REFUSAL_REASONS, source,
          f"measured.{flavor}.reason must be one of {', '.join(REFUSAL_REASONS)}")
    for name in FIGURES:
        value = data[name]
        _want(type(value) is int and 0 <= value < 2**31, source, f"measured.{flavor}.{name} is not a count")
    return Measured(flavor, data["reason"], tuple((name, data[name]) for name in FIGURES))


def parse_table(text: str, family_name: str, source: str) -> RefusalTable:
    """Parse and check a table's text (source, e.g. "gemm.refusals.json", prefixes every error)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RefusalTableError(f"{source}: not JSON ({exc})") from None
    _want(isinstance(data, dict) and sorted(data) == ["family", "format", "refusals"], source,
          "expected an object with family, format, refusals")
    _want(data["format"] == FORMAT, source, f"format must be {FORMAT}")
    _want(data["family"] == family_name, source, f"family must be {family_name}")
    _want(isinstance(data["refusals"], list), source, "refusals must be a list")
    rows = []
    for position, raw in enumerate(data["refusals"]):
        where = f"{source} row {position}"
        _want(isinstance(raw, dict) and sorted(raw) == ["arch", "digest", "kv", "measured"], where,
              "expected an object with arch, digest, kv, measured")
        _want(all(isinstance(raw[k], str) for k in ("arch", "digest", "kv")), where, "arch, digest, kv are strings")
        _want(raw["digest"] == spec_digest(family_name, raw["kv"]), where, "digest is not sha256 of family:kv")
        _want(isinstance(raw["measured"], dict) and raw["measured"], where, "measured must name a flavor")
        measured = tuple(_measured(flavor, raw["measured"][flavor], where) for flavor in sorted(raw["measured"]))
        rows.append(RefusalRow(raw["arch"], raw["digest"], raw["kv"], measured))
    keys = [(row.arch, row.digest) for row in rows]
    _want(keys == sorted(set(keys)), source, "rows must be sorted by (arch, digest), each pair once")
    table = RefusalTable(family_name, tuple(rows))
    _want(render_table(table) == text, source, "not in canonical form (rewrite it with --write-refusals)")
    return table


def render_table(table: RefusalTable) -> str:
    data = {"family": table.family, "format": FORMAT, "refusals": [row.to_json() for row in table.rows]}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def make_table(family_name: str, rows: Mapping[tuple[str, str], RefusalRow]) -> RefusalTable:
    return RefusalTable(family_name, tuple(rows[key] for key in sorted(rows)))


def table_path(family: Family) -> Path | None:
    """The shipped table of a registered family (None, or a path that does not exist: then the
    family refuses nothing; the validity gate fails a family without a table)."""
    package = folder_package(family)
    return Path(str(resources.files(package) / table_name(family.name))) if package else None


@functools.cache
def _load(family_name: str, package: str) -> RefusalTable:
    if not package:
        return RefusalTable(family_name, ())
    path = resources.files(package) / table_name(family_name)
    if not path.is_file():
        return RefusalTable(family_name, ())
    return parse_table(path.read_text(encoding="ascii"), family_name, table_name(family_name))


def family_table(family: Family) -> RefusalTable:
    """The family's refusal table as shipped (empty when the family has none)."""
    return _load(family.name, folder_package(family))


def refusal_message(family_name: str, row: RefusalRow) -> str:
    """The one refusal text both engines give for a listed spec (C++ twin: refusal_message)."""
    parts = []
    for m in row.measured:
        figures = " ".join(f"{name}={value}" for name, value in m.figures)
        parts.append(f"{m.flavor} {m.reason} ({figures})")
    return (f"{family_name}: refused on {row.arch} by its resources at the real LLVM "
            f"({table_name(family_name)}): {'; '.join(parts)}")


def table_listing(table: RefusalTable) -> list[tuple[str, str, str]]:
    """(arch, digest, refusal_message) of every row in table order (C++ twin: table_listing)."""
    return [(row.arch, row.digest, refusal_message(table.family, row)) for row in table.rows]


def check_resources(table: RefusalTable, spec: Spec, arch: str) -> None:
    """Raise ResourceRefusal when the table lists (arch, spec digest)."""
    row = table.find(arch, spec.digest())
    if row is not None:
        raise ResourceRefusal(refusal_message(table.family, row))


def _cpp_string(text: str) -> str:
    if not all(0x20 <= ord(ch) < 0x7F and ch not in '"\\?' for ch in text):
        raise ValueError(f"refusal table text {text!r} is not plain printable ASCII")
    return f'"{text}"'


def render_cpp(table: RefusalTable, *, namespace: str, source: str, generator: str) -> str:
    """The C++ source holding one table as constants ``<namespace>::kRefusals`` (a
    ``rocke::families::RefusalTable``); the owner package's generator commits it and its tests
    check it is fresh. ``source`` is the table's path in the repository, for the banner."""
    lines = [
        f"// generated by {generator} from {source}; do not edit\n",
        '#include "rocke/families/refusals.hpp"\n',
        "\n",
        f"namespace {namespace} {{\n",
    ]
    if table.rows:
        lines += ["namespace {\n", "\n", "using rocke::families::Measured;\n", "using rocke::families::RefusalRow;\n",
                  "\n", "constexpr Measured kMeasured[] = {\n"]
        for row in table.rows:
            for m in row.measured:
                figures = ", ".join(str(value) for _, value in m.figures)
                lines.append(f"    {{{_cpp_string(m.flavor)}, {_cpp_string(m.reason)}, {{{figures}}}}},\n")
        lines += ["};\n", "\n", "constexpr RefusalRow kRows[] = {\n"]
        first = 0
        for row in table.rows:
            lines.append(f"    {{{_cpp_string(row.arch)}, {_cpp_string(row.digest)},\n")
            lines.append(f"     {_cpp_string(row.kv)},\n")
            lines.append(f"     {{kMeasured + {first}, {len(row.measured)}}}}},\n")
            first += len(row.measured)
        lines += ["};\n", "\n", "}  // namespace\n"]
    rows = "kRows" if table.rows else "{}"
    lines += [
        "\n",
        "extern const rocke::families::RefusalTable kRefusals;\n",
        f"constexpr rocke::families::RefusalTable kRefusals{{{_cpp_string(table.family)}, {rows}}};\n",
        "\n",
        f"}}  // namespace {namespace}\n",
    ]
    return "".join(lines)


def render_cpp_tables(source_root: Path, pattern: str, *, namespace: str, source_dir: str,
                      generator: str) -> dict[str, str]:
    """The C++ source of every refusal table under ``source_root`` matching ``pattern`` (a glob
    relative to it), as ``{path under the package's C++ source root: text}``: the one loop every
    package's generator runs (platform/tools/gen_cpp_tables.py and a library package's own).

    A table ``<top>/<folders...>/<family>/<family>.refusals.json`` becomes
    ``<folders...>/<family>/<family>_refusals_json.cpp``, beside the family's other C++ sources,
    holding ``<namespace>::<folders...>::<family>::kRefusals`` (``namespace`` is the C++ namespace
    of the top package, e.g. ``rocke`` or ``rocke::library``); ``source_dir`` is ``source_root``'s
    path in the repository (e.g. ``platform/src``), for the banner.
    """
    files = {}
    for path in sorted(source_root.glob(pattern)):
        family = path.parent.name
        folders = path.parent.relative_to(source_root).parts[1:]
        table = parse_table(path.read_text(encoding="ascii"), family, path.name)
        source = f"{source_dir}/{path.relative_to(source_root).as_posix()}"
        files[f"{'/'.join(folders)}/{family}_refusals_json.cpp"] = render_cpp(
            table, namespace="::".join((namespace, *folders)), source=source, generator=generator)
    return files
