"""`rocke sim FAMILY (--config N | --spec KV) [--arch A] [--seed S]`: numerics on the CPU simulator.
`rocke sim KIND --problem KV --arch A [--seed S]`: a problem planned by dispatch, its launches run on
the simulator as a host would run them (the planner's `simulate`: every launch through its
contract), each output checked against the planned family's reference (a kind whose planner
cannot simulate is named with those that can). The problem is written as for `rocke plan` (one grammar).

With --config N the arch is the config line's; --arch, if given, must agree with it.
"""

from __future__ import annotations

import argparse

from rocke.arch import ARCH_NAMES
from rocke.cli.common import MAX_PROBLEM_CHARS, UsageError, config_arg, seed_arg
from rocke.cli.emit_cmd import resolve_spec
from rocke.families import get_family
from rocke.families.planners import discover_planners, get_planner


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("sim", help="run a family config on the simulator against its numpy reference")
    parser.add_argument("family", help="a family (with --config / --spec) or a problem kind (with --problem)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--config", type=config_arg, metavar="N", help="config number (0-based) in the config file")
    which.add_argument("--spec", metavar="KV", help="spec in canonical key=value text")
    which.add_argument("--problem", metavar="KV",
                       help="a problem as key=value pairs, planned by dispatch (with --arch)")
    parser.add_argument("--arch", choices=ARCH_NAMES,
                        help="target arch (with --config: the config line's, if omitted)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="seed of the random inputs")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.problem is not None:
        return run_problem(args)
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


def run_problem(args: argparse.Namespace) -> int:
    if len(args.problem) > MAX_PROBLEM_CHARS:
        raise UsageError(f"--problem is longer than {MAX_PROBLEM_CHARS} characters")
    if args.arch is None:
        raise UsageError("--problem needs --arch")
    planners = discover_planners()
    planner = get_planner(args.family, planners)
    if planner.simulate is None:
        runnable = ", ".join(kind for kind, p in planners.items() if p.simulate is not None) or "none"
        raise UsageError(f"problem kind {planner.kind} has no simulator run (kinds with one: {runnable})")
    result = planner.simulate(args.problem, args.arch, args.seed)
    print(f"{planner.kind} [{args.problem}] on {args.arch}, seed {args.seed}: {result.message}")
    print("PASS" if result.ok else "FAIL")
    return 0 if result.ok else 1
