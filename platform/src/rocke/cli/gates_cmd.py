"""`rocke check parity|golden|validity` and `rocke bless`: the config gates from the command line."""

from __future__ import annotations

import argparse
from pathlib import Path

from rocke.cli.common import UsageError, existing_dir, jobs_arg, shard_arg
from rocke.families.configs import family_configs
from rocke.gates.emitters import FLAVORS
from rocke.gates.golden import bless, check_golden, source_golden_path
from rocke.gates.parity import format_report, run_parity
from rocke.gates.runner import Shard, select_families
from rocke.gates.validity import format_rows, run_validity


def register(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser("check", help="run a gate over every family's configs")
    check.add_argument("gate", choices=["parity", "golden", "validity"])
    check.add_argument("--only", action="append", metavar="FAMILY", help="restrict to a family (repeatable)")
    check.add_argument("--flavor", choices=FLAVORS, help="parity: restrict to one flavor")
    check.add_argument("--jobs", type=jobs_arg, default=1, help="worker processes")
    check.add_argument("--shard", type=shard_arg, help="i/n: take every n-th config starting at i")
    check.add_argument("--root", type=existing_dir("--root"),
                       help="golden: read the goldens from this source checkout (a directory holding platform/ "
                            "and library/); default: the installed packages' goldens, wherever the cwd is")
    check.add_argument("--write-refusals", action="store_true",
                       help="validity: rewrite each family's resource-refusal table for the running flavor, in the "
                            "source checkout that is the cwd")
    check.add_argument("--quiet", action="store_true", help="no progress lines")
    check.set_defaults(run=run_check)
    blessp = sub.add_parser("bless", help="recompute and rewrite the goldens in a source checkout")
    blessp.add_argument("--only", action="append", metavar="FAMILY")
    blessp.add_argument("--root", type=existing_dir("--root"), default=None, help="repository root (default: cwd)")
    blessp.add_argument("--jobs", type=jobs_arg, default=1)
    blessp.set_defaults(run=run_bless)


def _check_shard(only: list[str] | None, shard: Shard | None) -> None:
    """A shard must select at least one config (checked before any config is emitted)."""
    if shard is None:
        return
    total = sum(len(family_configs(f)) for f in select_families(only))
    if shard.index >= total:
        raise UsageError(f"--shard {shard.index}/{shard.count} selects no configs "
                         f"(the selected families have {total} configs)")


def _check_root(only: list[str] | None, root: Path) -> None:
    """Every selected family's golden must be locatable under root (before anything is computed)."""
    for family in select_families(only):
        try:
            source_golden_path(family, root)
        except FileNotFoundError as exc:
            raise UsageError(f"--root {root}: {exc}") from None


def run_check(args: argparse.Namespace) -> int:
    if args.gate != "parity" and args.flavor:
        raise UsageError("--flavor applies to parity only")
    if args.gate != "golden" and args.root:
        raise UsageError("--root applies to golden only")
    select_families(args.only)  # an unknown --only family is a usage error before any work
    _check_shard(args.only, args.shard)
    if args.root is not None:
        _check_root(args.only, args.root)
    if args.gate == "parity":
        flavors = (args.flavor,) if args.flavor else FLAVORS
        statuses, progress = run_parity(args.only, flavors=flavors, jobs=args.jobs, shard=args.shard,
                                        quiet=args.quiet)
        print(format_report(statuses))
        print(progress.timing_table())
        failed = [s.name for s in statuses if not s.ok]
        if not statuses:
            print("parity: FAILED (no families with configs)")
            return 1
        print(f"parity: {'FAILED ' + ', '.join(failed) if failed else 'ok'} ({len(statuses)} families)")
        return 1 if failed else 0
    if args.gate == "golden":
        print(f"golden: reading the goldens of {args.root} (--root)" if args.root is not None else
              "golden: reading the installed packages' goldens (--root DIR reads a source checkout's)", flush=True)
        problems, progress = check_golden(args.only, jobs=args.jobs, root=args.root, shard=args.shard,
                                          quiet=args.quiet)
        for problem in problems:
            print(f"golden: {problem}")
        print(progress.timing_table())
        print(f"golden: {'FAILED (' + str(len(problems)) + ' problems)' if problems else 'ok'}")
        return 1 if problems else 0
    if args.write_refusals and args.gate != "validity":
        raise ValueError("--write-refusals applies to validity only")
    rows, table_problems, progress = run_validity(args.only, jobs=args.jobs, shard=args.shard, quiet=args.quiet,
                                                  write_refusals=args.write_refusals, root=args.root)
    print(format_rows(rows))
    for problem in table_problems:
        print(f"validity: {problem}")
    print(progress.timing_table())
    bad = len([r for r in rows if r.problem]) + len(table_problems)
    print(f"validity: {'FAILED (' + str(bad) + ' problems)' if bad else 'ok'} ({len(rows)} kernels)")
    return 1 if bad or not rows else 0


def run_bless(args: argparse.Namespace) -> int:
    root = Path.cwd() if args.root is None else args.root
    _check_root(args.only, root)
    for line in bless(args.only, root=root, jobs=args.jobs):
        print(f"bless: {line}")
    return 0
