"""Entry point of the ``rocke`` command. Bad arguments exit with status 2 and one line, never a traceback."""

from __future__ import annotations

import argparse
import sys

import rocke
from rocke.engine import EngineUnavailableError, native_engine
from rocke.families import discover_families


def _cmd_version(_args: argparse.Namespace) -> int:
    print(f"rocke (python engine) {rocke.__version__}")
    try:
        engine = native_engine()
    except EngineUnavailableError as exc:
        print(f"rocke_engine (c++ engine) unavailable: {exc}")
        return 1
    print(f"rocke_engine (c++ engine) {engine.version()} [{engine.build_id()}]")
    return 0


def _cmd_families(_args: argparse.Namespace) -> int:
    families = discover_families()
    print(f"{'family':<24} owner")
    for family in families:
        print(f"{family.name:<24} {family.owner}")
    print(f"{len(families)} families")
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    """The main job: show both engines and the registered families."""
    status = _cmd_version(args)
    return status or _cmd_families(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rocke", description="rocKE: kernel authoring for AMD GPUs")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("version", help="print the Python and C++ engine versions").set_defaults(run=_cmd_version)
    sub.add_parser("families", help="list registered kernel families").set_defaults(run=_cmd_families)
    sub.add_parser("demo", help="the main job: engines, families, a real kernel").set_defaults(run=_cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    return args.run(args)
