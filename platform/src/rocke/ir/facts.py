"""Load data/ir.toml: format limits, scalar types, vector/pointer rules, kernel and param attributes.

This module only reads the file; the typed views live in the modules that use them (types, attrs).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any


def load_data_file(filename: str) -> dict[str, Any]:
    """Parse one TOML file shipped in rocke/ir/data."""
    with resources.files("rocke.ir").joinpath("data", filename).open("rb") as handle:
        return tomllib.load(handle)


IR_FACTS: dict[str, Any] = load_data_file("ir.toml")

_FORMAT = IR_FACTS["format"]
VERSION: str = _FORMAT["version"]
MAX_REGION_DEPTH: int = _FORMAT["max_region_depth"]
MAX_VALUE_ID: int = _FORMAT["max_value_id"]
MAX_INT_DIGITS: int = _FORMAT["max_int_digits"]
INDENT: int = _FORMAT["indent"]
MAX_INPUT_BYTES: int = _FORMAT["max_input_bytes"]
