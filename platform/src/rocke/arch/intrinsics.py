"""The intrinsic table (data/intrinsics.toml + the MMA catalog): every LLVM intrinsic rocke.lower
may declare, in the fixed order declarations are printed, and the sync.waitcnt encodings.

Table order: the [[intrinsic]] rows of intrinsics.toml in file order, then the MMA catalog's
intrinsics in catalog order (mma.toml is their only source). A row may be overloaded on a float
type ("{T}" in its types, "{M}" in its name); `instantiate` fills those in and applies a flavor's
declaration override.
"""

from __future__ import annotations

from dataclasses import dataclass
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
from rocke.arch.errors import ArchDataError
from rocke.arch.flavors import LLVM, flavor_data, get_flavor
from rocke.arch.mma import MMA_OPS, MmaOp
from rocke.arch.target import WAITCNT_MODELS

INTRINSICS_FILE = "intrinsics.toml"
INTRINSICS_FORMAT = "rocke.intrinsics/1"

OVERLOADS = ("", "float")
# Element types each overload class ranges over, in rocke.ir scalar order (also the probe order).
OVERLOAD_ELEMS: dict[str, tuple[str, ...]] = {"": (), "float": ("f16", "bf16", "f32")}
IMMARG = " immarg"
WAITCNT_FORMS = ("packed", "split")
WAITCNT_ATTRS = ("vmcnt", "lgkmcnt")


@dataclass(frozen=True)
class IntrinsicDef:
    """One row of the full intrinsic table (index = its position, which orders declarations)."""

    index: int
    name: str  # with "{M}" when overloaded
    ret: str  # with "{T}" when overloaded
    params: tuple[str, ...]
    overload: str
    mma_op_id: str  # "" for rows of intrinsics.toml


@dataclass(frozen=True)
class IntrinsicDecl:
    """A concrete declaration: overload filled in, flavor override applied."""

    index: int
    name: str
    ret: str
    params: tuple[str, ...]
    domain_key: str  # the name whose arch-domain entry covers this declaration

    @property
    def text(self) -> str:
        return f"declare {self.ret} @{self.name}({', '.join(self.params)})"

    @property
    def arg_types(self) -> tuple[str, ...]:
        """Parameter types as a call site writes them (without immarg)."""
        return tuple(p[: -len(IMMARG)] if p.endswith(IMMARG) else p for p in self.params)


@dataclass(frozen=True)
class WaitcntWait:
    attr: str
    counter: str
    intrinsic: str


@dataclass(frozen=True)
class WaitcntField:
    counter: str
    value_shift: int
    bits: int
    imm_shift: int


@dataclass(frozen=True)
class WaitcntEncoding:
    model: str
    form: str
    intrinsic: str
    waits: tuple[WaitcntWait, ...]
    fields: tuple[WaitcntField, ...]


def _check_placeholders(row: IntrinsicDef, where: str) -> None:
    texts = (row.ret, *row.params)
    if row.overload == "":
        if any("{" in t or "}" in t for t in (row.name, *texts)):
            raise ArchDataError(f"{where}: placeholders need an overload")
    elif "{M}" not in row.name or any("{" in t.replace("{T}", "") for t in texts):
        raise ArchDataError(f"{where}: an overloaded name needs {{M}}; types may use only {{T}}")


def _parse_intrinsic(entry: Any, index: int) -> IntrinsicDef:
    named = isinstance(entry, dict) and isinstance(entry.get("name"), str)
    where = f"{INTRINSICS_FILE}: intrinsic '{entry['name'] if named else index}'"
    row = check_keys(entry, ("name", "ret", "params", "overload"), where)
    params = tuple(want_str(p, f"{where}.params") for p in want_list(row["params"], f"{where}.params"))
    overload = row["overload"]
    if overload != "":
        want_choice(overload, OVERLOADS, f"{where}.overload")
    defn = IntrinsicDef(index, want_str(row["name"], f"{where}.name"), want_str(row["ret"], f"{where}.ret"),
                        params, overload, "")
    _check_placeholders(defn, where)
    return defn


