"""`rocke catalog build [--only F] --arch A --out DIR [--jobs N]` and `rocke catalog verify DIR`.

The code-object catalog of rocke.gates.catalog: every shipped config of every family for one arch
compiled to HSACO, indexed by `DIR/catalog.json` (rocke.catalog/1).
"""

from __future__ import annotations

import argparse

from rocke.arch import ARCH_NAMES
from rocke.cli.common import existing_dir, jobs_arg, output_dir


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("catalog", help="build or verify a code-object catalog (HSACO + catalog.json)")
    verbs = parser.add_subparsers(dest="catalog_verb", required=True)
    build = verbs.add_parser("build", help="compile every shipped config for an arch into DIR")
    build.add_argument("--only", action="append", metavar="FAMILY", help="restrict to a family (repeatable)")
    build.add_argument("--arch", required=True, choices=ARCH_NAMES, help="target arch")
    build.add_argument("--out", required=True, type=output_dir("--out"), metavar="DIR",
                       help="catalog directory (created if missing; checked before anything compiles)")
    build.add_argument("--jobs", type=jobs_arg, default=1, help="compiler processes")
    build.add_argument("--quiet", action="store_true", help="no progress lines")
    build.set_defaults(run=run_build)
    verify = verbs.add_parser("verify", help="re-check every code object's sha256 against catalog.json")
    verify.add_argument("dir", type=existing_dir("DIR"), metavar="DIR", help="a catalog directory")
    verify.set_defaults(run=run_verify)


def run_build(args: argparse.Namespace) -> int:
    from rocke.gates.catalog import CatalogError, build_catalog

    try:
        index, progress = build_catalog(args.only, arch=args.arch, out=args.out, jobs=max(1, args.jobs),
                                        quiet=args.quiet)
    except CatalogError as exc:
        print(f"catalog: FAILED: {exc}")
        return 1
    print(progress.timing_table())
    print(f"catalog: wrote {len(index['entries'])} code objects for {args.arch} ({index['flavor']}) "
          f"and {args.out / 'catalog.json'}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from rocke.gates.catalog import verify_catalog

    problems, count = verify_catalog(args.dir)
    for problem in problems:
        print(f"catalog: {problem}")
    print(f"catalog: {'FAILED (' + str(len(problems)) + ' problems)' if problems else 'ok'} ({count} entries)")
    return 1 if problems else 0
