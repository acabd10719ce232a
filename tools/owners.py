#!/usr/bin/env python3
"""Code ownership from CODEOWNERS: who must review a change, and does every file have an owner.

  python tools/owners.py check                    every tracked file matches a rule, and every
                                                  family keeps its files in its own folders
  python tools/owners.py family NAME              a family's files and the team that owns them
  python tools/owners.py reviewers PATH...        teams whose review these paths need
  python tools/owners.py reviewers --diff REV     teams whose review `git diff REV` needs

A family is a folder `<package>/src/<top>/<rel>/` holding `family.py` (its record); its files are
those in a folder named after it (docs/architecture.md §5): that folder, with `<name>.cfg` and
`<name>.golden.json`, the C++ folders `<package>/cpp/include/<top>/<rel>/` and
`<package>/cpp/src/<rel>/`, and the tests `<package>/tests/<rel>/`. All of them must be present and
owned by one team.

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


FAMILY_RECORD = "family.py"


def families(files: list[str]) -> dict[str, str]:
    """Family name -> its Python folder: every folder under a package's src/ holding family.py."""
    found = {}
    for path in files:
        parts = path.split("/")
        if parts[-1] == FAMILY_RECORD and len(parts) >= 5 and parts[1] == "src":
            found[parts[-2]] = "/".join(parts[:-1])
    return dict(sorted(found.items()))


def family_files(name: str, files: list[str]) -> list[str]:
    """Every tracked file of family `name`: the files inside a folder named after it."""
    return [path for path in files if name in path.split("/")[:-1]]


def family_problems(files: list[str], rules: list[Rule]) -> list[str]:
    """One line per family whose files are missing from, or spread beyond, its own folders."""
    problems = []
    tracked = set(files)
    for name, folder in families(files).items():
        package, _, top, rel = folder.split("/", 3)
        wanted = {"config file": f"{folder}/{name}.cfg", "golden": f"{folder}/{name}.golden.json"}
        problems += [f"family {name}: no {what} {path}" for what, path in wanted.items() if path not in tracked]
        mine = family_files(name, files)
        for what, prefix in (("C++ headers", f"{package}/cpp/include/{top}/{rel}/"),
                             ("C++ sources", f"{package}/cpp/src/{rel}/"), ("tests", f"{package}/tests/{rel}/")):
            if not any(path.startswith(prefix) for path in mine):
                problems.append(f"family {name}: no {what} in {prefix}")
        teams = {owners_of(path, rules) for path in mine}
        if len(teams) > 1:
            spread = sorted(path for path in mine if owners_of(path, rules) != owners_of(folder, rules))
            problems.append(f"family {name}: files owned by more than one team: {', '.join(spread)}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=ROOT)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("check")
    fam = sub.add_parser("family")
    fam.add_argument("name")
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
        problems = family_problems(files, rules)
        for problem in problems:
            print(problem)
        if problems:
            return 1
        print(f"owners: {len(families(files))} families, each in its own folders with one owner")
        return 0
    if args.cmd == "family":
        files = tracked_files(args.root)
        if args.name not in families(files):
            print(f"unknown family '{args.name}'; known: {', '.join(families(files)) or 'none'}")
            return 1
        for path in family_files(args.name, files):
            print(f"{' '.join(owners_of(path, rules))}  {path}")
        return 0
    paths = list(args.paths) + (changed_files(args.root, args.diff) if args.diff else [])
    if not paths:
        parser.error("reviewers needs paths or --diff REV")
    for team in reviewers(paths, rules):
        print(team)
    return 0


if __name__ == "__main__":
    sys.exit(main())