def _mma_row(op: MmaOp, index: int) -> IntrinsicDef:
    params = (*op.a.llvm_arg_types, *op.b.llvm_arg_types, *op.c.llvm_arg_types,
              *(imm.type + IMMARG for imm in op.imm_operands))
    return IntrinsicDef(index, op.intrinsic, op.c.llvm_type, params, "", op.id)


def _parse_waitcnt(entry: Any, index: int) -> WaitcntEncoding:
    where = f"{INTRINSICS_FILE}: waitcnt[{index}]"
    row = check_keys(entry, ("model", "form", "intrinsic", "waits", "fields"), where)
    form = want_choice(row["form"], WAITCNT_FORMS, f"{where}.form")
    waits = []
    for i, item in enumerate(want_list(row["waits"], f"{where}.waits")):
        iwhere = f"{where}.waits[{i}]"
        item = check_keys(item, ("attr", "counter", "intrinsic"), iwhere)
        intrinsic = item["intrinsic"]
        if form == "split":
            want_str(intrinsic, f"{iwhere}.intrinsic")
        elif intrinsic != "":
            raise ArchDataError(f"{iwhere}: the packed form names its intrinsic once")
        waits.append(WaitcntWait(want_choice(item["attr"], WAITCNT_ATTRS, f"{iwhere}.attr"),
                                 want_str(item["counter"], f"{iwhere}.counter"), intrinsic))
    fields = []
    for i, item in enumerate(want_list(row["fields"], f"{where}.fields")):
        iwhere = f"{where}.fields[{i}]"
        item = check_keys(item, ("counter", "value_shift", "bits", "imm_shift"), iwhere)
        fields.append(WaitcntField(want_str(item["counter"], f"{iwhere}.counter"),
                                   want_int(item["value_shift"], f"{iwhere}.value_shift"),
                                   want_int(item["bits"], f"{iwhere}.bits"),
                                   want_int(item["imm_shift"], f"{iwhere}.imm_shift")))
    intrinsic = row["intrinsic"]
    if form == "packed":
        want_str(intrinsic, f"{where}.intrinsic")
        if not fields:
            raise ArchDataError(f"{where}: the packed form needs fields")
    elif intrinsic != "" or fields:
        raise ArchDataError(f"{where}: the split form has no intrinsic and no fields")
    return WaitcntEncoding(want_choice(row["model"], WAITCNT_MODELS, f"{where}.model"), form, intrinsic,
                           tuple(waits), tuple(fields))


def parse_intrinsic_data(text: str) -> tuple[tuple[IntrinsicDef, ...], tuple[WaitcntEncoding, ...]]:
    """Parse intrinsics.toml text and append the MMA catalog; raises ArchDataError."""
    doc = check_keys(parse_toml(text, INTRINSICS_FILE), ("format", "intrinsic", "waitcnt"), INTRINSICS_FILE)
    if doc["format"] != INTRINSICS_FORMAT:
        raise ArchDataError(f"{INTRINSICS_FILE}: format must be '{INTRINSICS_FORMAT}'")
    rows = [_parse_intrinsic(e, i) for i, e in enumerate(want_list(doc["intrinsic"], INTRINSICS_FILE))]
    rows += [_mma_row(op, len(rows) + i) for i, op in enumerate(MMA_OPS)]
    want_unique([r.name for r in rows], f"{INTRINSICS_FILE}: intrinsic")
    encodings = tuple(_parse_waitcnt(e, i) for i, e in enumerate(want_list(doc["waitcnt"], INTRINSICS_FILE)))
    want_unique([e.model for e in encodings], f"{INTRINSICS_FILE}: waitcnt")
    if tuple(sorted(e.model for e in encodings)) != tuple(sorted(WAITCNT_MODELS)):
        raise ArchDataError(f"{INTRINSICS_FILE}: waitcnt must cover every model: {', '.join(WAITCNT_MODELS)}")
    names = {r.name for r in rows}
    for enc in encodings:
        for name in (enc.intrinsic, *(w.intrinsic for w in enc.waits)):
            if name and name not in names:
                raise ArchDataError(f"{INTRINSICS_FILE}: waitcnt '{enc.model}' names unknown intrinsic '{name}'")
    return tuple(rows), encodings


