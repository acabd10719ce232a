"""Shared machinery of the config gates: selection, sharding, parallel map (progress and the timing table:
rocke.gates.progress)."""

from __future__ import annotations

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


def parallel_map(fn: Callable[..., T], items: Iterable[Any], jobs: int, *,
                 on_result: Callable[[T], None] | None = None) -> list[T]:
    """[fn(*item) for item in items] in item order, over `jobs` worker processes; `on_result` is
    called with each result as it arrives (in item order), e.g. to advance a progress bar."""
    items = list(items)
    results: list[T] = []
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            results.append(fn(*item))
            if on_result is not None:
                on_result(results[-1])
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(fn, *zip(*items, strict=True), chunksize=max(1, len(items) // (jobs * 8))):
            results.append(result)
            if on_result is not None:
                on_result(result)
    return results
