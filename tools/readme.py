#!/usr/bin/env python3
"""The README's commands, run verbatim in a fresh virtual environment (the `install` lane).

The commands are read from README.md itself, so the README and this check cannot drift:

  * section `## Install`: the shell lines of its code block (indented by four spaces), run in
    order by one `bash -e` in a fresh checkout copy; they create and activate `.venv` and
    install the packages;
  * section ``## The `rocke` command``: every code line, each run verbatim by bash in that
    activated venv (a `# comment` is bash's own), each must exit 0;
  * section `## A C++ host`: every code line, run the same way after them (a host built against
    the installed wheels and run on what the `rocke` commands wrote).

Every command runs in the checkout copy's root, as a user runs them in a fresh clone.

Then `rocke families` must list every family that ships a golden file in the checkout, and
`.venv/bin/rocke check parity`, run with the venv *not* activated (PATH without it), must find
the native emitters installed in `.venv` and name them in its report.

  python tools/readme.py run --checkout DIR     DIR holds README.md, platform/ and library/
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

INSTALL_SECTION = "Install"
COMMANDS_SECTION = "The `rocke` command"
HOST_SECTION = "A C++ host"


class ReadmeError(RuntimeError):
    """The README does not have the section or commands this check needs, or a command failed."""


def section_commands(text: str, heading: str) -> list[str]:
    """The code lines (indented four spaces, markdown's code block) of section `## heading`."""
    lines = text.splitlines()
    try:
        start = lines.index(f"## {heading}") + 1
    except ValueError:
        raise ReadmeError(f"README.md has no section '## {heading}'") from None
    commands = []
    for line in lines[start:]:
        if line.startswith("## "):
            break
        if line.startswith("    ") and line.strip():
            commands.append(line[4:].rstrip())
    if not commands:
        raise ReadmeError(f"README.md section '## {heading}' has no command lines")
    return commands


def install_commands(text: str) -> list[str]:
    return section_commands(text, INSTALL_SECTION)


def rocke_commands(text: str) -> list[str]:
    commands = section_commands(text, COMMANDS_SECTION)
    bad = [c for c in commands if not c.startswith("rocke ")]
    if bad:
        raise ReadmeError(f"README.md section '## {COMMANDS_SECTION}' has a line that is not a rocke command: {bad[0]}")
    return commands


def host_commands(text: str) -> list[str]:
    return section_commands(text, HOST_SECTION)


def golden_families(checkout: Path) -> list[str]:
    """Families with a golden file in the checkout (`goldens/<family>.json` or `<family>.golden.json`)."""
    names = set()
    for top in ("platform/src", "library/src"):
        for path in (checkout / top).rglob("*.json"):
            if path.parent.name == "goldens":
                names.add(path.stem)
            elif path.name.endswith(".golden.json"):
                names.add(path.name.removesuffix(".golden.json"))
    return sorted(names)


def listed_families(families_output: str) -> list[str]:
    """Family names of a `rocke families` table (rows between the header and the `N families` line)."""
    rows = families_output.strip().splitlines()
    if len(rows) < 2 or not rows[0].startswith("family") or not re.fullmatch(r"\d+ families", rows[-1]):
        raise ReadmeError(f"unexpected `rocke families` output:\n{families_output}")
    names = [row.split()[0] for row in rows[1:-1]]
    if int(rows[-1].split()[0]) != len(names):
        raise ReadmeError(f"`rocke families` counts {rows[-1]} but lists {len(names)}")
    return names


def clean_env(venv_bin: Path | None = None) -> dict[str, str]:
    """The environment of a new shell: no virtualenv of the caller on PATH, none activated, no
    build-directory overrides (so `pip install ./platform` builds as on a user's machine)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME") and not k.startswith("ROCKE_CMAKE_")}
    keep = [p for p in env.get("PATH", "").split(os.pathsep) if p]
    if sys.prefix != sys.base_prefix:  # running in a venv (the lane's): its bin is not the user's
        caller = Path(sys.prefix).resolve()
        keep = [p for p in keep if not Path(p).resolve().is_relative_to(caller)]
    if venv_bin is not None:
        keep = [p for p in keep if Path(p).resolve() != venv_bin.resolve()]
    env["PATH"] = os.pathsep.join(keep)
    return env


def _bash(script: str, cwd: Path, env: dict[str, str], what: str, *, capture: bool = True) -> str:
    """Run `script` with bash -e; its stdout (captured), or streamed through when not `capture`."""
    print(f"readme: {what}", flush=True)
    start = time.perf_counter()
    proc = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=capture, text=True)
    seconds = time.perf_counter() - start
    print(f"readme: exit {proc.returncode} in {seconds:.1f}s", flush=True)
    if proc.returncode != 0:
        output = f"\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}" if capture else ""
        raise ReadmeError(f"{what} failed (exit {proc.returncode}){output}")
    return proc.stdout or ""


def run(checkout: Path) -> None:
    text = (checkout / "README.md").read_text()
    install, commands, host = install_commands(text), rocke_commands(text), host_commands(text)
    env = clean_env()
    _bash("\n".join(install), checkout, env, "install: " + " && ".join(install), capture=False)
    venv_bin = checkout / ".venv" / "bin"
    if not (venv_bin / "rocke").is_file():
        raise ReadmeError(f"the install commands left no {venv_bin / 'rocke'}")
    activate = ". .venv/bin/activate\n"

    listed = listed_families(_bash(activate + "rocke families", checkout, env, "rocke families"))
    expected = golden_families(checkout)
    if not expected or listed != expected:
        raise ReadmeError(f"`rocke families` lists {listed}; the checkout ships goldens of {expected}")
    print(f"readme: rocke families lists all {len(listed)} families: {', '.join(listed)}")

    scratch = checkout / "scratch"
    scratch.mkdir(exist_ok=True)
    for command in [*commands, *host]:
        out = _bash(f". {checkout / '.venv/bin/activate'}\n{command}", checkout, env, command)
        lines = out.splitlines()
        for line in lines[:3] + (["  ..."] if len(lines) > 6 else []) + lines[max(3, len(lines) - 3):]:
            print(f"  | {line[:150]}")

    bare = clean_env(venv_bin)  # the venv is not activated and not on PATH
    out = _bash(f"{venv_bin / 'rocke'} check parity --shard 0/16 --quiet", scratch, bare,
                ".venv/bin/rocke check parity --shard 0/16 (venv not activated)")
    named = sorted(set(re.findall(r"native emitter: (\S+)", out)))
    if not named or any(Path(p).parent != venv_bin for p in named):
        raise ReadmeError(f"parity did not run the emitters installed in {venv_bin}: {named}\n{out}")
    print(f"readme: unactivated venv ran {', '.join(named)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    runp = sub.add_parser("run", help="run the README's commands in a checkout copy")
    runp.add_argument("--checkout", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        run(args.checkout.resolve())
    except ReadmeError as exc:
        print(f"readme: FAILED: {exc}", file=sys.stderr)
        return 1
    print("readme: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
