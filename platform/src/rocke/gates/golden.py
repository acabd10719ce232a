"""Golden store: one JSON file per family in its owner package (docs/architecture.md §6).

It holds the config file's digest, the config count and, per config, the sha256 of
the canonical IR and of each flavor's .ll (a refusal hashes its message). The check
is strict: a new, missing or changed config fails; an unblessed config fails; a
config file whose digest changed fails until re-blessed; hashing is over exact
LF-only bytes. Blessing is an explicit command and writes atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from rocke.families import Family
from rocke.families.configs import ConfigLine, config_bytes, config_digest, family_configs
from rocke.gates.emitters import FLAVORS, Emission, emit_python
from rocke.gates.progress import Progress
from rocke.gates.runner import Shard, parallel_map, select_families, sharded_configs

FORMAT = "rocke.golden/1"


def sha256_text(text: str) -> str:
    if "\r" in text:
        raise ValueError("CR in hashed text: golden hashes are over LF-only bytes")
    return hashlib.sha256(text.encode()).hexdigest()


GOLDEN_SUFFIX = ".golden.json"


def golden_name(family: Family) -> str:
    """The golden's file name, beside the config file in the family's folder: <name>.golden.json."""
    return f"{family.name}{GOLDEN_SUFFIX}"


def golden_path(family: Family) -> Path:
    return Path(str(resources.files(family.package).joinpath(golden_name(family))))


def source_golden_path(family: Family, root: Path) -> Path:
    """The golden file in a source checkout: <root>/<package dir>/src/<package path>/<name>.golden.json."""
    package_path = family.package.replace(".", "/")
    matches = sorted(p for p in root.glob(f"*/src/{package_path}") if p.is_dir())
    if len(matches) != 1:
        raise FileNotFoundError(f"cannot find the source of package {family.package} under {root} "
                                f"(found {len(matches)}); run bless from the repository root or pass --root")
    return matches[0] / golden_name(family)


def entry(out: Emission) -> dict[str, str]:
    if out.refusal is not None:
        return {"refusal": sha256_text(out.refusal)}
    if out.crash is not None or out.ir is None:
        raise RuntimeError(out.crash or "no output")
    return {"ir": sha256_text(out.ir), **{flavor: sha256_text(out.ll[flavor]) for flavor in sorted(out.ll)}}


def _emit_entry(family: Family, config, flavors: tuple[str, ...]) -> tuple[str, dict[str, str] | str, int]:
    """(key, golden entry or a crash text, the kernel's IR lines for the timing table)."""
    out = emit_python(family, config, flavors)
    if out.crash is not None:
        return config.key, f"crash: {out.crash}", 0
    return config.key, entry(out), out.ir_lines


def compute(family: Family, *, jobs: int = 1, flavors: tuple[str, ...] = FLAVORS,
            only: list[ConfigLine] | None = None,
            on_config: Callable[[int], None] | None = None) -> tuple[dict, list[str]]:
    """The family's golden data; with `only`, the entries of just those configs (a shard's);
    `on_config` is called as each config is hashed, with its kernel's IR lines (0 unless built)."""
    configs = family_configs(family)
    chosen = configs if only is None else only
    results = parallel_map(_emit_entry, [(family, c, flavors) for c in chosen], jobs,
                           on_result=None if on_config is None else lambda result: on_config(result[2]))
    problems = [f"[{key}] {value}" for key, value, _ in results if isinstance(value, str)]
    data = {
        "config_digest": config_digest(config_bytes(family)),
        "configs": {key: value for key, value, _ in results if not isinstance(value, str)},
        "count": len(configs),
        "family": family.name,
        "format": FORMAT,
    }
    return data, problems


def render(data: dict) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def compare(family: Family, stored_bytes: bytes | None, fresh: dict, keys: set[str] | None = None) -> list[str]:
    """Problems of the stored golden against `fresh`; `keys`: every config key of the config file
    when `fresh` holds only some of them (a shard), so only the rest count as extra."""
    if stored_bytes is None:
        return [f"{family.name}: no golden file; bless it with `rocke bless --only {family.name}`"]
    if b"\r" in stored_bytes:
        return [f"{family.name}: golden file contains CR bytes (LF only)"]
    try:
        stored = json.loads(stored_bytes)
    except ValueError as exc:
        return [f"{family.name}: golden file is not JSON: {exc}"]
    problems = []
    if stored.get("format") != FORMAT or stored.get("family") != family.name:
        problems.append(f"{family.name}: golden file has format {stored.get('format')!r} "
                        f"for family {stored.get('family')!r}")
    if stored.get("config_digest") != fresh["config_digest"]:
        problems.append(f"{family.name}: config file changed since the last bless (digest differs); re-bless")
    if stored.get("count") != fresh["count"]:
        problems.append(f"{family.name}: golden count {stored.get('count')} != {fresh['count']} configs")
    old, new = stored.get("configs", {}), fresh["configs"]
    problems += [f"{family.name}: unblessed config [{k}]" for k in sorted(set(new) - set(old))]
    known = set(new) if keys is None else keys
    problems += [f"{family.name}: golden has a config the file lacks [{k}]" for k in sorted(set(old) - known)]
    for key in sorted(set(old) & set(new)):
        if old[key] != new[key]:
            fields = sorted(f for f in set(old[key]) | set(new[key]) if old[key].get(f) != new[key].get(f))
            problems.append(f"{family.name}: changed output [{key}]: {', '.join(fields)}")
    return problems


def _package_dir(top: str, root: Path | None) -> Path | None:
    """The folder of top-level package `top`: installed, or under a source checkout root."""
    if root is None:
        return Path(str(resources.files(top)))
    matches = sorted(p for p in root.glob(f"*/src/{top}") if p.is_dir())
    return matches[0] if len(matches) == 1 else None


def orphan_goldens(families: list[Family], root: Path | None = None) -> list[str]:
    """Golden files (<name>.golden.json, or any JSON under a goldens/ folder) in the registered
    families' packages that no registered family owns: each one is a problem, never skipped."""
    owned = {(source_golden_path(f, root) if root else golden_path(f)).resolve() for f in families}
    problems = []
    for top in sorted({f.package.split(".")[0] for f in families}):
        base = _package_dir(top, root)
        if base is None:
            continue  # source_golden_path already failed for every family of this package
        found = set(base.rglob(f"*{GOLDEN_SUFFIX}")) | set(base.rglob("goldens/*.json"))
        for path in sorted(found):
            if path.resolve() not in owned:
                problems.append(f"orphan golden file {top}/{path.relative_to(base).as_posix()}: no registered "
                                "family owns it; register its family or delete the file")
    return problems


def check_golden(only: list[str] | None = None, *, jobs: int = 1, root: Path | None = None,
                 shard: Shard | None = None, quiet: bool = False) -> tuple[list[str], Progress]:
    """Problems of every selected family's golden against fresh output (empty: ok), then the golden
    files no registered family owns (over every registered family, whatever `only` selects). With
    `shard`, only that shard's configs are emitted and compared; the whole-file checks (format,
    digest, count, configs the file lacks, orphan files) run in every shard. No family at all is
    a problem, not an ok."""
    families = select_families(only)
    pairs = sharded_configs(families, shard)
    problems: list[str] = [] if families else ["no families registered: nothing was checked"]
    with Progress("golden", len(pairs), quiet=quiet, jobs=jobs) as progress:
        for family in families:
            mine = [config for fam, config in pairs if fam.name == family.name]
            progress.start_family(family.name, len(mine))
            fresh, emit_problems = compute(family, jobs=jobs, only=mine,
                                            on_config=lambda lines: progress.advance(ir_lines=lines))
            problems += [f"{family.name}: {p}" for p in emit_problems]
            path = source_golden_path(family, root) if root else golden_path(family)
            keys = {config.key for config in family_configs(family)}
            problems += compare(family, path.read_bytes() if path.is_file() else None, fresh, keys)
            progress.family_done()
    problems += orphan_goldens(select_families(None), root)
    return problems, progress


def bless(only: list[str] | None = None, *, root: Path, jobs: int = 1) -> list[str]:
    """Recompute and atomically rewrite the source goldens; returns what changed (one line per family)."""
    report = []
    for family in select_families(only):
        fresh, problems = compute(family, jobs=jobs)
        if problems:
            raise RuntimeError(f"cannot bless {family.name}: " + "; ".join(problems))
        path = source_golden_path(family, root)
        old = path.read_bytes() if path.is_file() else None
        text = render(fresh)
        changes = compare(family, old, fresh)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
        report.append(f"{family.name}: {fresh['count']} configs blessed"
                      + (f" ({len(changes)} changes)" if changes else " (unchanged)"))
    return report
