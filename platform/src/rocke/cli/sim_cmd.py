"""`rocke sim FAMILY (--config N | --spec KV) [--arch A] [--seed S]`: numerics on the CPU simulator.

With --config N the arch is the config line's; --arch, if given, must agree with it.
"""

from __future__ import annotations

import argparse

from rocke.arch import ARCH_NAMES
from rocke.cli.common import UsageError, config_arg, seed_arg
from rocke.cli.emit_cmd import resolve_spec
from rocke.families import get_family


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("sim", help="run a family config on the simulator against its numpy reference")
    parser.add_argument("family")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--config", type=config_arg, metavar="N", help="config number (0-based) in the config file")
    which.add_argument("--spec", metavar="KV", help="spec in canonical key=value text")
    parser.add_argument("--arch", choices=ARCH_NAMES,
                        help="target arch (with --config: the config line's, if omitted)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="seed of the random inputs")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    family = get_family(args.family)
    if family.numerics is None:
        raise UsageError(f"family {family.name} has no numeric check")
    spec, arch = resolve_spec(family, args.config, args.spec, args.arch)
    result = family.numerics(spec, arch, args.seed)
    print(f"{family.name} [{spec.to_kv()}] on {arch}, seed {args.seed}: "
          f"{result.count} values, {result.mismatches} mismatches, "
          f"max abs error {result.max_abs_error:.3g}, max rel error {result.max_rel_error:.3g}")
    print("PASS" if result.ok else f"FAIL: {result.message}")
    return 0 if result.ok else 1
