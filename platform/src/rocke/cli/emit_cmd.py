"""`rocke emit FAMILY (--config N | --spec KV) [--arch A] --flavor F [--engine E] [--ir] [--out DIR [--problem KV]]`.

With --config N the arch is the config line's (--arch may be omitted; if given it must agree).
`--engine cpp` builds with the family's C++ builder and lowers in C++; `--engine both` runs the
Python and the C++ builders and lowerers on the same spec and prints only identical bytes (a
refusal only when both refuse with the same text), saying on stderr that they agreed; any
difference is an engine mismatch.

With --out DIR it writes the artifacts a host loads (rocke.gates.artifacts: KERNEL.ll, KERNEL.rir,
KERNEL.launch.json and, with ld.lld, KERNEL.hsaco) and prints what it wrote. KERNEL.launch.json is
the problem-independent launch template (rocke.launch-template/1); with --problem 'k=v ...' it is
the family's launch contract for that problem (rocke.launch/1: grid, block, arguments with buffer
sizes and values, workspace, zero-fills). The problem is written as for `rocke plan` (one
grammar): a family that serves a problem kind takes a problem of that kind (keys it lacks taken
from the spec's fields of the same name) and the sizes dispatch would give it; other families
take their contract's integer sizes. A key that is also a spec field must agree with the spec.
With --engine cpp the contract comes from the family's C++ twin (`launch_contract` of its engine
module), with both the two must agree byte for byte.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from rocke.cli.common import UsageError, add_target_args, config_arg, one_line, output_dir, problem_pairs
from rocke.engine import EngineMismatchError, EngineUnavailableError, default_engine, first_difference, lower
from rocke.families import Family, Spec, build_family, get_family
from rocke.families.configs import ConfigLine, family_configs
from rocke.families.planners import Planner, discover_planners
from rocke.families.spec import INT_VALUE
from rocke.gates.emitters import Emission, emit_cpp, emit_python
from rocke.ir import print_kernel
from rocke.isa import ToolchainError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("emit", help="build a family config and print its LLVM IR (or IR)")
    parser.add_argument("family")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--config", type=config_arg, metavar="N", help="config number (0-based) in the config file")
    which.add_argument("--spec", metavar="KV", help="spec in canonical key=value text")
    add_target_args(parser, flavor_required=False, arch_required=False,
                    flavor_help="LLVM flavor of the emitted IR (required, except with --ir; --out needs it too)")
    parser.add_argument("--ir", action="store_true", help="print the rocke.ir/1 text instead of LLVM IR")
    parser.add_argument("--out", metavar="DIR", type=output_dir("--out"),
                        help="write KERNEL.ll, KERNEL.rir, KERNEL.launch.json (and KERNEL.hsaco with ld.lld) into DIR")
    parser.add_argument("--problem", metavar="KV",
                        help="with --out: the problem KERNEL.launch.json is the contract for, in `rocke plan`'s "
                             "key=value grammar (keys the launch does not take are ignored; spec fields checked)")
    parser.set_defaults(run=run)


def resolve_kv(family: Family, config: int | None, spec: str | None, arch: str | None) -> tuple[str, str]:
    """(spec text, arch) of `--config N` (the line's arch; --arch, if given, must agree) or of
    `--spec KV --arch A`."""
    if spec is None:
        assert config is not None
        configs = family_configs(family)
        if not 0 <= config < len(configs):
            raise UsageError(f"--config {config}: {family.name} has configs 0..{len(configs) - 1}")
        line = configs[config]
        if arch is not None and line.arch != arch:
            raise UsageError(f"--config {config} is for {line.arch}, not {arch} (omit --arch to use the line's)")
        return line.kv, line.arch
    if arch is None:
        raise UsageError("--arch is required with --spec")
    return spec, arch


def resolve_spec(family: Family, config: int | None, spec: str | None, arch: str | None) -> tuple[Spec, str]:
    """The spec and arch of `--config N` or of `--spec KV --arch A` (see resolve_kv)."""
    kv, arch = resolve_kv(family, config, spec, arch)
    return family.spec.from_kv(kv), arch


def _checked(out: Emission, engine: str) -> Emission:
    if out.crash is not None:
        raise RuntimeError(f"{engine} engine: {out.crash}")
    return out


def emit_engines(family: Family, kv: str, arch: str, flavors: tuple[str, ...], engine: str) -> Emission:
    """One config through the chosen engine(s): cpp = C++ builder + C++ lowerer; both = the Python
    and the C++ paths, which must agree on the IR, every .ll and any refusal. A refusal is raised
    as a ValueError with its text."""
    line = ConfigLine(0, arch, kv, False)
    if engine == "cpp":
        out = _checked(emit_cpp(family, line, flavors), "cpp")
    else:
        out = _checked(emit_python(family, line, flavors), "python")
        cpp = _checked(emit_cpp(family, line, flavors), "cpp")
        where = f"{family.name} [{kv}] on {arch}"
        if out.refusal != cpp.refusal:
            raise EngineMismatchError(f"python and cpp engines differ for {where}: "
                                      f"python: {out.refusal or 'built'}; cpp: {cpp.refusal or 'built'}")
        if out.refusal is None:
            pairs = [("IR", out.ir, cpp.ir), *((f"{f} .ll", out.ll[f], cpp.ll[f]) for f in flavors)]
            for what, py_text, cpp_text in pairs:
                if py_text != cpp_text:
                    raise EngineMismatchError(f"python and cpp engines differ for {where} ({what}): "
                                              f"{first_difference(py_text or '', cpp_text or '')}")
    if out.refusal is not None:
        raise ValueError(out.refusal)
    return out


def run(args: argparse.Namespace) -> int:
    family = get_family(args.family)
    kv, arch = resolve_kv(family, args.config, args.spec, args.arch)
    if args.out is not None:
        return _write_out(args, family, kv, arch)
    if args.problem is not None:
        raise UsageError("--problem needs --out (it sizes KERNEL.launch.json)")
    if not args.ir and not args.flavor:
        raise UsageError("--flavor is required unless --ir is given")
    engine = default_engine() if args.engine is None else args.engine
    if engine == "python":
        kernel = build_family(family, family.spec.from_kv(kv), arch)
        text = print_kernel(kernel) if args.ir else lower(kernel, arch=arch, flavor=args.flavor, engine=engine)
    else:
        out = emit_engines(family, kv, arch, () if args.ir else (args.flavor,), engine)
        text = out.ir if args.ir else out.ll[args.flavor]  # type: ignore[assignment]
    sys.stdout.write(text)
    if engine == "both":
        print(f"rocke emit: python and cpp engines agree: {'IR' if args.ir else args.flavor + ' .ll'} "
              f"byte-identical", file=sys.stderr)
    return 0


def _write_out(args: argparse.Namespace, family: Family, kv: str, arch: str) -> int:
    from rocke.gates.artifacts import write_artifacts

    if args.ir:
        raise UsageError("--ir and --out do not mix (--out writes KERNEL.rir too)")
    if not args.flavor:
        raise UsageError("--flavor is required with --out")
    spec = family.spec.from_kv(kv)
    contract = None if args.problem is None else problem_contract(family, spec, args.problem, args.engine, arch)
    kernel = build_family(family, spec, arch)
    try:
        done = write_artifacts(kernel, family=family.name, spec=spec.to_kv(), arch=arch, flavor=args.flavor,
                               out=args.out, engine=args.engine, contract=contract)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: {exc.strerror or exc}") from None
    except ToolchainError as exc:
        print(f"rocke emit: error: {exc}", file=sys.stderr)
        return 1
    for path in done.written:
        print(f"wrote {path}")
    for reason in done.skipped:
        print(f"skipped {reason}")
    return 0


def _spec_fields(spec: Spec) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in spec.to_kv().split(" ") if pair)


def problem_sizes(family: Family, spec: Spec, problem: str, arch: str) -> dict[str, int]:
    """The sizes the family's launch contract takes for a `--problem` text, in the one grammar of
    `rocke plan` and `rocke sim` (rocke.cli.common.problem_pairs). A family that serves a problem
    kind takes the problem of that kind (its defaults filled, its rules checked) and the sizes
    dispatch gives it (the planner's `launch_sizes`); any other family takes integer sizes, its
    contract's keys. Either way a key that is also a spec field must agree with the spec (a
    problem of another dtype or head_dim is refused, not silently emitted); the other keys of the
    problem are the ones the launch does not need."""
    pairs = problem_pairs(problem)
    planner = _serving_planner(family.name)
    if planner is not None and planner.launch_sizes is not None:
        sizes, canonical = planner.launch_sizes(problem, family.name, spec.to_kv(), arch)
        pairs = dict(pair.split("=", 1) for pair in canonical.split(" ") if pair)
    else:
        sizes = {}
        for key, raw in pairs.items():
            if key in _spec_fields(spec):
                continue
            if not INT_VALUE.fullmatch(raw):
                raise UsageError(f"--problem: {key}={one_line(raw)}: {family.name} takes integer sizes "
                                 f"(the keys of its launch contract)")
            sizes[key] = int(raw)
    fields = _spec_fields(spec)
    for key, value in pairs.items():
        if key in fields and fields[key] != value:
            raise UsageError(f"--problem {key}={one_line(value)} does not match the spec's {key}={fields[key]}")
    return sizes


def _serving_planner(family: str) -> Planner | None:
    """The planner of the one problem kind a family serves (dispatch tries its candidates), if any."""
    serving = [p for p in discover_planners().values() if family in p.families]
    return serving[0] if len(serving) == 1 else None


def problem_contract(family: Family, spec: Spec, problem: str, engine: str | None, arch: str) -> str:
    """The family's launch contract JSON for a problem, from the chosen engine(s)."""
    if family.launch is None:
        raise UsageError(f"{family.name} has no launch contract")
    sizes = problem_sizes(family, spec, problem, arch)
    engine = default_engine() if engine is None else engine
    py = family.launch(spec, sizes).to_json() if engine != "cpp" else None
    if engine == "python":
        assert py is not None
        return py
    module = importlib.import_module(family.cpp_engine) if family.cpp_engine else None
    if module is None or not hasattr(module, "launch_contract"):
        raise EngineUnavailableError(f"{family.name}: no C++ launch contract (engine module "
                                     f"'{family.cpp_engine or 'none'}' has no launch_contract)")
    cpp = module.launch_contract(family.name, spec.to_kv(), sizes)
    if py is not None and py != cpp:
        raise EngineMismatchError(f"python and cpp launch contracts differ for {family.name} [{spec.to_kv()}]: "
                                  f"{first_difference(py, cpp)}")
    return cpp
