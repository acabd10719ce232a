"""The MMA catalog (data/mma.toml): ops, fragment layouts and the queries over them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rocke.arch.datafile import (
    check_keys,
    parse_toml,
    read_data_text,
    want_choice,
    want_int,
    want_list,
    want_str,
    want_unique,
)
from rocke.arch.errors import ArchDataError, UnknownMmaOpError
from rocke.arch.layout_expr import LayoutExpr, parse_layout_expr
from rocke.arch.target import ARCH_NAMES, MMA_KINDS, ArchTarget, get_arch, resolve_arch

MMA_FILE = "mma.toml"
MMA_FORMAT = "rocke.mma/1"

OPERANDS = ("a", "b", "c")
# Scalar element types of the rocke IR (docs/architecture.md §4); dtype filters must name one.
SCALAR_DTYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32")
# LLVM element type spellings the catalog may use for an intrinsic's vectors.
LLVM_ELEMS = ("half", "bfloat", "float", "i16", "i32", "<2 x half>")
IMM_TYPES = ("i1", "i32")

_OP_KEYS = ("id", "kind", "archs", "wave_size", "m", "n", "k", "intrinsic", "mnemonic", "imm_operands",
            "source", "layout_source", "a", "b", "c")
_OPERAND_KEYS = ("dtype", "length", "parts", "llvm_elem", "replication", "row", "col")


@dataclass(frozen=True)
class ImmOperand:
    """An immediate passed to the intrinsic after A, B and C (e.g. MFMA cbsz/abid/blgp)."""

    name: str
    type: str
    value: int

    @property
    def llvm_text(self) -> str:
        return f"{self.type} {self.value}"


@dataclass(frozen=True)
class MmaOperand:
    """One operand fragment: `length` slots per lane, laid out over a rows x cols tile."""

    name: str  # "a", "b" or "c" (C and D share one layout)
    dtype: str  # rocke IR element type
    length: int
    parts: int  # LLVM arguments the fragment is passed as: 1 = one vector, else `parts` llvm_elem values
    llvm_elem: str  # element type of the intrinsic's vector (i16 for gfx942 bf16), or each part's type
    replication: int  # (lane, slot) pairs per tile element
    row: str
    col: str
    rows: int
    cols: int
    row_expr: LayoutExpr = field(repr=False, compare=False)
    col_expr: LayoutExpr = field(repr=False, compare=False)

    @property
    def ir_type_text(self) -> str:
        """The rocke IR text form of the fragment type, e.g. 'vec<f16x4>'."""
        return f"vec<{self.dtype}x{self.length}>"

    @property
    def llvm_type(self) -> str:
        """The LLVM type of the whole fragment as the intrinsic sees it: the vector '<4 x i16>'
        (one part) or the struct '{ float, float, float, float }' (a result in parts)."""
        if self.parts == 1:
            return f"<{self.length} x {self.llvm_elem}>"
        return "{ " + ", ".join([self.llvm_elem] * self.parts) + " }"

    @property
    def llvm_arg_types(self) -> tuple[str, ...]:
        """The intrinsic's argument types for this operand: the vector, or one per part."""
        if self.parts == 1:
            return (self.llvm_type,)
        return (self.llvm_elem,) * self.parts

    def coords(self, lane: int, slot: int) -> tuple[int, int]:
        """(row, col) of the tile element held in `slot` of `lane`."""
        return self.row_expr(lane=lane, slot=slot), self.col_expr(lane=lane, slot=slot)


@dataclass(frozen=True)
class MmaOp:
    """One catalog entry: D[m x n] = A[m x k] * B[k x n] + C[m x n] over one wave."""

    id: str
    kind: str
    archs: tuple[str, ...]
    wave_size: int
    m: int
    n: int
    k: int
    intrinsic: str
    mnemonic: str
    imm_operands: tuple[ImmOperand, ...]
    source: str
    layout_source: str
    a: MmaOperand
    b: MmaOperand
    c: MmaOperand

    @property
    def a_dtype(self) -> str:
        return self.a.dtype

    @property
    def b_dtype(self) -> str:
        return self.b.dtype

    @property
    def acc_dtype(self) -> str:
        return self.c.dtype

    def operand(self, name: str) -> MmaOperand:
        if name == "a":
            return self.a
        if name == "b":
            return self.b
        if name == "c":
            return self.c
        raise ValueError(f"unknown mma operand '{name}'; expected one of: {', '.join(OPERANDS)}")

    def llvm_call_types(self) -> tuple[str, tuple[str, ...]]:
        """(return type, argument types) of the intrinsic, as LLVM IR text."""
        args = (*self.a.llvm_arg_types, *self.b.llvm_arg_types, *self.c.llvm_arg_types,
                *(i.type for i in self.imm_operands))
        return self.c.llvm_type, args

    def fragment_types(self) -> tuple[Any, Any, Any]:
        """rocke.ir Type objects of the A, B and C/D fragments."""
        from rocke.ir.types import scalar_type, vec  # lower layer, imported on use only

        # Made from the operands' element type and length, not by parsing ir_type_text: the
        # verifier asks for them at every MMA op.
        a, b, c = (vec(scalar_type(x.dtype), x.length) for x in (self.a, self.b, self.c))
        return a, b, c


