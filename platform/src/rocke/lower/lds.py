"""The LDS pool: every mem.lds_alloc of a kernel packed into one addrspace(3) global.

Allocations are placed in definition order (they only appear directly in the kernel body), each
at the next offset that is a multiple of its alignment: max(align attribute, natural alignment of
the pointee). The pool is aligned to the largest of those and is exactly as large as the end of
the last allocation.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ArchTarget
from rocke.ir.core import KernelDef

from .emitter import int_attr
from .errors import LowerError
from .llvm_types import byte_size, natural_align, pointee_of

POOL_NAME = "@rocke.lds"


@dataclass(frozen=True)
class LdsPlan:
    offsets: dict[int, int]  # result id of each mem.lds_alloc -> byte offset
    size: int  # bytes; 0 when the kernel allocates no LDS
    align: int


def plan_lds(kernel: KernelDef, arch: ArchTarget) -> LdsPlan:
    offsets: dict[int, int] = {}
    end = 0
    pool_align = 1
    for op in kernel.body.ops:
        if op.opcode != "mem.lds_alloc":
            continue
        result = op.results[0]
        pointee = pointee_of(result.type)
        count = int_attr(op, "count")
        align = max(int_attr(op, "align"), natural_align(pointee))
        offset = (end + align - 1) // align * align
        offsets[result.id] = offset
        end = offset + count * byte_size(pointee)
        pool_align = max(pool_align, align)
    if end > arch.lds_bytes:
        raise LowerError(
            f"kernel @{kernel.name}",
            f"allocates {end} bytes of LDS; {arch.name} allows {arch.lds_bytes} per workgroup",
        )
    return LdsPlan(offsets, end, pool_align)


def pool_global(plan: LdsPlan) -> str:
    return f"{POOL_NAME} = internal addrspace(3) global [{plan.size} x i8] poison, align {plan.align}"
