"""A family's config file: the single source of its configs (DESIGN §5).

One config per line, ``ARCH KV`` or ``refuse ARCH KV`` (a config every engine must
refuse with identical text); ``#`` comments and blank lines are ignored. Lines must
be canonical (KV == spec.from_kv(KV).to_kv()) so the file's bytes identify its
configs; CR bytes are refused (hashes are over LF-only text).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rocke.arch import ARCH_NAMES
from rocke.families.registry import Family, get_family


class ConfigError(ValueError):
    """A config file that cannot be used (names the file and line)."""


@dataclass(frozen=True)
class ConfigLine:
    lineno: int
    arch: str
    kv: str
    refuse: bool

    @property
    def key(self) -> str:
        """Identity of the config in goldens and reports."""
        return f"{'refuse ' if self.refuse else ''}{self.arch} {self.kv}"


def config_path(family: Family) -> Path:
    return Path(str(resources.files(family.package).joinpath("configs", f"{family.name}.cfg")))  # shipped data


def config_bytes(family: Family) -> bytes:
    return config_path(family).read_bytes()


def config_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_configs(family: Family, data: bytes, source: str = "") -> list[ConfigLine]:
    source = source or f"{family.name}.cfg"
    if b"\r" in data:
        raise ConfigError(f"{source}: contains CR bytes; config files are LF-only")
    configs: list[ConfigLine] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(data.decode("utf-8").split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        refuse = line.startswith("refuse ")
        if refuse:
            line = line[len("refuse "):]
        arch, _, kv = line.partition(" ")
        if arch not in ARCH_NAMES:
            raise ConfigError(f"{source}:{lineno}: unknown arch '{arch}'; known: {', '.join(ARCH_NAMES)}")
        if family.spec is not None:
            try:
                canonical = family.spec.from_kv(kv).to_kv()
            except ValueError as exc:
                canonical = kv  # an invalid spec is legitimate only as a refusal config
                if not refuse:
                    raise ConfigError(
                        f"{source}:{lineno}: invalid spec on a line that is not a refusal: {exc}"
                    ) from None
            if canonical != kv:
                raise ConfigError(f"{source}:{lineno}: not canonical; write it as '{canonical}'")
        config = ConfigLine(lineno, arch, kv, refuse)
        if config.key in seen:
            raise ConfigError(f"{source}:{lineno}: duplicate of line {seen[config.key]}")
        seen[config.key] = lineno
        configs.append(config)
    if not configs:
        raise ConfigError(f"{source}: no configs")
    return configs


def load_configs(family: Family | str) -> list[ConfigLine]:
    """The configs of a family (a Family or its registered name)."""
    family = get_family(family) if isinstance(family, str) else family
    return parse_configs(family, config_bytes(family), str(config_path(family)))
