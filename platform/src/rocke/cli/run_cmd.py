"""`rocke run FAMILY (--config N | --spec KV) [--arch A] [--seed S] [--flavor F]` and
`rocke run KIND --problem KV --arch A [--seed S] [--flavor F]`: `rocke sim`'s check, on the GPU.

The family's numeric check (or the problem kind's planned run) draws the same inputs, computes the
same reference and applies the same tolerances as on the simulator; its launches go to the GPU
present (rocke.runtime: the arch's vendor backend, code objects through the compile seam and the
cache, arguments packed by the kernels' layouts). It prints the largest errors and the GPU time.
With no GPU of the arch (no bindings, no driver, no device, or a vendor backend not written yet),
one line and exit status 2, before anything is built.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rocke.arch import ARCH_NAMES
from rocke.cli.common import UsageError, config_arg, seed_arg
from rocke.families.launcher import launches_on
from rocke.isa import flavor_names
from rocke.runtime import RuntimeDevice, open_backend
from rocke.sim import Comparison


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("run", help="launch a family config on the GPU present and check it against its reference")
    parser.add_argument("family", help="a family (with --config / --spec) or a problem kind (with --problem)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--config", type=config_arg, metavar="N", help="config number (0-based) in the config file")
    which.add_argument("--spec", metavar="KV", help="spec in canonical key=value text")
    which.add_argument("--problem", metavar="KV",
                       help="a problem as key=value pairs, planned by dispatch (with --arch)")
    parser.add_argument("--arch", choices=ARCH_NAMES, help="target arch (with --config: the config line's, if omitted)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="seed of the random inputs")
    parser.add_argument("--flavor", choices=flavor_names(), help="LLVM flavor to compile (default: the running LLVM's)")
    parser.set_defaults(run=run)


def _check(args: argparse.Namespace) -> tuple[Callable[[], Comparison], str, str]:
    """(the check to run, its arch, its label), with every argument checked (as `rocke sim`)."""
    if args.problem is not None:
        from rocke.cli.plan_cmd import MAX_PROBLEM_CHARS
        from rocke.families.planners import discover_planners, get_planner

        if len(args.problem) > MAX_PROBLEM_CHARS:
            raise UsageError(f"--problem is longer than {MAX_PROBLEM_CHARS} characters")
        if args.arch is None:
            raise UsageError("--problem needs --arch")
        planners = discover_planners()
        planner = get_planner(args.family, planners)
        simulate = planner.simulate
        if simulate is None:
            runnable = ", ".join(kind for kind, p in planners.items() if p.simulate is not None) or "none"
            raise UsageError(f"problem kind {planner.kind} has no planned run (kinds with one: {runnable})")
        return (lambda: simulate(args.problem, args.arch, args.seed)), args.arch, f"{planner.kind} [{args.problem}]"
    from rocke.cli.emit_cmd import resolve_spec
    from rocke.families import get_family

    family = get_family(args.family)
    numerics = family.numerics
    if numerics is None:
        raise UsageError(f"family {family.name} has no numeric check")
    spec, arch = resolve_spec(family, args.config, args.spec, args.arch)
    return (lambda: numerics(spec, arch, args.seed)), arch, f"{family.name} [{spec.to_kv()}]"


def run(args: argparse.Namespace) -> int:
    check, arch, label = _check(args)
    backend = open_backend(arch)  # RuntimeUnavailableError: no GPU of the arch (one line, exit 2)
    try:
        device = RuntimeDevice(backend, flavor=args.flavor or "")
        return run_check(check, f"{label} on {arch}, seed {args.seed}", device)
    finally:
        backend.close()


def run_check(check: Callable[[], Comparison], label: str, device: RuntimeDevice) -> int:
    """Run a numeric check with its launches on `device`; print the errors and the GPU time."""
    with launches_on(device.run):
        result = check()
    print(f"{label}, {device.backend.device_name}: {result.count} values, {result.mismatches} mismatches, "
          f"max abs error {result.max_abs_error:.3g}, max rel error {result.max_rel_error:.3g}")
    print(f"  {len(device.launches)} launch(es), {device.milliseconds:.3f} ms of GPU time")
    print("PASS" if result.ok else f"FAIL: {result.message}")
    return 0 if result.ok else 1