def _parse_operand(entry: Any, name: str, rows: int, cols: int, wave_size: int, where: str) -> MmaOperand:
    where = f"{where}: operand '{name}'"
    table = check_keys(entry, _OPERAND_KEYS, where)
    dtype = want_choice(table["dtype"], SCALAR_DTYPES, f"{where}.dtype")
    length = want_int(table["length"], f"{where}.length")
    parts = want_int(table["parts"], f"{where}.parts")
    replication = want_int(table["replication"], f"{where}.replication")
    if length == 0 or replication == 0 or parts == 0:
        raise ArchDataError(f"{where}: length, parts and replication must be positive")
    if length % parts != 0:
        raise ArchDataError(f"{where}: parts must divide length")
    if wave_size * length != rows * cols * replication:
        raise ArchDataError(f"{where}: wave_size * length must equal the tile size times replication")
    row, col = want_str(table["row"], f"{where}.row"), want_str(table["col"], f"{where}.col")
    try:
        row_expr, col_expr = parse_layout_expr(row), parse_layout_expr(col)
    except ValueError as exc:
        raise ArchDataError(f"{where}: {exc}") from None
    return MmaOperand(name, dtype, length, parts, want_choice(table["llvm_elem"], LLVM_ELEMS, f"{where}.llvm_elem"),
                      replication, row, col, rows, cols, row_expr, col_expr)


def _parse_op(entry: Any, index: int) -> MmaOp:
    label = entry.get("id") if isinstance(entry, dict) and isinstance(entry.get("id"), str) else str(index)
    where = f"{MMA_FILE}: op '{label}'"
    table = check_keys(entry, _OP_KEYS, where)
    archs = want_list(table["archs"], f"{where}.archs")
    if not archs:
        raise ArchDataError(f"{where}.archs: empty")
    for arch in archs:
        if arch not in ARCH_NAMES:
            raise ArchDataError(f"{where}.archs: unknown arch '{want_str(arch, where + '.archs')}'")
    want_unique(archs, f"{where}.archs")
    wave_size = want_int(table["wave_size"], f"{where}.wave_size")
    for arch in archs:
        if get_arch(arch).wave_size != wave_size:
            raise ArchDataError(f"{where}: wave_size differs from arch '{arch}'")
    m, n, k = (want_int(table[d], f"{where}.{d}") for d in ("m", "n", "k"))
    imms = []
    for i, imm in enumerate(want_list(table["imm_operands"], f"{where}.imm_operands")):
        iwhere = f"{where}.imm_operands[{i}]"
        imm = check_keys(imm, ("name", "type", "value"), iwhere)
        imms.append(ImmOperand(want_str(imm["name"], f"{iwhere}.name"),
                               want_choice(imm["type"], IMM_TYPES, f"{iwhere}.type"),
                               want_int(imm["value"], f"{iwhere}.value")))
    return MmaOp(
        id=want_str(table["id"], f"{where}.id"),
        kind=want_choice(table["kind"], MMA_KINDS, f"{where}.kind"),
        archs=tuple(archs),
        wave_size=wave_size,
        m=m,
        n=n,
        k=k,
        intrinsic=want_str(table["intrinsic"], f"{where}.intrinsic"),
        mnemonic=want_str(table["mnemonic"], f"{where}.mnemonic"),
        imm_operands=tuple(imms),
        source=want_str(table["source"], f"{where}.source"),
        layout_source=want_str(table["layout_source"], f"{where}.layout_source"),
        a=_parse_operand(table["a"], "a", m, k, wave_size, where),
        b=_parse_operand(table["b"], "b", k, n, wave_size, where),
        c=_parse_operand(table["c"], "c", m, n, wave_size, where),
    )


