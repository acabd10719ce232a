"""Shared pieces of the `rocke` verbs: argument types, the one-line error contract, input reading.

Every argument is checked when the command line is parsed, before any verb does work: numbers
are ASCII decimal within a stated range, paths exist with the right kind, and argparse's own
errors are one line (`rocke VERB: error: ...`) with exit status 2.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import NoReturn

from rocke.arch import ARCH_NAMES
from rocke.engine import ENGINES
from rocke.ir import KernelDef, parse_kernel
from rocke.ir.source import InputError, read_source
from rocke.isa import flavor_names

MAX_JOBS = 1024
MAX_CONFIG_INDEX = 10**6
MAX_SEED = 2**32 - 1
MAX_SHARDS = 10**6
MAX_PROBLEM_CHARS = 4096


class UsageError(Exception):
    """A bad argument or input: one line on stderr, exit status 2."""


def one_line(message: object) -> str:
    """A message as one printable line: line breaks and other control characters are escaped."""
    text = str(message)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors: `PROG: error: MESSAGE (PROG --help shows the usage)`, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} ({self.prog} --help shows the usage)\n")


def bounded_int(name: str, low: int, high: int):
    """An argparse type: an ASCII decimal integer in low..high (no '+', no other digits, no '_')."""

    def parse(text: str) -> int:
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > len(str(max(abs(low), high))) + 1:
            raise argparse.ArgumentTypeError(f"{name} must be an integer in {low}..{high}, got '{one_line(text)}'")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be an integer in {low}..{high}, got {value}")
        return value

    parse.__name__ = name  # argparse names the type in some messages
    return parse


jobs_arg = bounded_int("--jobs", 1, MAX_JOBS)
config_arg = bounded_int("--config", 0, MAX_CONFIG_INDEX)
seed_arg = bounded_int("--seed", 0, MAX_SEED)


def shard_arg(text: str):
    """An argparse type for --shard i/n (the gates' Shard), with Shard.parse's explanation kept."""
    from rocke.gates.runner import Shard

    left, _, right = text.partition("/")
    if len(left) > len(str(MAX_SHARDS)) or len(right) > len(str(MAX_SHARDS)):
        raise argparse.ArgumentTypeError(f"--shard '{one_line(text)}': at most {MAX_SHARDS} shards")
    try:
        shard = Shard.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(one_line(exc)) from None
    if shard.count > MAX_SHARDS:
        raise argparse.ArgumentTypeError(f"--shard '{text}': at most {MAX_SHARDS} shards")
    return shard


def existing_dir(name: str):
    """An argparse type: a path naming an existing directory."""

    def parse(text: str) -> Path:
        path = Path(text)
        if not path.exists():
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: no such directory")
        if not path.is_dir():
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: not a directory")
        return path

    parse.__name__ = name
    return parse


def output_file(name: str):
    """An argparse type: a file path that can be written (its directory exists; it is not a directory)."""

    def parse(text: str) -> Path:
        path = Path(text)
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: is a directory")
        parent = path.parent
        if not parent.is_dir():
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: directory {one_line(parent)} does not exist")
        if not os.access(parent, os.W_OK):
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: directory {one_line(parent)} is not writable")
        return path

    parse.__name__ = name
    return parse


def output_dir(name: str):
    """An argparse type: a directory to write into (created if missing): not an existing file, and
    its nearest existing ancestor a writable directory. Checked before any work starts."""

    def parse(text: str) -> Path:
        path = Path(text)
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: exists and is not a directory")
        ancestor = path
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: {one_line(ancestor)} is not a directory")
        if not os.access(ancestor, os.W_OK):
            raise argparse.ArgumentTypeError(f"{name} {one_line(text)}: directory {one_line(ancestor)} is not writable")
        return path

    parse.__name__ = name
    return parse


def add_target_args(parser: argparse.ArgumentParser, *, flavor_required: bool = True,
                    arch_required: bool = True, flavor_help: str = "LLVM flavor of the emitted IR") -> None:
    arch_help = "target arch" if arch_required else "target arch (with --config: the config line's, if omitted)"
    parser.add_argument("--arch", required=arch_required, choices=ARCH_NAMES, help=arch_help)
    parser.add_argument("--flavor", required=flavor_required, choices=flavor_names(), help=flavor_help)
    parser.add_argument("--engine", choices=ENGINES, default=None,
                        help="python, cpp or both (default: $ROCKE_ENGINE or python)")


def problem_pairs(text: str) -> dict[str, str]:
    """The one `--problem` grammar of `rocke plan`, `emit`, `sim` (and a host's plan call): pairs
    `key=value` separated by single spaces, each key once; UsageError naming the pair otherwise.
    What the keys mean is the problem kind's (a family's launch takes a subset of them)."""
    if len(text) > MAX_PROBLEM_CHARS:
        raise UsageError(f"--problem is longer than {MAX_PROBLEM_CHARS} characters")
    pairs: dict[str, str] = {}
    for pair in text.split(" ") if text else []:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise UsageError(f"--problem: malformed pair '{one_line(pair)}' (expected key=value)")
        if key in pairs:
            raise UsageError(f"--problem: key '{one_line(key)}' given twice")
        pairs[key] = value
    return pairs


def read_text(path: str) -> bytes:
    """The bytes of a rocke.ir/1 input file ("-" is stdin), size-limited; problems are UsageErrors."""
    try:
        return read_source(path)
    except InputError as exc:
        raise UsageError(str(exc)) from None


def read_kernel(path: str) -> KernelDef:
    """Parse a rocke.ir/1 file; any problem is a UsageError naming the file."""
    data = read_text(path)
    try:
        return parse_kernel(data)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None
