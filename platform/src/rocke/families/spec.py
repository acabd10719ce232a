"""Family specs: frozen dataclasses with one canonical text form.

The canonical form is ``key=value`` pairs separated by single spaces, keys sorted.
It is how specs are stored in config files, how they cross into C++ (bindings and
native emitters), and what the spec digest and kernel-name salt are computed from.
Field types are ``int``, ``str`` (letters, digits, ``_ . -``) and ``bool``
(``0``/``1``). Every error is a :class:`SpecError` whose text the C++ twin
(``rocke/families/spec.hpp``) reproduces byte for byte.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from typing import Any, ClassVar, Self

from rocke.arch import MMA_OP_IDS, ArchTarget, MmaOp, mma_op
from rocke.helpers.dtypes import FLOAT_DTYPES, elem_bytes

# The spellings of int and str field values (the config loader checks lines with the same rules).
INT_VALUE = re.compile(r"-?(0|[1-9][0-9]{0,17})")
STR_VALUE = re.compile(r"[A-Za-z0-9_.\-]+")


class SpecError(ValueError):
    """An invalid spec; the message names the family, the field, the value and the rule."""


@dataclasses.dataclass(frozen=True)
class Spec:
    """Base class of every family spec. Subclasses set ``FAMILY`` and override ``check``."""

    FAMILY: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise SpecError when a field breaks a rule (use :meth:`fail`)."""

    def fail(self, field: str, rule: str) -> None:
        value = _format_value(getattr(self, field))
        raise SpecError(f"{self.FAMILY}: {field}={value}: {rule}")

    @classmethod
    def field_types(cls) -> dict[str, type]:
        hints = {"int": int, "str": str, "bool": bool}
        return {f.name: hints[f.type if isinstance(f.type, str) else f.type.__name__]
                for f in dataclasses.fields(cls)}

    def to_kv(self) -> str:
        return " ".join(f"{name}={_format_value(getattr(self, name))}" for name in sorted(self.field_types()))

    @classmethod
    def from_kv(cls, text: str) -> Self:
        if not isinstance(text, str):
            raise TypeError(f"{cls.FAMILY}: from_kv: expected str, got {type(text).__name__}")
        types = cls.field_types()
        values: dict[str, Any] = {}
        for pair in text.split(" ") if text else []:
            key, sep, raw = pair.partition("=")
            if not sep or not key:
                raise SpecError(f"{cls.FAMILY}: malformed pair '{pair}' (expected key=value)")
            if key not in types:
                raise SpecError(f"{cls.FAMILY}: unknown key '{key}'; known keys: {', '.join(sorted(types))}")
            if key in values:
                raise SpecError(f"{cls.FAMILY}: key '{key}' given twice")
            values[key] = _parse_value(cls.FAMILY, key, raw, types[key])
        for key in sorted(types):
            if key not in values:
                raise SpecError(f"{cls.FAMILY}: missing key '{key}'")
        return cls(**values)

    def digest(self) -> str:
        """sha256 of ``family:kv``: the spec's identity in goldens and reports."""
        return hashlib.sha256(f"{self.FAMILY}:{self.to_kv()}".encode()).hexdigest()

    def kernel_name(self) -> str:
        """``<family>_<first 10 hex of the digest>``: distinct specs get distinct symbols."""
        return f"{self.FAMILY}_{self.digest()[:10]}"


# Rules shared by family specs; a spec's check() (check_wave_multiple: a builder's check_arch) calls
# them in its own rule order. C++ twins: the
# templates of the same names in rocke/families/spec.hpp.
VEC_WIDTHS = (1, 2, 4, 8)
MAX_ACCESS_BYTES = 16  # the widest buffer access (dwordx4)
THREAD_STEP = 32  # the smaller wave size; build() also requires a multiple of the arch's wave size
MAX_THREADS = 1024


def check_dtype(spec: Any) -> None:
    """spec.dtype is a float storage type."""
    if spec.dtype not in FLOAT_DTYPES:
        spec.fail("dtype", f"must be one of {', '.join(FLOAT_DTYPES)}")


