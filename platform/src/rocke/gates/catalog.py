"""Code-object catalog (platform/docs/gates.md): every shipped config of every family for one arch, compiled to
HSACO, with a `catalog.json` index (`rocke.catalog/1`) a C++ host or dispatcher serves from.

    DIR/catalog.json                 the index (sorted keys, LF; no timestamps: deterministic)
    DIR/<family>/<kernel>.hsaco      one code object per shipped config of the arch

Each entry holds the family, the spec's kv text and digest, the kernel symbol, the HSACO file and
its sha256, the resources the real LLVM reports and the launch template
(rocke.families.launch.launch_template). Refused configs (`refuse` lines) are not shipped and have
no entry. Building twice gives identical bytes; `verify` re-hashes every file and reports a
tampered, missing or unlisted one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rocke import __version__
from rocke.families import Family, build_family
from rocke.families.configs import ConfigLine, family_configs
from rocke.families.launch import launch_template
from rocke.gates.artifacts import hsaco_skip_reason, write_atomically
from rocke.gates.progress import Progress
from rocke.gates.runner import parallel_map, select_families
from rocke.isa import CompileJob, compile_many, link_hsaco, resources, running_flavor
from rocke.lower import lower

FORMAT = "rocke.catalog/1"
INDEX = "catalog.json"
# A family's configs compile in chunks (one compiler child each) of about CHUNK_CONFIGS configs, at
# most MAX_CHUNKS_PER_JOB chunks per job: the progress moves a chunk at a time.
CHUNK_CONFIGS = 16
MAX_CHUNKS_PER_JOB = 4


class CatalogError(RuntimeError):
    """The catalog cannot be built (no ld.lld, no validated LLVM, a config LLVM rejects)."""


@dataclass(frozen=True)
class _Built:
    config: ConfigLine
    spec_digest: str
    kernel: str
    ll: str
    template: dict[str, Any]


def _build(family: Family, config: ConfigLine, flavor: str) -> _Built:
    spec = family.spec.from_kv(config.kv)
    kernel = build_family(family, spec, config.arch)
    return _Built(config, spec.digest(), kernel.name, lower(kernel, arch=config.arch, flavor=flavor),
                  launch_template(kernel, family=family.name, spec=config.kv, arch=config.arch))


def _compile_chunk(lls: list[str], arch: str, flavor: str) -> list[tuple[str, bytes] | str]:
    """(asm, hsaco) per .ll, or the error text; one compiler child per chunk."""
    jobs = [CompileJob(ll, arch, output) for ll in lls for output in ("asm", "obj")]
    results = list(compile_many(jobs, flavor))
    out: list[tuple[str, bytes] | str] = []
    for asm, obj in zip(results[0::2], results[1::2], strict=True):
        if asm.error is not None or obj.error is not None:
            out.append(str(asm.error or obj.error))
            continue
        try:
            out.append((asm.value, link_hsaco(obj.value)))
        except Exception as exc:  # reported per config, never half a catalog
            out.append(f"{type(exc).__name__}: {exc}")
    return out


def shipped_configs(family: Family, arch: str) -> list[ConfigLine]:
    return [c for c in family_configs(family) if c.arch == arch and not c.refuse]


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def render(index: dict[str, Any]) -> str:
    return json.dumps(index, indent=1, sort_keys=True) + "\n"


def _family_entries(family: Family, configs: list[ConfigLine], arch: str, flavor: str, out: Path, jobs: int,
                    progress: Progress, problems: list[str]) -> list[dict[str, Any]]:
    """The index entries of one family's shipped configs, their HSACO written under out/<family>;
    a config that fails is appended to problems."""
    built = [_build(family, config, flavor) for config in configs]
    workers = max(1, jobs)
    count = max(1, min(workers * MAX_CHUNKS_PER_JOB, -(-len(built) // CHUNK_CONFIGS)))
    chunks = [[b.ll for b in built[i::count]] for i in range(count)]
    chunk_results = parallel_map(_compile_chunk, [(chunk, arch, flavor) for chunk in chunks if chunk], jobs,
                                 on_result=lambda result: progress.advance(len(result)))
    results: list[tuple[str, bytes] | str] = [None] * len(built)  # type: ignore[list-item]
    for i, chunk_result in enumerate(chunk_results):
        results[i::count] = chunk_result
    folder = out / family.name
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for item, result in zip(built, results, strict=True):
        if isinstance(result, str):
            problems.append(f"{family.name} [{item.config.key}]: {result}")
            continue
        asm, hsaco = result
        path = folder / f"{item.kernel}.hsaco"
        write_atomically(path, hsaco)
        entries.append({
            "family": family.name,
            "hsaco": path.relative_to(out).as_posix(),
            "hsaco_sha256": hashlib.sha256(hsaco).hexdigest(),
            "kernel": item.kernel,
            "launch": item.template,
            "resources": resources(asm, arch, kernel=item.kernel).to_dict(),
            "spec": item.config.kv,
            "spec_digest": item.spec_digest,
        })
    return entries


def build_catalog(only: list[str] | None, *, arch: str, out: Path, jobs: int = 1,
                  quiet: bool = False) -> tuple[dict[str, Any], Progress]:
    """Compile every shipped config of the selected families for arch into out; returns the index."""
    flavor = running_flavor()
    if flavor is None:
        raise CatalogError("the running llvmlite bundles no LLVM flavor rocke knows")
    reason = hsaco_skip_reason(flavor)
    if reason is not None:
        raise CatalogError(f"cannot link code objects: {reason}")
    families = select_families(only)
    if not families:
        raise CatalogError("no families selected")
    work = {family.name: shipped_configs(family, arch) for family in families}
    entries: list[dict[str, Any]] = []
    problems: list[str] = []
    with Progress("catalog", sum(len(configs) for configs in work.values()), quiet=quiet, jobs=jobs) as progress:
        for family in families:
            progress.start_family(family.name, len(work[family.name]))
            entries += _family_entries(family, work[family.name], arch, flavor, out, jobs, progress, problems)
            progress.family_done()
    if problems:
        raise CatalogError("; ".join(problems))
    listed = {entry["hsaco"] for entry in entries}
    for stale in sorted(out.glob("*/*.hsaco")):
        if stale.relative_to(out).as_posix() not in listed and stale.parent.name in work:
            stale.unlink()
    index = {"arch": arch, "entries": entries, "families": sorted(work), "flavor": flavor, "format": FORMAT,
             "rocke_version": __version__}
    write_atomically(out / INDEX, render(index).encode())
    return index, progress


def verify_catalog(out: Path) -> tuple[list[str], int]:
    """Problems with a catalog directory (tampered, missing or unlisted files) and its entry count."""
    path = out / INDEX
    if not path.is_file():
        return [f"{path}: no {INDEX}"], 0
    try:
        index = json.loads(path.read_bytes())
    except ValueError as exc:
        return [f"{path}: not JSON: {exc}"], 0
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        return [f"{path}: not a {FORMAT} index"], 0
    problems: list[str] = []
    entries = index.get("entries")
    if not isinstance(entries, list):
        return [f"{path}: entries is not a list"], 0
    listed = set()
    for entry in entries:
        rel = entry.get("hsaco") if isinstance(entry, dict) else None
        if not isinstance(rel, str) or Path(rel).is_absolute() or ".." in Path(rel).parts:
            problems.append(f"{path}: bad entry {entry!r}")
            continue
        listed.add(rel)
        file = out / rel
        if not file.is_file():
            problems.append(f"missing {rel} ({entry.get('family')} {entry.get('spec')})")
        elif sha256_file(file) != entry.get("hsaco_sha256"):
            problems.append(f"tampered {rel}: sha256 {sha256_file(file)} != {entry.get('hsaco_sha256')} in {INDEX}")
    for file in sorted(out.rglob("*.hsaco")):
        rel = file.relative_to(out).as_posix()
        if rel not in listed:
            problems.append(f"unlisted {rel} (not in {INDEX})")
    return problems, len(entries)
