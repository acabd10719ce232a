"""The LDS pool: every mem.lds_alloc of a kernel packed into one addrspace(3) global, named by the
target (lds_pool: @rocke.lds on AMD, @rocke_lds on NVIDIA).

Allocations are placed in definition order (they only appear directly in the kernel body), each
at the next offset that is a multiple of its alignment: max(align attribute, natural alignment of
the pointee). The pool is aligned to the largest of those and is exactly as large as the end of
the last allocation. A pool above the target's static_lds_bytes (NVIDIA: 48 KiB) is declared as an
external array instead: dynamic shared memory, whose size the launch passes (the runtime reads it from
plan_lds).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocke.arch import ArchTarget, Target
from rocke.ir.core import KernelDef

from .emitter import int_attr
from .errors import LowerError
from .llvm_types import byte_size, natural_align, pointee_of


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


def is_dynamic(plan: LdsPlan, target: Target) -> bool:
    """Whether the pool is larger than the target declares statically: an external array sized at
    launch (NVIDIA's dynamic shared memory above 48 KiB)."""
    return 0 < target.static_lds_bytes < plan.size


def pool_global(plan: LdsPlan, target: Target) -> str:
    if is_dynamic(plan, target):
        return f"{target.lds_pool} = external addrspace(3) global [0 x i8], align {plan.align}"
    return f"{target.lds_pool} = internal addrspace(3) global [{plan.size} x i8] poison, align {plan.align}"
