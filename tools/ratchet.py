#!/usr/bin/env python3
"""Shrink-only ratchet over every allowlist in the repo (docs/architecture.md §8).

Each allowlist is collected into entries and compared with the committed baseline
(tools/ratchet_baseline.json):
  * an entry not in the baseline fails (allowlists may not grow);
  * a baseline entry no longer present fails (stale: remove it with `shrink`);
  * a wildcard entry fails (every exception is named).

  python tools/ratchet.py check      compare (default)
  python tools/ratchet.py shrink     drop stale baseline entries; never adds one

Allowlists collected: import-linter `ignore_imports`, ruff per-file-ignores,
noqa suppression comments, and the data allowlists registered in DATA_ALLOWLISTS
(one entry per non-comment line).
"""

from __future__ import annotations

import argparse
import configparser
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = Path("tools/ratchet_baseline.json")
NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*))?", re.IGNORECASE)
# Line-based allowlist data files (known-bad validity configs, expected arch-domain warnings, ...).
DATA_ALLOWLISTS: tuple[str, ...] = ()


def _importlinter_ignores(root: Path) -> list[str]:
    parser = configparser.ConfigParser()
    parser.read(root / ".importlinter", encoding="utf-8")
    entries = []
    for section in parser.sections():
        for line in parser[section].get("ignore_imports", "").splitlines():
            if line.strip():
                entries.append(f"{section}: {line.strip()}")
    return entries


def _ruff_per_file_ignores(root: Path) -> list[str]:
    path = root / "ruff.toml"
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    table = data.get("lint", {}).get("per-file-ignores", {})
    return [f"{pattern}: {code}" for pattern in sorted(table) for code in sorted(table[pattern])]


def _python_files(root: Path) -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "*.py"], cwd=root,
                             check=True, capture_output=True, text=True).stdout
        return [root / line for line in sorted(out.splitlines()) if line and (root / line).exists()]
    except (OSError, subprocess.CalledProcessError):
        return sorted(p for p in root.rglob("*.py") if ".nox" not in p.parts and "build" not in p.parts)


def _noqa_comments(root: Path) -> list[str]:
    entries = []
    for path in _python_files(root):
        rel = path.relative_to(root).as_posix()
        for line in path.read_text(encoding="utf-8").splitlines():
            match = NOQA.search(line)
            if match:
                codes = match.group("codes")
                entries.append(f"{rel}: {line.strip()}" if codes else f"{rel}: * {line.strip()}")
    return entries


def _data_allowlists(root: Path) -> list[str]:
    entries = []
    for rel in DATA_ALLOWLISTS:
        path = root / rel
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    entries.append(f"{rel}: {line.strip()}")
    return entries


COLLECTORS: dict[str, Callable[[Path], list[str]]] = {
    "importlinter.ignore_imports": _importlinter_ignores,
    "ruff.per_file_ignores": _ruff_per_file_ignores,
    "noqa": _noqa_comments,
    "data_allowlists": _data_allowlists,
}


def collect(root: Path) -> dict[str, list[str]]:
    return {name: sorted(collector(root)) for name, collector in COLLECTORS.items()}


def load_baseline(root: Path) -> dict[str, list[str]]:
    path = root / BASELINE
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    return {name: sorted(data.get(name, [])) for name in COLLECTORS}


def problems(current: dict[str, list[str]], baseline: dict[str, list[str]]) -> list[str]:
    found = []
    for name in COLLECTORS:
        now, base = set(current[name]), set(baseline[name])
        found += [f"{name}: added (allowlists only shrink): {e}" for e in sorted(now - base)]
        found += [f"{name}: stale (run `tools/ratchet.py shrink`): {e}" for e in sorted(base - now)]
        found += [f"{name}: wildcard (name each exception): {e}" for e in sorted(now) if "*" in e]
    return found


def _write_baseline(root: Path, data: dict[str, list[str]]) -> None:
    path = root / BASELINE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8", newline="\n")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="check", choices=["check", "shrink"])
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    current, baseline = collect(args.root), load_baseline(args.root)
    if args.command == "shrink":
        kept = {name: [e for e in baseline[name] if e in set(current[name])] for name in COLLECTORS}
        _write_baseline(args.root, kept)
        current_problems = problems(current, kept)
    else:
        current_problems = problems(current, baseline)
    for problem in current_problems:
        print(f"ratchet: {problem}")
    total = sum(len(v) for v in current.values())
    if current_problems:
        print(f"ratchet: FAILED ({len(current_problems)} problems)")
        return 1
    print(f"ratchet: ok ({total} allowlist entries, none added)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
