"""The parameter list of a PTX `.entry`, read from PTX text, and a parameter layout checked against it.

PTX declares a kernel's parameters in order (`.param .u64 .ptr .global .align 1 NAME`,
`.param .u32 NAME`, `.param .f32 NAME`, `.param .align A .b8 NAME[N]`); each sits at the next
multiple of its alignment. `check_ptx_params` holds a ParamLayout (rocke.runtime.packing) to
them: same count, and per argument the same offset and size, a pointer where PTX has a 64-bit
integer, an int where it has an integer of the slot's width, f32 where it has .f32.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .packing import ParamLayout

_ENTRY = re.compile(r"\.entry\s+([A-Za-z_$%][\w$%.]*)\s*\(([^)]*)\)", re.S)
_PARAM = re.compile(
    r"^\.param\s+(?:\.align\s+(?P<align0>\d+)\s+)?\.(?P<type>[usbf]\d+)"
    r"(?P<ptr>\s+\.ptr(?:\s+\.(?:global|const|shared|local))?(?:\s+\.align\s+\d+)?)?"
    r"\s+(?P<name>[A-Za-z_$%][\w$%.]*)(?:\[(?P<count>\d+)\])?$"
)


@dataclass(frozen=True)
class PtxParam:
    name: str
    type: str  # PTX fundamental type: u64, u32, s32, f32, b8 ...
    pointer: bool  # declared with .ptr
    offset: int
    size: int


def ptx_entry_params(ptx: str, kernel: str) -> tuple[PtxParam, ...]:
    """The parameters of `.entry kernel` in PTX text; ValueError when it is absent or unreadable."""
    entries = {match.group(1): match.group(2) for match in _ENTRY.finditer(ptx)}
    if kernel not in entries:
        raise ValueError(f"no .entry {kernel} in the PTX (entries: {', '.join(sorted(entries)) or 'none'})")
    params, offset = [], 0
    for text in (part.strip() for part in entries[kernel].split(",")):
        if not text:
            continue
        match = _PARAM.match(" ".join(text.split()))
        if match is None:
            raise ValueError(f".entry {kernel}: unreadable parameter '{text}'")
        ptx_type = match.group("type")
        width = int(ptx_type[1:]) // 8
        size = width * int(match.group("count") or 1)
        align = int(match.group("align0") or width)
        offset = -(-offset // align) * align
        params.append(PtxParam(match.group("name"), ptx_type, match.group("ptr") is not None, offset, size))
        offset += size
    return tuple(params)


def _matches(kind: str, size: int, param: PtxParam) -> bool:
    if param.size != size:
        return False
    if kind == "float":
        return param.type == f"f{8 * size}"
    if kind == "pointer":
        return param.type in ("u64", "s64", "b64")
    return not param.pointer and param.type in (f"u{8 * size}", f"s{8 * size}", f"b{8 * size}")


def check_ptx_params(layout: ParamLayout, params: tuple[PtxParam, ...], kernel: str) -> None:
    """ValueError naming the first argument whose packing disagrees with the PTX parameter list."""
    if len(params) != len(layout.slots):
        raise ValueError(f".entry {kernel}: the PTX declares {len(params)} parameter(s), the layout packs "
                         f"{len(layout.slots)}")
    for slot, param in zip(layout.slots, params, strict=True):
        if slot.offset != param.offset or not _matches(slot.kind, slot.size, param):
            raise ValueError(f".entry {kernel}: argument {slot.name} ({slot.type}) is packed as {slot.size} bytes "
                             f"at offset {slot.offset}; the PTX declares .{param.type}"
                             f"{' .ptr' if param.pointer else ''} {param.name} ({param.size} bytes at offset "
                             f"{param.offset})")
