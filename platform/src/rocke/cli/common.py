"""Shared pieces of the `rocke` verbs: argument helpers and the error contract."""

from __future__ import annotations

import argparse
from pathlib import Path

from rocke.arch import ARCH_NAMES
from rocke.engine import ENGINES
from rocke.ir import KernelDef, parse_kernel
from rocke.isa import flavor_names


class UsageError(Exception):
    """A bad argument or input: one line on stderr, exit status 2."""


def add_target_args(parser: argparse.ArgumentParser, *, flavor_required: bool = True) -> None:
    parser.add_argument("--arch", required=True, choices=ARCH_NAMES, help="target arch")
    parser.add_argument("--flavor", required=flavor_required, choices=flavor_names(),
                        help="LLVM flavor of the emitted IR")
    parser.add_argument("--engine", choices=ENGINES, default=None,
                        help="python, cpp or both (default: $ROCKE_ENGINE or python)")


def read_kernel(path: str) -> KernelDef:
    """Parse a rocke.ir/1 file; any problem is a UsageError naming the file."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return parse_kernel(data)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None
