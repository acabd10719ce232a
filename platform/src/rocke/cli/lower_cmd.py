"""`rocke lower FILE --arch A --flavor F [--engine E]`: print the kernel's LLVM IR.

FILE may be "-" (stdin); its size is limited (rocke.ir.source). With --engine cpp the C++ parser
reads the file's text; with --engine both each engine parses it and the two must agree.
"""

from __future__ import annotations

import argparse
import sys

from rocke.cli.common import UsageError, add_target_args, read_text
from rocke.engine import lower_text
from rocke.ir import ParseError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("lower", help="lower a rocke.ir/1 file to LLVM IR")
    parser.add_argument("file", help="kernel in rocke.ir/1 text ('-' reads stdin)")
    add_target_args(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    try:
        ll = lower_text(text, arch=args.arch, flavor=args.flavor, engine=args.engine)
    except ParseError as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    sys.stdout.write(ll)
    return 0
