"""Numeric comparison of simulated results with a reference, at stated tolerances.

An element passes when |actual - expected| <= atol + rtol * |expected| (computed in binary64),
or when both are the same infinity or both NaN. compare() never raises on a mismatch: it returns
a Comparison whose `ok` is False and whose message names the worst element, so tests can also
assert that a deliberately broken kernel fails (negative controls).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Comparison:
    ok: bool
    name: str
    count: int  # elements compared
    mismatches: int
    max_abs_error: float  # over finite pairs
    worst_index: tuple[int, ...] | None  # the mismatch with the largest error (or the first NaN)
    message: str
    max_rel_error: float = 0.0  # over finite pairs with a nonzero expected value


def compare(actual: Any, expected: Any, *, rtol: float, atol: float, name: str = "result") -> Comparison:
    """Compare two arrays elementwise; see the module docstring for the rule."""
    got = np.asarray(actual).astype(np.float64)
    want = np.asarray(expected).astype(np.float64)
    if got.shape != want.shape:
        return Comparison(False, name, 0, 0, float("inf"), None,
                          f"{name}: shape {got.shape} differs from the expected {want.shape}")
    tol = f"atol={atol:g} + rtol={rtol:g} * |expected|"
    with np.errstate(all="ignore"):
        err = np.abs(got - want)
        same_special = (np.isnan(got) & np.isnan(want)) | (np.isinf(got) & (got == want))
        bad = ~((err <= atol + rtol * np.abs(want)) | same_special)
    finite = np.isfinite(err)
    max_abs = float(err[finite].max()) if finite.any() else 0.0
    with np.errstate(all="ignore"):
        rel = err / np.abs(want)
    rel_ok = finite & (want != 0)
    max_rel = float(rel[rel_ok].max()) if rel_ok.any() else 0.0
    count = int(got.size)
    mismatches = int(bad.sum())
    if mismatches == 0:
        return Comparison(True, name, count, 0, max_abs, None,
                          f"{name}: all {count} elements within {tol} (max abs error {max_abs:.6g})", max_rel)
    score = np.where(bad, np.where(np.isfinite(err), err, np.inf), -1.0)
    flat = int(np.argmax(score))
    index = tuple(int(i) for i in np.unravel_index(flat, got.shape))
    message = (f"{name}: {mismatches} of {count} elements differ beyond {tol}; worst at {list(index)}: got "
               f"{got.reshape(-1)[flat]!s}, expected {want.reshape(-1)[flat]!s}")
    return Comparison(False, name, count, mismatches, max_abs, index, message, max_rel)


def assert_close(actual: Any, expected: Any, *, rtol: float, atol: float, name: str = "result") -> Comparison:
    """compare(), raising AssertionError with the message on a mismatch."""
    result = compare(actual, expected, rtol=rtol, atol=atol, name=name)
    if not result.ok:
        raise AssertionError(result.message)
    return result