def check_vec(spec: Any) -> None:
    """spec.vec is a vector width whose access of spec.dtype fits the widest buffer access."""
    if spec.vec not in VEC_WIDTHS:
        spec.fail("vec", "must be 1, 2, 4 or 8")
    most = MAX_ACCESS_BYTES // elem_bytes(spec.dtype)
    if spec.vec > most:
        spec.fail("vec", f"one {spec.dtype} access holds at most {most} elements ({MAX_ACCESS_BYTES} bytes)")


def check_threads(spec: Spec, field: str, threads: int, what: str = "") -> None:
    """threads (a workgroup size) is a multiple of THREAD_STEP in THREAD_STEP..MAX_THREADS; a failure
    names field, and `what` (e.g. how threads is computed) prefixes the rule."""
    if threads < THREAD_STEP or threads > MAX_THREADS or threads % THREAD_STEP != 0:
        spec.fail(field, f"{what}must be a multiple of {THREAD_STEP} in {THREAD_STEP}..{MAX_THREADS}")


def check_wave_multiple(spec: Spec, field: str, threads: int, target: ArchTarget, what: str = "") -> None:
    """threads is a multiple of the target's wave size (the arch-dependent half of check_threads,
    run by a builder's check_arch); a failure names field, and `what` prefixes the rule."""
    if threads % target.wave_size != 0:
        spec.fail(field, f"{what}must be a multiple of the wave size {target.wave_size} of {target.name}")


def check_mma_atom(spec: Spec, field: str, dtype: str) -> MmaOp:
    """spec.op_id names a catalog op that multiplies `dtype` inputs (the value of spec field `field`)
    and accumulates in f32; returns that op."""
    if spec.op_id not in MMA_OP_IDS:
        spec.fail("op_id", "is not an op of the MMA catalog")
    op = mma_op(spec.op_id)
    if op.a_dtype != dtype or op.b_dtype != dtype:
        spec.fail("op_id", f"multiplies {op.a_dtype} inputs, not {field}={dtype}")
    if op.acc_dtype != "f32":
        spec.fail("op_id", "must accumulate in f32")
    return op


# The tile fields of a spec on the tile-GEMM main loop (rocke.helpers.tile_gemm).
MAX_WAVES_PER_DIM = 32
MAX_TILE_MN = 512
MAX_TILE_K = 256
MAX_LDS_PAD = 64


def check_tile_gemm(spec: Any, op: MmaOp) -> None:
    """spec's wm wn bm bn bk lds_pad (the tile-GEMM main loop's tile) fit their ranges and op's atom,
    in that order."""
    for field in ("wm", "wn"):
        if not 1 <= getattr(spec, field) <= MAX_WAVES_PER_DIM:
            spec.fail(field, f"must be in 1..{MAX_WAVES_PER_DIM}")
    for field, most in (("bm", MAX_TILE_MN), ("bn", MAX_TILE_MN), ("bk", MAX_TILE_K)):
        if not 1 <= getattr(spec, field) <= most:
            spec.fail(field, f"must be in 1..{most}")
    if spec.bm % (spec.wm * op.m) != 0:
        spec.fail("bm", f"must be a multiple of wm * atom m = {spec.wm} * {op.m} ({op.id})")
    if spec.bn % (spec.wn * op.n) != 0:
        spec.fail("bn", f"must be a multiple of wn * atom n = {spec.wn} * {op.n} ({op.id})")
    if spec.bk % op.k != 0:
        spec.fail("bk", f"must be a multiple of atom k = {op.k} ({op.id})")
    if not 0 <= spec.lds_pad <= MAX_LDS_PAD:
        spec.fail("lds_pad", f"must be in 0..{MAX_LDS_PAD}")


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _parse_value(family: str, key: str, raw: str, kind: type) -> Any:
    if kind is bool:
        if raw not in ("0", "1"):
            raise SpecError(f"{family}: {key}={raw}: must be 0 or 1")
        return raw == "1"
    if kind is int:
        if not INT_VALUE.fullmatch(raw):
            raise SpecError(f"{family}: {key}={raw}: must be a decimal integer")
        return int(raw)
    if not STR_VALUE.fullmatch(raw):
        raise SpecError(f"{family}: {key}={raw}: must be letters, digits, '_', '.' or '-'")
    return raw