INTRINSICS, WAITCNT_ENCODINGS = parse_intrinsic_data(read_data_text(INTRINSICS_FILE))
_BY_NAME = {row.name: row for row in INTRINSICS}


def _check_overrides() -> None:
    for flavor in flavor_data().flavors:
        for override in flavor.intrinsic_overrides:
            row = _BY_NAME.get(override.name)
            if row is None or row.overload or row.mma_op_id:
                raise ArchDataError(
                    f"flavors.toml: flavor '{flavor.name}' overrides '{override.name}', "
                    "which is not a fixed-signature row of intrinsics.toml")


_check_overrides()


def intrinsic_def(name: str) -> IntrinsicDef:
    """The table row called `name` (overloaded rows by their "{M}" name)."""
    row = _BY_NAME.get(name)
    if row is None:
        raise ValueError(f"unknown intrinsic '{name}'")
    return row


def mma_intrinsic_def(op_id: str) -> IntrinsicDef:
    for row in INTRINSICS:
        if row.mma_op_id == op_id:
            return row
    raise ValueError(f"no intrinsic for mma op '{op_id}'")


def waitcnt_encoding(model: str) -> WaitcntEncoding:
    for enc in WAITCNT_ENCODINGS:
        if enc.model == model:
            return enc
    raise ValueError(f"no waitcnt encoding for model '{model}'")


def overload_spelling(elem: str, lanes: int) -> tuple[str, str]:
    """(LLVM type, mangled suffix) of a scalar (lanes = 0) or a vector of `lanes` elements."""
    scalar = LLVM.llvm_scalar(elem)
    if lanes == 0:
        return scalar, elem
    return f"<{lanes} x {scalar}>", f"v{lanes}{elem}"


def instantiate(row: IntrinsicDef, flavor: str, elem: str = "", lanes: int = 0) -> IntrinsicDecl:
    """The declaration of `row` for `flavor`; an overloaded row needs its element type (and lanes,
    0 for a scalar). The arch-domain key of a vector instantiation is the scalar one."""
    if row.overload == "":
        if elem:
            raise ValueError(f"intrinsic '{row.name}' is not overloaded")
        override = get_flavor(flavor).override_for(row.name)
        if override is not None:
            return IntrinsicDecl(row.index, row.name, override.ret, override.params, row.name)
        return IntrinsicDecl(row.index, row.name, row.ret, row.params, row.name)
    if elem not in OVERLOAD_ELEMS[row.overload]:
        raise ValueError(f"intrinsic '{row.name}' is not defined for element type '{elem}'")
    get_flavor(flavor)
    llvm_type, mangled = overload_spelling(elem, lanes)
    name = row.name.replace("{M}", mangled)
    ret = row.ret.replace("{T}", llvm_type)
    params = tuple(p.replace("{T}", llvm_type) for p in row.params)
    return IntrinsicDecl(row.index, name, ret, params, row.name.replace("{M}", elem))


def domain_probes(flavor: str) -> tuple[IntrinsicDecl, ...]:
    """Every declaration the arch-domain table covers for `flavor`, in table order: fixed rows once,
    overloaded rows once per element type of their class (scalars)."""
    probes = []
    for row in INTRINSICS:
        if row.overload == "":
            probes.append(instantiate(row, flavor))
        else:
            probes.extend(instantiate(row, flavor, elem) for elem in OVERLOAD_ELEMS[row.overload])
    return tuple(probes)
