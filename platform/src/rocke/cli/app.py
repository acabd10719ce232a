"""Entry point of the `rocke` command.

Bad arguments or inputs print one line and exit with status 2; a failing tool
(LLVM, an engine mismatch) exits with 1. Never a traceback.
"""

from __future__ import annotations

import argparse
import sys

import rocke
from rocke.cli import bench_cmd, demo_cmd, emit_cmd, gates_cmd, isa_cmd, lower_cmd, sim_cmd
from rocke.cli.common import UsageError
from rocke.engine import EngineMismatchError, EngineUnavailableError, native_engine
from rocke.families import discover_families
from rocke.families.configs import family_configs
from rocke.isa import ToolchainError


def _cmd_version(_args: argparse.Namespace) -> int:
    print(f"rocke (python engine) {rocke.__version__}")
    engine = native_engine()
    print(f"rocke_engine (c++ engine) {engine.version()} [{engine.build_id()}]")
    return 0


def _cmd_families(_args: argparse.Namespace) -> int:
    families = discover_families()
    print(f"{'family':<24} {'owner':<16} {'configs':>7} {'refusals':>8}")
    for family in families:
        configs = family_configs(family) if family.spec is not None else []
        refusals = sum(1 for c in configs if c.refuse)
        print(f"{family.name:<24} {family.owner:<16} {len(configs):>7} {refusals:>8}")
    print(f"{len(families)} families")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rocke", description="rocKE: kernel authoring for AMD GPUs")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("version", help="print the Python and C++ engine versions").set_defaults(run=_cmd_version)
    sub.add_parser("families", help="list registered kernel families").set_defaults(run=_cmd_families)
    lower_cmd.register(sub)
    isa_cmd.register(sub)
    emit_cmd.register(sub)
    gates_cmd.register(sub)
    sim_cmd.register(sub)
    bench_cmd.register(sub)
    demo_cmd.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return args.run(args)
    except (UsageError, ValueError, KeyError, EngineUnavailableError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"rocke {args.command}: error: {message}", file=sys.stderr)
        return 2
    except (ToolchainError, EngineMismatchError) as exc:
        print(f"rocke {args.command}: failed: {exc}", file=sys.stderr)
        return 1
