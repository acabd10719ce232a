"""Reading the packaged TOML tables and checking their shape with fixed error texts."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from rocke.arch.errors import ArchDataError


def read_data_text(filename: str) -> str:
    """The text of a data file shipped in rocke/arch/data/."""
    return resources.files("rocke.arch").joinpath("data").joinpath(filename).read_text(encoding="utf-8")


def parse_toml(text: str, filename: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ArchDataError(f"{filename}: not valid TOML: {exc}") from None


def check_keys(table: Any, expected: tuple[str, ...], where: str) -> dict[str, Any]:
    """Require a table holding exactly the expected keys (no missing, no extra)."""
    if not isinstance(table, dict):
        raise ArchDataError(f"{where}: expected a table")
    for key in expected:
        if key not in table:
            raise ArchDataError(f"{where}: '{key}' is missing")
    for key in sorted(table):
        if key not in expected:
            raise ArchDataError(f"{where}: unknown key '{key}'")
    return table


def want_str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ArchDataError(f"{where}: expected a non-empty string")
    return value


def want_int(value: Any, where: str) -> int:
    # bool is a subclass of int in Python; the data never means a flag as a number.
    if type(value) is not int or value < 0:
        raise ArchDataError(f"{where}: expected a non-negative integer")
    return value


def want_bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise ArchDataError(f"{where}: expected true or false")
    return value


def want_choice(value: Any, choices: tuple[str, ...], where: str) -> str:
    if value not in choices:
        raise ArchDataError(f"{where}: expected one of {', '.join(choices)}")
    return value


def want_list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchDataError(f"{where}: expected an array")
    return value


def want_unique(names: list[str], where: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ArchDataError(f"{where}: '{name}' appears twice")
        seen.add(name)
