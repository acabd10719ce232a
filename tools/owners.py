#!/usr/bin/env python3
"""Code ownership from CODEOWNERS: who must review a change, and does every file have an owner.

  python tools/owners.py check                    every tracked file matches a rule
  python tools/owners.py reviewers PATH...        teams whose review these paths need
  python tools/owners.py reviewers --diff REV     teams whose review `git diff REV` needs

Rules follow CODEOWNERS semantics for the patterns this repo uses: a leading `/`
anchors at the root, a trailing `/` owns a directory tree, `*` and `?` glob within
a path segment, a pattern without `/` matches a name at any depth; the last
matching rule wins. Independent of the `rocke` package on purpose.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Rule:
    pattern: str
    owners: tuple[str, ...]
    regex: re.Pattern[str]


def _glob_to_regex(pattern: str) -> re.Pattern[str]:
    anchored = pattern.startswith("/") or "/" in pattern.rstrip("/")
    body = pattern.strip("/")
    is_dir = pattern.endswith("/")
    out = ""
    i = 0
    while i < len(body):
        if body.startswith("**", i):
            out += ".*"
            i += 2
        elif body[i] == "*":
            out += "[^/]*"
            i += 1
        elif body[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(body[i])
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    suffix = "/.*" if is_dir else "(?:/.*)?"
    return re.compile(f"^{prefix}{out}{suffix}$")


def load_rules(codeowners: Path) -> list[Rule]:
    rules = []
    for lineno, raw in enumerate(codeowners.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        pattern, *owners = line.split()
        if not owners:
            raise SystemExit(f"{codeowners}:{lineno}: rule '{pattern}' names no owner")
        rules.append(Rule(pattern, tuple(owners), _glob_to_regex(pattern)))
    return rules


def owners_of(path: str, rules: list[Rule]) -> tuple[str, ...]:
    found: tuple[str, ...] = ()
    for rule in rules:
        if rule.regex.match(path):
            found = rule.owners
    return found


def reviewers(paths: list[str], rules: list[Rule]) -> list[str]:
    """Every team that owns at least one of the paths; an unowned path is an error."""
    teams: set[str] = set()
    for path in paths:
        owners = owners_of(path, rules)
        if not owners:
            raise SystemExit(f"no owner for '{path}'; add a rule to CODEOWNERS")
        teams.update(owners)
    return sorted(teams)


def tracked_files(root: Path) -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=root, check=True, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line]


def changed_files(root: Path, rev: str) -> list[str]:
    cmd = ["git", "diff", "--name-only", rev]
    out = subprocess.run(cmd, cwd=root, check=True, capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=ROOT)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("check")
    rev = sub.add_parser("reviewers")
    rev.add_argument("paths", nargs="*")
    rev.add_argument("--diff", metavar="REV")
    args = parser.parse_args(argv)
    rules = load_rules(args.root / "CODEOWNERS")
    if args.cmd == "check":
        files = tracked_files(args.root)
        unowned = [f for f in files if not owners_of(f, rules)]
        for f in unowned:
            print(f"unowned: {f}")
        if unowned:
            print(f"{len(unowned)} of {len(files)} tracked files have no owner in CODEOWNERS")
            return 1
        print(f"owners: all {len(files)} tracked files have an owner")
        return 0
    paths = list(args.paths) + (changed_files(args.root, args.diff) if args.diff else [])
    if not paths:
        parser.error("reviewers needs paths or --diff REV")
    for team in reviewers(paths, rules):
        print(team)
    return 0


if __name__ == "__main__":
    sys.exit(main())
