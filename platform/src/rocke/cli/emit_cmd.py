"""`rocke emit FAMILY (--config N | --spec KV) --arch A --flavor F [--engine E] [--ir]`."""

from __future__ import annotations

import argparse
import sys

from rocke.cli.common import UsageError, add_target_args
from rocke.engine import lower
from rocke.families import Family, build_family, get_family
from rocke.families.configs import family_configs
from rocke.ir import print_kernel


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("emit", help="build a family config and print its LLVM IR (or IR)")
    parser.add_argument("family")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--config", type=int, metavar="N", help="config number (0-based) in the config file")
    which.add_argument("--spec", metavar="KV", help="spec in canonical key=value text")
    add_target_args(parser, flavor_required=False)
    parser.add_argument("--ir", action="store_true", help="print the rocke.ir/1 text instead of LLVM IR")
    parser.set_defaults(run=run)


def resolve_spec(family: Family, config: int | None, spec: str | None, arch: str):
    """The spec of `--config N` (which must be for `arch`) or of `--spec KV`."""
    if spec is None:
        configs = family_configs(family)
        if not 0 <= config < len(configs):
            raise UsageError(f"--config {config}: {family.name} has configs 0..{len(configs) - 1}")
        line = configs[config]
        if line.arch != arch:
            raise UsageError(f"--config {config} is for {line.arch}, not {arch}")
        spec = line.kv
    return family.spec.from_kv(spec)


def run(args: argparse.Namespace) -> int:
    family = get_family(args.family)
    spec = resolve_spec(family, args.config, args.spec, args.arch)
    kernel = build_family(family, spec, args.arch)
    if args.ir:
        sys.stdout.write(print_kernel(kernel))
        return 0
    if not args.flavor:
        raise UsageError("--flavor is required unless --ir is given")
    sys.stdout.write(lower(kernel, arch=args.arch, flavor=args.flavor, engine=args.engine))
    return 0
