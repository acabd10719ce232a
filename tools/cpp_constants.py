#!/usr/bin/env python3
"""One spelling for constants across the Python/C++ twins: Python `UPPER_SNAKE`, C++ `kUpperSnake`.

  python tools/cpp_constants.py check    every C++ constant is spelled kCamel (exit 1 naming each
                                          one that is not); a constant that twins a Python one is
                                          kCamel of the Python name
  python tools/cpp_constants.py fix      rename every UPPER_SNAKE C++ constant to its kCamel
                                          spelling in every C++ file and doc that names it

A C++ constant is a `constexpr` (or namespace-scope `const`) variable of a header or source under
`platform/cpp/` or `library/cpp/`. Its Python twin is the module named in the file's first lines
(`Python twin: rocke/...py`): when that module defines `NAME = ...` at module or class level, the
C++ twin is `k` + NAME in CamelCase (`MAX_STORE_BYTES` -> `kMaxStoreBytes`, `FAMILY` -> `kFamily`),
so a reader finds one from the other by the rule alone. Independent of the `rocke` package on
purpose.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPP_DIRS = ("platform/cpp", "library/cpp")
CPP_SUFFIXES = (".hpp", ".cpp")
DOC_DIRS = ("docs", "platform/docs", "library/docs")

# A constant declaration: constexpr (any storage words before it) or a namespace-scope `const`,
# then its type, then the name and `=`, `{` or `[`.
_DECL = re.compile(
    r"^\s*(?:(?:inline|static|extern)\s+)*(?:constexpr|const)\b[^=;(){}]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*[={]",
    re.MULTILINE)
_UPPER = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")
_KCAMEL = re.compile(r"^k[A-Z][A-Za-z0-9]*$")
_TWIN = re.compile(r"Python twin[s]?:\s*`?([\w/]+\.py)")
_PY_CONST = re.compile(r"^\s*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)\s*(?::[^=]+)?=", re.MULTILINE)


def kcamel(upper: str) -> str:
    """MAX_STORE_BYTES -> kMaxStoreBytes."""
    return "k" + "".join(word[:1] + word[1:].lower() for word in upper.split("_") if word)


def cpp_files(root: Path = ROOT) -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", *CPP_DIRS], cwd=root, check=True,
                         capture_output=True, text=True).stdout.split()
    return sorted(root / p for p in out if p.endswith(CPP_SUFFIXES) and (root / p).is_file())


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", text)


def constants(text: str) -> list[str]:
    """Names of the constants a C++ file declares (skipping function parameters and locals in
    parentheses: only `NAME =`, `NAME{` and `NAME[...] =` declarations)."""
    names = []
    for match in _DECL.finditer(_strip_comments(text)):
        name = match.group(1)
        if name not in names:
            names.append(name)
    return names


def twin_module(text: str, root: Path = ROOT) -> Path | None:
    """The Python file a C++ file names as its twin (first lines), if it exists."""
    head = "\n".join(text.splitlines()[:12])
    match = _TWIN.search(head)
    if not match:
        return None
    for package in ("platform/src", "library/src"):
        path = root / package / match.group(1)
        if path.is_file():
            return path
    return None


def python_constants(path: Path) -> set[str]:
    return set(_PY_CONST.findall(path.read_text(encoding="utf-8")))


def misspelled(root: Path = ROOT) -> list[tuple[str, str, str, str]]:
    """(file, C++ name, wanted name, why) for each C++ constant not spelled by the rule: an
    UPPER_SNAKE one (wanted: its kCamel), or a kCamel one that twins a Python constant under
    another name (kGoldenFormat beside golden.py's FORMAT; wanted: kFormat)."""
    out = []
    for path in cpp_files(root):
        text = path.read_text(encoding="utf-8")
        twin = twin_module(text, root)
        py_names = python_constants(twin) if twin else set()
        twins = {kcamel(name): name for name in py_names}
        rel = path.relative_to(root).as_posix()
        where = twin.relative_to(root).as_posix() if twin else ""
        for name in constants(text):
            if _UPPER.match(name) and len(name) > 1:
                why = f"twin of {where}'s {name}" if name in py_names else "C++ constants are kCamel"
                out.append((rel, name, kcamel(name), why))
            elif _KCAMEL.match(name) and twin and name not in twins:
                near = sorted(py for k, py in twins.items() if k.lower() == name.lower() or name.endswith(k[1:]))
                if near:
                    out.append((rel, name, kcamel(near[-1]), f"twin of {where}'s {near[-1]}"))
    return out


def problems(root: Path = ROOT) -> list[str]:
    return [f"{rel}: constant {name} is spelled {want} ({why})" for rel, name, want, why in misspelled(root)]


def renames(root: Path = ROOT) -> dict[str, str]:
    """C++ constant -> the spelling the rule wants, over every C++ file."""
    return {name: want for _, name, want, _ in misspelled(root)}


_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _rename_code(text: str, mapping: dict[str, str], pattern: re.Pattern[str]) -> str:
    """Rename identifiers in code and comments, never inside a string literal nor in a comment
    that speaks of the Python twin."""
    out = []
    for line in text.splitlines(keepends=True):
        code, sep, comment = line.partition("//")
        pieces = []
        last = 0
        for match in _STRING.finditer(code):
            pieces.append(pattern.sub(lambda m: mapping[m.group()], code[last:match.start()]))
            pieces.append(match.group())
            last = match.end()
        pieces.append(pattern.sub(lambda m: mapping[m.group()], code[last:]))
        if "Python" not in comment:  # a comment about the Python twin keeps the Python names
            comment = pattern.sub(lambda m: mapping[m.group()], comment)
        out.append("".join(pieces) + sep + comment)
    return "".join(out)


def fix(root: Path = ROOT) -> list[str]:
    """Apply renames() to every C++ file (code and comments; string literals and comments about
    the Python twin keep their text)."""
    mapping = renames(root)
    if not mapping:
        return []
    pattern = re.compile(r"(?<![\w])(?:" + "|".join(sorted(map(re.escape, mapping), key=len, reverse=True))
                         + r")(?!\w)")
    changed = []
    for path in cpp_files(root):
        text = path.read_text(encoding="utf-8")
        new = _rename_code(text, mapping, pattern)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path.relative_to(root).as_posix())
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["check", "fix"])
    args = parser.parse_args(argv)
    if args.command == "fix":
        changed = fix()
        print(f"cpp_constants: renamed constants in {len(changed)} files")
        return 0
    found = problems()
    for line in found:
        print(f"cpp_constants: {line}")
    print(f"cpp_constants: {'FAILED (' + str(len(found)) + ' constants)' if found else 'ok'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
