"""Entry point of the `rocke` command.

Bad arguments or inputs print one line and exit with status 2; a failing tool
(LLVM, an engine mismatch) exits with 1. Never a traceback: anything unexpected is one
"internal error" line with exit status 1 (ROCKE_TRACEBACK=1 shows the traceback instead).
"""

from __future__ import annotations

import argparse
import os
import sys

import rocke
from rocke.cli import (
    bench_cmd,
    cache_cmd,
    catalog_cmd,
    demo_cmd,
    emit_cmd,
    gates_cmd,
    isa_cmd,
    lower_cmd,
    plan_cmd,
    run_cmd,
    sim_cmd,
)
from rocke.cli.common import ArgumentParser, UsageError, one_line
from rocke.engine import EngineMismatchError, EngineUnavailableError, native_engine
from rocke.families import discover_families
from rocke.families.configs import family_configs
from rocke.gates.bench import BenchError
from rocke.isa import ToolchainError
from rocke.runtime import DeviceError, RuntimeUnavailableError


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
    parser = ArgumentParser(prog="rocke", description="rocKE: kernel authoring for AMD GPUs")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("version", help="print the Python and C++ engine versions").set_defaults(run=_cmd_version)
    sub.add_parser("families", help="list registered kernel families").set_defaults(run=_cmd_families)
    lower_cmd.register(sub)
    isa_cmd.register(sub)
    emit_cmd.register(sub)
    gates_cmd.register(sub)
    catalog_cmd.register(sub)
    plan_cmd.register(sub)
    sim_cmd.register(sub)
    run_cmd.register(sub)
    cache_cmd.register(sub)
    bench_cmd.register(sub)
    demo_cmd.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    prog = f"rocke {args.command}"
    try:
        return args.run(args)
    except (UsageError, ValueError, KeyError, EngineUnavailableError, BenchError, RuntimeUnavailableError,
            OSError) as exc:
        if isinstance(exc, KeyError) and exc.args:
            message: object = exc.args[0]
        elif isinstance(exc, OSError) and exc.strerror:
            message = f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
        else:
            message = exc
        print(f"{prog}: error: {one_line(message)}", file=sys.stderr)
        return 2
    except (ToolchainError, EngineMismatchError, DeviceError) as exc:
        print(f"{prog}: failed: {one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if os.environ.get("ROCKE_TRACEBACK") == "1":
            raise
        print(f"{prog}: internal error: {type(exc).__name__}: {one_line(exc)}", file=sys.stderr)
        return 1
