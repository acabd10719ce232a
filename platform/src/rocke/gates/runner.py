"""Shared machinery of the config gates: selection, sharding, parallel map, progress, timing table."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from rocke.families import Family, discover_families
from rocke.families.configs import ConfigLine, family_configs

T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    index: int
    count: int

    @staticmethod
    def parse(text: str) -> Shard:
        left, sep, right = text.partition("/")
        if not sep or not left.isdigit() or not right.isdigit() or not 0 <= int(left) < int(right):
            raise ValueError(f"--shard {text!r}: expected i/n with 0 <= i < n, e.g. 0/2")
        return Shard(int(left), int(right))

    def take(self, ordinal: int) -> bool:
        return ordinal % self.count == self.index


class IncompleteFamilyError(ValueError):
    """A registered family lacks what every gate needs (its spec or its Python builder)."""


def select_families(only: list[str] | None) -> list[Family]:
    """The registered families a gate checks (all, or those named in `only`), in name order.

    A selected family registered without a spec or a builder is an error, never skipped: a gate
    that silently dropped it would report ok for a family it never looked at.
    """
    families = discover_families()
    if only:
        known = {f.name for f in families}
        unknown = [name for name in only if name not in known]
        if unknown:
            raise KeyError(f"unknown family '{unknown[0]}'; known: {', '.join(sorted(known)) or 'none'}")
        families = [f for f in families if f.name in only]
    for family in families:
        missing = [what for what, value in (("spec", family.spec), ("build", family.build)) if value is None]
        if missing:
            raise IncompleteFamilyError(f"family '{family.name}' (owner {family.owner}) is registered without "
                                        f"{' and '.join(missing)}: no gate can check it")
    return families


def sharded_configs(families: list[Family], shard: Shard | None) -> list[tuple[Family, ConfigLine]]:
    """(family, config) pairs in deterministic order; a shard takes every n-th pair."""
    pairs = [(family, config) for family in families for config in family_configs(family)]
    return [pair for ordinal, pair in enumerate(pairs) if shard is None or shard.take(ordinal)]


def parallel_map(fn: Callable[..., T], items: Iterable[Any], jobs: int) -> list[T]:
    items = list(items)
    if jobs <= 1 or len(items) <= 1:
        return [fn(*item) for item in items]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, *zip(*items, strict=True), chunksize=max(1, len(items) // (jobs * 8))))


class Progress:
    """Progress lines on stderr for long runs, and per-family wall time."""

    def __init__(self, gate: str, total: int, *, quiet: bool = False):
        self.gate, self.total, self.quiet = gate, total, quiet
        self.start = time.perf_counter()
        self.family_seconds: dict[str, float] = {}

    def family_done(self, name: str, seconds: float, done: int) -> None:
        self.family_seconds[name] = self.family_seconds.get(name, 0.0) + seconds
        if not self.quiet:
            print(f"[{self.gate}] {done}/{self.total} configs, {name} done in {seconds:.1f}s", file=sys.stderr)

    def timing_table(self) -> str:
        total = time.perf_counter() - self.start
        rows = [f"{'family':<24} {'seconds':>8} {'share':>6}"]
        for name in sorted(self.family_seconds):
            seconds = self.family_seconds[name]
            share = seconds / total if total else 0.0
            rows.append(f"{name:<24} {seconds:8.1f} {share:6.0%}")
        rows.append(f"{'total (wall)':<24} {total:8.1f}")
        return "\n".join(rows)
