"""`rocke plan KIND --problem 'k=v ...' --arch A [--json] [--engine python|cpp|both] [--out DIR --flavor F]`.

KIND is a problem kind (`rocke plan --help` lists the installed ones) or a family name that
serves exactly one kind. Prints the plan (its text, or the rocke.plan/1 JSON with --json);
exit 0 when planned (or dead: nothing to compute), 1 when refused (the text lists every
candidate's reason codes), 2 for a malformed problem or argument (one line). `--engine cpp`
plans with the planner's C++ twin; `both` runs the two and prints only identical bytes, saying on
stderr that they agreed (a difference is an engine mismatch, exit 1). Planners are found through
the `rocke.planners` entry points (rocke.families.planners).

With `--out DIR` (and `--flavor`) it also writes what a host needs to run the plan:
`DIR/plan.json` (the rocke.plan/1 JSON, the bytes `--json` prints) and, for every launch, its
kernel's artifacts (rocke.gates.artifacts: KERNEL.ll, KERNEL.rir, KERNEL.launch.json -- the
launch's contract for this problem, as the plan holds it -- and, with ld.lld, KERNEL.hsaco),
indexed by `DIR/artifacts.json` (rocke.plan-artifacts/1: per launch in order its family, spec,
spec digest, kernel symbol and file names; `hsaco` null where none could be linked, with the
reason). `--engine cpp|both` builds each launch's kernel with the C++ twin too (both: they must
agree). A refused plan writes plan.json (its reasons) and an index of no launch, and exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from rocke.arch import ARCH_NAMES
from rocke.cli.common import MAX_PROBLEM_CHARS, UsageError, output_dir
from rocke.engine import ENGINES, EngineMismatchError, EngineUnavailableError, default_engine
from rocke.families.planners import PLAN_STATUSES, Planner, get_planner
from rocke.isa import flavor_names

__all__ = ["MAX_PROBLEM_CHARS", "plan_problem", "register", "run", "write_plan_artifacts"]

ARTIFACTS_FORMAT = "rocke.plan-artifacts/1"
PLAN_FILE = "plan.json"
ARTIFACTS_FILE = "artifacts.json"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("plan", help="dispatch a problem to a plan of launches (or its refusal reasons)")
    parser.add_argument("kind", help="problem kind (conv_fwd, attention_fwd, ...) or a family serving one")
    parser.add_argument("--problem", required=True, metavar="KV", help="the problem as key=value pairs")
    parser.add_argument("--arch", required=True, choices=ARCH_NAMES, help="target arch")
    parser.add_argument("--json", action="store_true", help="print the rocke.plan/1 JSON")
    parser.add_argument("--engine", choices=ENGINES, default=None,
                        help="python, cpp or both (default: $ROCKE_ENGINE or python)")
    parser.add_argument("--out", metavar="DIR", type=output_dir("--out"),
                        help="write plan.json, artifacts.json and every launch's KERNEL.{ll,rir,launch.json,hsaco}")
    parser.add_argument("--flavor", choices=flavor_names(), help="LLVM flavor of the .ll files (required with --out)")
    parser.set_defaults(run=run)


def _cpp(planner: Planner, text: str, arch: str) -> tuple[str, str, str]:
    if not planner.cpp_engine:
        raise EngineUnavailableError(f"problem kind '{planner.kind}' has no C++ planner")
    try:
        module = importlib.import_module(planner.cpp_engine)
    except ImportError as exc:
        raise EngineUnavailableError(f"{planner.cpp_engine} is not importable: {exc}") from None
    return tuple(module.plan(planner.kind, text, arch))  # type: ignore[return-value]


def plan_problem(planner: Planner, problem: str, arch: str, engine: str) -> tuple[str, str, str]:
    """(plan JSON, plan text, status) from the chosen engine(s)."""
    if len(problem) > MAX_PROBLEM_CHARS:
        raise UsageError(f"--problem is longer than {MAX_PROBLEM_CHARS} characters")
    if engine == "python":
        result = planner.plan(problem, arch)
    elif engine == "cpp":
        result = _cpp(planner, problem, arch)
    else:
        result = _both(planner, problem, arch)
    if result[2] not in PLAN_STATUSES:
        raise RuntimeError(f"planner '{planner.kind}' returned the unknown status '{result[2]}'")
    return result


def run(args: argparse.Namespace) -> int:
    if args.out is not None and not args.flavor:
        raise UsageError("--flavor is required with --out (the flavor of the .ll files)")
    if args.out is None and args.flavor:
        raise UsageError("--flavor applies to --out only")
    planner = get_planner(args.kind)
    engine = default_engine() if args.engine is None else args.engine
    out, text, status = plan_problem(planner, args.problem, args.arch, engine)
    sys.stdout.write(out if args.json else text)
    if engine == "both":
        print("rocke plan: python and cpp planners agree: plan byte-identical", file=sys.stderr)
    if args.out is not None:
        for line in write_plan_artifacts(out, args.out, flavor=args.flavor, engine=engine):
            print(line, file=sys.stderr if args.json else sys.stdout)
    return 1 if status == "refused" else 0


def write_plan_artifacts(plan_json: str, out: Path, *, flavor: str, engine: str) -> list[str]:
    """Write plan.json and every launch's artifacts into out (module docstring); the lines to print."""
    from rocke.cli.emit_cmd import emit_engines
    from rocke.families import build_family, get_family
    from rocke.gates.artifacts import write_artifacts, write_atomically

    plan: dict[str, Any] = json.loads(plan_json)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    index: list[dict[str, Any]] = []
    kernels: dict[str, str] = {}
    for i, launch in enumerate(plan["launches"]):
        family = get_family(launch["family"])
        spec = family.spec.from_kv(launch["spec"])
        if engine != "python":
            emit_engines(family, launch["spec"], plan["arch"], (flavor,), engine)
        kernel = build_family(family, spec, plan["arch"])
        contract = json.dumps(launch["contract"], indent=2, sort_keys=True) + "\n"
        if kernels.setdefault(kernel.name, contract) != contract:
            raise RuntimeError(f"plan launches {kernel.name} twice with different contracts")
        done = write_artifacts(kernel, family=family.name, spec=spec.to_kv(), arch=plan["arch"], flavor=flavor,
                               out=out, engine=engine, contract=contract)
        names = {path.suffix if path.suffix != ".json" else ".launch.json": path.name for path in done.written}
        entry: dict[str, Any] = {
            "contract": names[".launch.json"], "family": family.name, "hsaco": names.get(".hsaco"),
            "kernel": kernel.name, "launch": i, "ll": names[".ll"], "rir": names[".rir"], "spec": spec.to_kv(),
            "spec_digest": spec.digest(),
        }
        if done.skipped:
            entry["hsaco_skipped"] = "; ".join(done.skipped)
        index.append(entry)
        lines += [f"launch {i}: wrote {path}" for path in done.written]
        lines += [f"launch {i}: skipped {reason}" for reason in done.skipped]
    write_atomically(out / PLAN_FILE, plan_json.encode())
    artifacts = {"arch": plan["arch"], "flavor": flavor, "format": ARTIFACTS_FORMAT, "kind": plan["kind"],
                 "launches": index, "plan": PLAN_FILE, "problem": plan["problem"], "status": plan["status"]}
    write_atomically(out / ARTIFACTS_FILE, (json.dumps(artifacts, indent=2, sort_keys=True) + "\n").encode())
    lines += [f"wrote {out / PLAN_FILE}", f"wrote {out / ARTIFACTS_FILE}"]
    return lines


def _both(planner: Planner, problem: str, arch: str) -> tuple[str, str, str]:
    def attempt(call):
        try:
            return call(), None
        except ValueError as exc:
            return None, exc

    py, py_err = attempt(lambda: planner.plan(problem, arch))
    cpp, cpp_err = attempt(lambda: _cpp(planner, problem, arch))
    if py_err is not None or cpp_err is not None:
        if py_err is not None and cpp_err is not None and str(py_err) == str(cpp_err):
            raise py_err
        raise EngineMismatchError(f"python and cpp planners differ for {planner.kind} [{problem}] on {arch}: "
                                  f"python: {py_err or 'planned'}; cpp: {cpp_err or 'planned'}")
    if py != cpp:
        raise EngineMismatchError(f"python and cpp planners differ for {planner.kind} [{problem}] on {arch}")
    assert py is not None
    return py
