"""Config files: one kernel config per line, the single source of configs for every engine.

Format (`<family>.cfg`, ASCII, LF):

    # comment
    ARCH KV              a config both engines must build
    refuse ARCH KV       a config both engines must refuse (with identical text)

ARCH is a known arch name; KV is the spec's canonical text (`Spec.to_kv()`: key=value pairs
separated by single spaces, keys sorted, every key present). Blank lines and lines starting with
`#` are skipped. A line must not start or end with spaces.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from rocke.arch import ARCH_NAMES
from rocke.families.spec import INT_VALUE, STR_VALUE, Spec, SpecError

if TYPE_CHECKING:
    from rocke.families.registry import Family



class ConfigError(ValueError):
    """A malformed config line; the message names the file and the line."""


@dataclass(frozen=True)
class ConfigLine:
    lineno: int
    arch: str
    kv: str
    refuse: bool

    @property
    def key(self) -> str:
        """Identity of the config in goldens and gate reports."""
        return f"{'refuse ' if self.refuse else ''}{self.arch} {self.kv}"


def canonical_kv(spec: type[Spec], kv: str) -> str | None:
    """The canonical text of kv when it parses by the spec's field types (without running the
    spec's rules, so refused specs have one too), else None."""
    types = spec.field_types()
    values: dict[str, str] = {}
    for pair in kv.split(" "):
        key, sep, raw = pair.partition("=")
        if not sep or key not in types or key in values:
            return None
        kind = types[key]
        if kind is bool:
            if raw not in ("0", "1"):
                return None
        elif kind is int:
            if not INT_VALUE.fullmatch(raw) or raw == "-0":
                return None
        elif not STR_VALUE.fullmatch(raw):
            return None
        values[key] = raw
    if sorted(values) != sorted(types):
        return None
    return " ".join(f"{key}={values[key]}" for key in sorted(values))


def parse_configs(text: str, spec: type[Spec], source: str) -> list[ConfigLine]:
    """Parse a config file's text; source (e.g. "gemm.cfg") prefixes every error."""
    lines: list[ConfigLine] = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        where = f"{source} line {lineno}"
        if "\r" in line or "\t" in line:
            raise ConfigError(f"{where}: carriage returns and tabs are not allowed")
        if not line or line.startswith("#"):
            continue
        if line != line.strip(" "):
            raise ConfigError(f"{where}: leading or trailing spaces")
        words = line.split(" ", 2 if line.startswith("refuse ") else 1)
        refuse = words[0] == "refuse"
        if refuse:
            words = words[1:]
        if len(words) != 2:
            raise ConfigError(f"{where}: expected 'ARCH KV' or 'refuse ARCH KV'")
        arch, kv = words
        if arch not in ARCH_NAMES:
            raise ConfigError(f"{where}: unknown arch '{arch}'; known: {', '.join(ARCH_NAMES)}")
        # A must-build line is read by the spec itself, which also canonicalizes; a refused one by
        # the field types alone.
        if refuse:
            canonical = canonical_kv(spec, kv)
        else:
            try:
                canonical = spec.from_kv(kv).to_kv()
            except SpecError as exc:
                raise ConfigError(f"{where}: {exc} (mark the line 'refuse' if that is intended)") from None
        if canonical is None:
            raise ConfigError(f"{where}: expected the {spec.FAMILY} spec as canonical key=value pairs")
        if canonical != kv:
            raise ConfigError(f"{where}: not canonical; write '{canonical}'")
        lines.append(ConfigLine(lineno, arch, kv, refuse))
    return lines


def config_text(family_name: str, package: str | None = None) -> str:
    """The text of <family_name>.cfg shipped in the family's folder `package` (default: the platform
    family's folder, rocke.families.<family_name>)."""
    folder = package if package is not None else f"rocke.families.{family_name}"
    return (resources.files(folder) / f"{family_name}.cfg").read_text(encoding="ascii")


def load_configs(family_name: str, spec: type[Spec] | None = None, package: str | None = None) -> list[ConfigLine]:
    """The configs of a family. spec and package default to the platform family's."""
    if spec is None:
        from rocke.families.platform_families import provide

        found = {family.name: family for family in provide()}
        if family_name not in found:
            raise KeyError(f"unknown platform family '{family_name}'; known: {', '.join(sorted(found))}")
        spec, package = found[family_name].spec, found[family_name].package
    assert spec is not None and dataclasses.is_dataclass(spec)
    return parse_configs(config_text(family_name, package), spec, f"{family_name}.cfg")


def config_path(family: Family) -> Path:
    """The shipped config file of any registered family (platform's or library's): <name>.cfg in
    the family's own folder."""
    return Path(str(resources.files(family.package) / f"{family.name}.cfg"))


def config_bytes(family: Family) -> bytes:
    return config_path(family).read_bytes()


def config_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def family_configs(family: Family) -> list[ConfigLine]:
    """The configs of a registered family, parsed with its spec; an empty file is an error."""
    data = config_bytes(family)
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ConfigError(f"{family.name}.cfg: not ASCII") from None
    lines = parse_configs(text, family.spec, f"{family.name}.cfg")
    if not lines:
        raise ConfigError(f"{family.name}.cfg: no configs")
    return lines


def built_configs_text(configs: list[ConfigLine]) -> str:
    """A config file (this format) holding only the configs that must build, in their order: what the
    bench times and counts the native emitter on (a `refuse` line's cheap refusal would otherwise
    lower its figures per config)."""
    lines = ["# the built configs of a family's config file (rocke bench)"]
    lines += [f"{c.arch} {c.kv}" for c in configs if not c.refuse]
    return "\n".join(lines) + "\n"
