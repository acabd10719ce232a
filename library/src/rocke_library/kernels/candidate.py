"""What a family's dispatch hook returns: its candidates for one problem, in the family's order.

A family that serves a problem kind has a `candidates.py` in its folder with
`candidates(problem, target) -> list[Candidate]`; `rocke_library.dispatch.dispatch` lists the
hooks per problem kind and does the rest (spec rules, resource-refusal table, launch contract).
A hook sees the problem through its fields only (kernels never import dispatch).
C++ twin: rocke_library/kernels/candidate.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """One candidate: the family, its spec's kv text and the problem sizes of the family's launch
    contract; or, when the hook already rejects it, no spec and the reason codes (with a detail).
    `then`: the launches of the same family that follow it in the plan (e.g. a split-K reduction's
    convert kernel), each checked like the first; the candidate is taken only when all pass.
    A kind served by launches of several families (the attention backward) has candidates that
    are launch sets: `parts` lists (family, spec kv) of every launch in order, `spec` is empty and
    `sizes` is the problem its plan assembler takes."""

    family: str
    spec: str = ""
    sizes: tuple[tuple[str, int], ...] = ()  # the contract's problem, sorted by name
    reasons: tuple[str, ...] = ()
    detail: str = ""
    then: tuple[Candidate, ...] = ()
    parts: tuple[tuple[str, str], ...] = ()  # a launch set: (family, spec kv) per launch, in launch order


def vector_width(esize: int, run: int, align: int) -> int:
    """The widest access (1, 2, 4 or 8 elements of esize bytes, at most 16 bytes) that divides a
    contiguous run of `run` elements and whose bytes divide the buffers' alignment `align`."""
    for width in (8, 4, 2, 1):
        if width * esize <= 16 and run % width == 0 and align % (width * esize) == 0:
            return width
    return 1


def spec_kv(fields: dict[str, object]) -> str:
    """Canonical spec text of the given fields (keys sorted; bools as 0/1)."""
    def text(value: object) -> str:
        return ("1" if value else "0") if isinstance(value, bool) else str(value)

    return " ".join(f"{key}={text(fields[key])}" for key in sorted(fields))
