"""`rocke cache show [--json]` and `rocke cache clear`: the code-object cache of rocke.runtime.

The directory is $ROCKE_CACHE_DIR, else ~/.cache/rocke. `show` lists the entries, least recently
used first; `clear` removes every entry (and nothing else in the directory).
"""

from __future__ import annotations

import argparse
import json
import time

from rocke.runtime.cache import CACHE_ENV, CodeObjectCache


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("cache", help=f"show or clear the code-object cache (${CACHE_ENV}, else ~/.cache/rocke)")
    verbs = parser.add_subparsers(dest="cache_verb", required=True)
    show = verbs.add_parser("show", help="list the cached code objects, least recently used first")
    show.add_argument("--json", action="store_true", help="print the entries as JSON")
    show.set_defaults(run=run_show)
    verbs.add_parser("clear", help="remove every cached code object").set_defaults(run=run_clear)


def run_show(args: argparse.Namespace) -> int:
    cache = CodeObjectCache()
    entries = cache.entries()
    total = sum(entry.bytes for entry in entries)
    if args.json:
        print(json.dumps({
            "directory": str(cache.directory),
            "entries": [{"arch": e.key.arch, "bytes": e.bytes, "digest": e.key.digest, "file": e.path.name,
                         "flavor": e.key.flavor, "kernel": e.key.kernel, "last_used": round(e.last_used, 3),
                         "toolchain": e.key.toolchain} for e in entries],
            "max_bytes": cache.max_bytes,
            "total_bytes": total,
        }, indent=2, sort_keys=True))
        return 0
    print(f"cache: {cache.directory}: {len(entries)} code object(s), {total} bytes (bound {cache.max_bytes} bytes)")
    for entry in entries:
        used = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.last_used))
        print(f"  {entry.key.kernel}  {entry.key.arch}  {entry.key.flavor}  {entry.bytes} bytes  used {used}  "
              f"[{entry.key.toolchain}]")
    return 0


def run_clear(_args: argparse.Namespace) -> int:
    cache = CodeObjectCache()
    count, size = cache.clear()
    print(f"cache: removed {count} code object(s), {size} bytes, from {cache.directory}")
    return 0
