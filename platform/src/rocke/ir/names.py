"""Lexical rules for names shared by the Builder, verifier, printer and parser."""

from __future__ import annotations

import re

# Name hints of values: printed as "NAME" after the id.
HINT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")
# Kernel names: printed as @NAME; also the LLVM symbol, so no dots.
KERNEL_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def is_hint(name: object) -> bool:
    return isinstance(name, str) and HINT_RE.match(name) is not None


def is_kernel_name(name: object) -> bool:
    return isinstance(name, str) and KERNEL_NAME_RE.match(name) is not None
