"""`rocke lower FILE --arch A --flavor F [--engine E]`: print the kernel's LLVM IR."""

from __future__ import annotations

import argparse
import sys

from rocke.cli.common import add_target_args, read_kernel
from rocke.engine import lower


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("lower", help="lower a rocke.ir/1 file to LLVM IR")
    parser.add_argument("file", help="kernel in rocke.ir/1 text")
    add_target_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    kernel = read_kernel(args.file)
    sys.stdout.write(lower(kernel, arch=args.arch, flavor=args.flavor, engine=args.engine))
    return 0
