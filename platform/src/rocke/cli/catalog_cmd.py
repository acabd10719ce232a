"""`rocke catalog build [--only F] (--arch A | --problems FILE [--arch A] [--problems-only]) --out DIR
[--jobs N]` and `rocke catalog verify DIR`.

The code-object catalog of rocke.gates.catalog (`DIR/catalog.json`, rocke.catalog/2, keyed by arch
and spec digest): every shipped config of the selected families for an arch compiled to HSACO and,
with `--problems FILE` (a problem corpus: one problem a line, `KIND --problem 'k=v ...' --arch A`
as `rocke plan` takes them), the code objects dispatch picks for those problems, on every arch the
corpus names (`--arch` keeps one). `--problems-only` builds the problems' code objects alone.
Every problem is read and planned before anything compiles: a malformed line or problem is one
line and exit 2, a refused problem exit 1. An arch whose code objects cannot be linked here (an
NVIDIA arch) is skipped, and the output says so.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rocke.arch import ARCH_NAMES
from rocke.cli.common import UsageError, existing_dir, jobs_arg, output_dir


def existing_file(name: str):
    """An argparse type: a path naming an existing file."""

    def parse(text: str) -> Path:
        path = Path(text)
        if not path.exists():
            raise argparse.ArgumentTypeError(f"{name} {text}: no such file")
        if not path.is_file():
            raise argparse.ArgumentTypeError(f"{name} {text}: not a file")
        return path

    parse.__name__ = name
    return parse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("catalog", help="build or verify a code-object catalog (HSACO + catalog.json)")
    verbs = parser.add_subparsers(dest="catalog_verb", required=True)
    build = verbs.add_parser("build", help="compile the shipped configs of an arch, and a problem corpus's "
                                           "code objects, into DIR")
    build.add_argument("--only", action="append", metavar="FAMILY",
                       help="restrict the shipped configs to a family (repeatable)")
    build.add_argument("--arch", choices=ARCH_NAMES,
                       help="target arch (required without --problems; with it, the corpus lines of this arch only)")
    build.add_argument("--problems", type=existing_file("--problems"), metavar="FILE",
                       help="a problem corpus: one problem a line, KIND --problem 'k=v ...' --arch A "
                            "(as rocke plan takes them; # starts a comment)")
    build.add_argument("--problems-only", action="store_true",
                       help="only the code objects the corpus's plans launch, no shipped configs")
    build.add_argument("--out", required=True, type=output_dir("--out"), metavar="DIR",
                       help="catalog directory (created if missing; checked before anything compiles)")
    build.add_argument("--jobs", type=jobs_arg, default=1, help="compiler processes")
    build.add_argument("--quiet", action="store_true", help="no progress lines")
    build.set_defaults(run=run_build)
    verify = verbs.add_parser("verify", help="re-check every code object's sha256 against catalog.json")
    verify.add_argument("dir", type=existing_dir("DIR"), metavar="DIR", help="a catalog directory")
    verify.set_defaults(run=run_verify)


def run_build(args: argparse.Namespace) -> int:
    from rocke.gates import catalog
    from rocke.isa import running_flavor

    if args.problems is None and args.arch is None:
        raise UsageError("--arch is required (or --problems FILE, whose lines name their archs)")
    if args.problems_only and args.problems is None:
        raise UsageError("--problems-only needs --problems FILE")
    if args.problems_only and args.only:
        raise UsageError("--only selects shipped configs, which --problems-only leaves out")
    planned: list[catalog.PlannedProblem] = []
    archs: list[str] = []
    if args.problems is not None:
        corpus = catalog.read_problems(args.problems)
        if args.arch is not None:
            other = [p for p in corpus if p.arch != args.arch]
            if other:
                print(f"catalog: {len(other)} problem(s) of other archs left out (--arch {args.arch})")
            corpus = [p for p in corpus if p.arch == args.arch]
            if not corpus:
                raise UsageError(f"--problems {args.problems}: no problem on {args.arch} (--arch {args.arch})")
        flavor = running_flavor()
        archs = list(dict.fromkeys(p.arch for p in corpus))  # skipped ones too: the index names them
        reasons = {arch: catalog.skip_reason(arch, flavor) for arch in archs}
        for arch, reason in reasons.items():
            if reason is not None:
                count = sum(p.arch == arch for p in corpus)
                print(f"catalog: skipped {arch} ({count} problem(s)): {reason}")
        try:
            planned = catalog.plan_problems([p for p in corpus if reasons[p.arch] is None])
        except catalog.CatalogError as exc:
            print(f"catalog: FAILED: {exc}")
            return 1
        launches = sum(len(p.launches) for p in planned)
        print(f"catalog: planned {len(planned)} problem(s) from {args.problems}: {launches} launch(es)")
    try:
        index, progress = catalog.build_catalog(args.only, arch=args.arch, archs=archs,
                                                out=args.out, jobs=max(1, args.jobs), quiet=args.quiet,
                                                problems=planned, shipped=not args.problems_only)
    except catalog.CatalogError as exc:
        print(f"catalog: FAILED: {exc}")
        return 1
    print(progress.timing_table())
    for arch, reason in index["skipped"].items():
        if args.problems is None:
            print(f"catalog: skipped {arch}: {reason}")
    count = sum(len(entries) for entries in index["entries"].values())
    print(f"catalog: wrote {count} code objects for {', '.join(index['entries'])} ({index['flavor']}) "
          f"and {args.out / 'catalog.json'}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from rocke.gates.catalog import verify_catalog

    problems, count = verify_catalog(args.dir)
    for problem in problems:
        print(f"catalog: {problem}")
    print(f"catalog: {'FAILED (' + str(len(problems)) + ' problems)' if problems else 'ok'} ({count} entries)")
    return 1 if problems else 0
