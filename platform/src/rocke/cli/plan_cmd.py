"""`rocke plan KIND --problem 'k=v ...' --arch A [--json] [--engine python|cpp|both]`.

KIND is a problem kind (`rocke plan --help` lists the installed ones) or a family name that
serves exactly one kind. Prints the plan (its text, or the rocke.plan/1 JSON with --json);
exit 0 when planned (or dead: nothing to compute), 1 when refused (the text lists every
candidate's reason codes), 2 for a malformed problem or argument (one line). `--engine cpp`
plans with the planner's C++ twin; `both` runs the two and prints only identical bytes (a
difference is an engine mismatch, exit 1). Planners are found through the `rocke.planners`
entry points (rocke.families.planners).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from rocke.arch import ARCH_NAMES
from rocke.cli.common import UsageError
from rocke.engine import ENGINES, EngineMismatchError, EngineUnavailableError, default_engine
from rocke.families.planners import PLAN_STATUSES, Planner, get_planner

MAX_PROBLEM_CHARS = 4096


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("plan", help="dispatch a problem to a plan of launches (or its refusal reasons)")
    parser.add_argument("kind", help="problem kind (conv_fwd, attention_fwd, ...) or a family serving one")
    parser.add_argument("--problem", required=True, metavar="KV", help="the problem as key=value pairs")
    parser.add_argument("--arch", required=True, choices=ARCH_NAMES, help="target arch")
    parser.add_argument("--json", action="store_true", help="print the rocke.plan/1 JSON")
    parser.add_argument("--engine", choices=ENGINES, default=None,
                        help="python, cpp or both (default: $ROCKE_ENGINE or python)")
    parser.set_defaults(run=run)


def _cpp(planner: Planner, text: str, arch: str) -> tuple[str, str, str]:
    if not planner.cpp_engine:
        raise EngineUnavailableError(f"problem kind '{planner.kind}' has no C++ planner")
    try:
        module = importlib.import_module(planner.cpp_engine)
    except ImportError as exc:
        raise EngineUnavailableError(f"{planner.cpp_engine} is not importable: {exc}") from None
    return tuple(module.plan(planner.kind, text, arch))  # type: ignore[return-value]


def run(args: argparse.Namespace) -> int:
    if len(args.problem) > MAX_PROBLEM_CHARS:
        raise UsageError(f"--problem is longer than {MAX_PROBLEM_CHARS} characters")
    planner = get_planner(args.kind)
    engine = default_engine() if args.engine is None else args.engine
    if engine == "python":
        result = planner.plan(args.problem, args.arch)
    elif engine == "cpp":
        result = _cpp(planner, args.problem, args.arch)
    else:
        result = _both(planner, args.problem, args.arch)
    out, text, status = result
    if status not in PLAN_STATUSES:
        raise RuntimeError(f"planner '{planner.kind}' returned the unknown status '{status}'")
    sys.stdout.write(out if args.json else text)
    return 1 if status == "refused" else 0


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