def parse_mma_data(text: str) -> tuple[MmaOp, ...]:
    """Parse and check mma.toml text; raises ArchDataError with a fixed message."""
    doc = check_keys(parse_toml(text, MMA_FILE), ("format", "op"), MMA_FILE)
    if doc["format"] != MMA_FORMAT:
        raise ArchDataError(f"{MMA_FILE}: format must be '{MMA_FORMAT}'")
    ops = tuple(_parse_op(entry, i) for i, entry in enumerate(want_list(doc["op"], f"{MMA_FILE}: op")))
    want_unique([op.id for op in ops], f"{MMA_FILE}: op")
    for op in ops:
        for arch in op.archs:
            if get_arch(arch).mma_kind != op.kind:
                raise ArchDataError(
                    f"{MMA_FILE}: op '{op.id}': kind differs from the mma_kind of arch '{arch}'")
    return ops


MMA_OPS: tuple[MmaOp, ...] = parse_mma_data(read_data_text(MMA_FILE))
MMA_OP_IDS: tuple[str, ...] = tuple(op.id for op in MMA_OPS)
_BY_ID = {op.id: op for op in MMA_OPS}


def find_mma_op(op_id: str) -> MmaOp | None:
    """The op called `op_id`, or None."""
    return _BY_ID.get(op_id) if isinstance(op_id, str) else None


def is_catalog_row(op: MmaOp) -> bool:
    """Whether `op` is the catalog's own row of its id (never changed once read), not a copy or a
    made-up op: what a plan memo may key by identity."""
    return find_mma_op(op.id) is op


def mma_op(op_id: str) -> MmaOp:
    """The op called `op_id`; UnknownMmaOpError lists the known ids otherwise."""
    op = find_mma_op(op_id)
    if op is None:
        shown = f"'{op_id}'" if isinstance(op_id, str) else "of a non-string id"
        raise UnknownMmaOpError(f"unknown mma op {shown}; known: {', '.join(MMA_OP_IDS)}")
    return op


def _check_dtype(dtype: str | None, what: str) -> None:
    if dtype is not None and dtype not in SCALAR_DTYPES:
        shown = f"'{dtype}'" if isinstance(dtype, str) else "of a non-string value"
        raise ValueError(f"unknown {what} {shown}; known: {', '.join(SCALAR_DTYPES)}")


def mma_ops(
    arch: str | ArchTarget | None = None,
    a_dtype: str | None = None,
    b_dtype: str | None = None,
    acc_dtype: str | None = None,
    m: int | None = None,
    n: int | None = None,
) -> tuple[MmaOp, ...]:
    """Catalog ops matching every given filter (None matches anything), in catalog order."""
    arch_name = resolve_arch(arch).name if arch is not None else None
    _check_dtype(a_dtype, "a_dtype")
    _check_dtype(b_dtype, "b_dtype")
    _check_dtype(acc_dtype, "acc_dtype")
    return tuple(
        op
        for op in MMA_OPS
        if (arch_name is None or arch_name in op.archs)
        and (a_dtype is None or op.a_dtype == a_dtype)
        and (b_dtype is None or op.b_dtype == b_dtype)
        and (acc_dtype is None or op.acc_dtype == acc_dtype)
        and (m is None or op.m == m)
        and (n is None or op.n == n)
    )


def largest_k(
    arch: str | ArchTarget,
    a_dtype: str,
    b_dtype: str,
    acc_dtype: str,
    m: int | None = None,
    n: int | None = None,
) -> MmaOp | None:
    """Among the matching ops, the one with the largest k (the first in catalog order on a
    tie), or None when nothing matches. A larger k means fewer MMA issues per K loop."""
    best: MmaOp | None = None
    for op in mma_ops(arch, a_dtype, b_dtype, acc_dtype, m, n):
        if best is None or op.k > best.k:
            best = op
    return best


def operand_layout(op_id: str, operand: str) -> list[tuple[int, int, int, int]]:
    """Every (lane, slot, row, col) of one operand fragment, lanes outer and slots inner."""
    op = mma_op(op_id)
    frag = op.operand(operand)
    return [(lane, slot, *frag.coords(lane, slot))
            for lane in range(op.wave_size) for slot in range(frag.length)]
