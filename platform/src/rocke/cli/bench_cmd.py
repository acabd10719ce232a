"""`rocke bench [--only F] [--json PATH] [--quick] [--instructions]`: the bench lane's sections."""

from __future__ import annotations

import argparse
import json

from rocke.cli.common import jobs_arg, output_file
from rocke.gates.bench import format_bench, run_bench


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="engine speed, gate cost, kernel resources, scaling (not pass/fail)")
    parser.add_argument("--only", action="append", metavar="FAMILY")
    parser.add_argument("--json", type=output_file("--json"), help="also write the figures as JSON here")
    parser.add_argument("--jobs", type=jobs_arg, default=2)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and sizes (smoke run)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the native emitters' instructions per config and per op (needs valgrind)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.quick:
        data = run_bench(args.only, runs=1, max_configs=1, jobs=args.jobs, sizes=(200, 400), parse_size=1 << 16,
                         instructions=args.instructions)
    else:
        data = run_bench(args.only, jobs=args.jobs, instructions=args.instructions)
    print(format_bench(data))
    if args.json:
        args.json.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"bench: figures written to {args.json}")
    return 0
