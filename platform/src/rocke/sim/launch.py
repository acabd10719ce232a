"""run(): verify a kernel, bind its arguments, and simulate every workgroup of a launch."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rocke.arch import ArchTarget, resolve_arch
from rocke.ir import KernelDef, Op, Param, PtrType, ScalarType, parse_kernel, verify

from .dtypes import elem_bytes, numpy_dtype
from .errors import LaunchError
from .geometry import Batch, Launch, dims3
from .machine import KernelInfo, Machine, Mask
from .memory import GlobalRegion, LdsRegion
from .registry import HANDLERS
from .rounding import round_f64
from .values import PtrVal

DEFAULT_BATCH_LANES = 1 << 15
# Orders in which the lanes of one mem.atomic_add_f32 reach memory (ops_mem.atomic_updates).
ATOMIC_ORDERS = ("wave", "lanes", "reverse")
# Roundings of the approximate math instructions, as the skew ops_math.approx takes.
_SKEW = {"nearest": 0, "up": 1, "down": -1}
APPROX_ROUNDINGS = tuple(_SKEW)
# How mma.mma sums its products (ops_mma): exactly, then one rounding; or one rounding per product.
MMA_ORDERS = ("exact", "forward", "reverse")
# LDS bytes (data plus race tracking) simulated at once; bounds the workgroups per batch.
LDS_BATCH_BYTES = 1 << 28
_TRACKING_BYTES_PER_ELEM = 1 + 2 * (4 + 2 + 2 + 4)  # init flag, then (epoch, min/max thread, fence) x 2


@dataclass(frozen=True)
class RunInfo:
    """What a run did: the launch, how it was batched, and how many ops it executed."""

    kernel: str
    arch: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    workgroups: int
    batches: int
    lds_bytes: int
    ops_executed: int


@dataclass(frozen=True)
class _LdsAlloc:
    op: Op
    dtype: np.dtype
    elems: int  # scalar elements per workgroup
    offset: int  # byte offset in the workgroup's LDS pool


class _Binding:
    """The arguments of one launch: global regions and per-param value makers."""

    def __init__(self) -> None:
        self.regions: list[GlobalRegion] = []
        self.scalars: dict[int, tuple[Any, np.dtype]] = {}  # param value id -> (value, dtype)
        self.pointers: dict[int, int] = {}  # param value id -> region index
        self.writebacks: list[tuple[np.ndarray, np.ndarray]] = []  # (caller array, contiguous copy)

    def values(self, lanes: int) -> dict[int, Any]:
        env: dict[int, Any] = {}
        for vid, (value, dtype) in self.scalars.items():
            env[vid] = np.full(lanes, value, dtype)
        for vid, rid in self.pointers.items():
            env[vid] = PtrVal(np.full(lanes, rid, np.int32), np.zeros(lanes, np.int64))
        return env


def _label(index: int, param: Param) -> str:
    name = f" '{param.name}'" if param.name else ""
    return f"param #{index} %{param.value.id}{name}"


def _bind_pointer(binding: _Binding, label: str, param: Param, arg: Any) -> None:
    pty = param.type
    assert isinstance(pty, PtrType)
    expected = numpy_dtype(pty.pointee)
    if not isinstance(arg, np.ndarray):
        raise LaunchError(label, f"type {pty.text} needs a numpy array, got {type(arg).__name__}")
    same_bits = arg.dtype.kind in "iu" and arg.dtype.itemsize == expected.itemsize
    if arg.dtype != expected and not same_bits:
        raise LaunchError(label, f"type {pty.text} needs a numpy array of {expected} (or a same-size integer array "
                                 f"holding its bits), got {arg.dtype}")
    array = arg
    if not arg.flags.c_contiguous:
        array = np.ascontiguousarray(arg)
        if arg.flags.writeable:
            binding.writebacks.append((arg, array))
    readonly = bool(param.attrs.get("readonly", False))
    writeonly = bool(param.attrs.get("writeonly", False))
    binding.pointers[param.value.id] = len(binding.regions)
    binding.regions.append(GlobalRegion(label, array, expected, pty.space, readonly, writeonly))


def _bind_scalar(binding: _Binding, label: str, param: Param, arg: Any) -> None:
    ty = param.type
    assert isinstance(ty, ScalarType)
    dtype = numpy_dtype(ty)
    if isinstance(arg, np.ndarray) and arg.shape == ():
        arg = arg[()]
    if ty.is_int:
        if isinstance(arg, bool | np.bool_) or not isinstance(arg, int | np.integer):
            raise LaunchError(label, f"type {ty.text} needs an int, got {type(arg).__name__}")
        value = int(arg)
        if not -(1 << (ty.bits - 1)) <= value < (1 << ty.bits):
            raise LaunchError(label, f"value {value} does not fit in {ty.text}")
        value &= (1 << ty.bits) - 1
        if value >= 1 << (ty.bits - 1):
            value -= 1 << ty.bits
        binding.scalars[param.value.id] = (value, dtype)
        return
    if isinstance(arg, bool | np.bool_) or not isinstance(arg, int | float | np.integer | np.floating):
        raise LaunchError(label, f"type {ty.text} needs a float, got {type(arg).__name__}")
    rounded = round_f64(np.array([float(arg)]), dtype)[0]  # nearest, ties to even
    binding.scalars[param.value.id] = (rounded, dtype)


def _bind(kernel: KernelDef, args: Sequence[Any] | Mapping[str, Any]) -> _Binding:
    params = kernel.params
    if isinstance(args, Mapping):
        names = [p.name or "" for p in params]
        if not all(names) or len(set(names)) != len(names):
            raise LaunchError("launch", "args by name need every param to have a unique name hint; pass a sequence")
        unknown = sorted(str(key) for key in args if key not in names)
        if unknown:
            raise LaunchError("launch", f"unknown argument name(s): {', '.join(unknown)}")
        missing = [n for n in names if n not in args]
        if missing:
            raise LaunchError("launch", f"missing argument(s): {', '.join(missing)}")
        ordered = [args[n] for n in names]
    elif isinstance(args, list | tuple):
        if len(args) != len(params):
            raise LaunchError("launch", f"kernel @{kernel.name} takes {len(params)} argument(s), got {len(args)}")
        ordered = list(args)
    else:
        raise LaunchError("launch", f"args must be a list, tuple or mapping, got {type(args).__name__}")
    binding = _Binding()
    for index, (param, arg) in enumerate(zip(params, ordered, strict=True)):
        label = _label(index, param)
        if param.type.is_ptr:
            _bind_pointer(binding, label, param, arg)
        else:
            _bind_scalar(binding, label, param, arg)
    return binding


def _lds_layout(kernel: KernelDef, arch: ArchTarget) -> tuple[list[_LdsAlloc], int]:
    """Allocations in body order, each at the next multiple of its align; total bytes."""
    allocs: list[_LdsAlloc] = []
    cursor = 0
    for op in kernel.body.ops:
        if op.opcode != "mem.lds_alloc":
            continue
        pty = op.results[0].type
        assert isinstance(pty, PtrType)
        pointee = pty.pointee
        elems = int(op.attrs["count"]) * (pointee.lanes if not isinstance(pointee, ScalarType) else 1)
        align = max(1, int(op.attrs["align"]))
        cursor = -(-cursor // align) * align
        allocs.append(_LdsAlloc(op, numpy_dtype(pointee), elems, cursor))
        cursor += elems * elem_bytes(pointee)
    if cursor > arch.lds_bytes:
        raise LaunchError("launch", f"kernel @{kernel.name} allocates {cursor} bytes of LDS; {arch.name} allows "
                                    f"{arch.lds_bytes} per workgroup")
    return allocs, cursor


def run(
    kernel: KernelDef | str,
    *,
    arch: str | ArchTarget,
    grid: int | Sequence[int],
    block: int | Sequence[int],
    args: Sequence[Any] | Mapping[str, Any],
    max_batch_lanes: int = DEFAULT_BATCH_LANES,
    check_races: bool = True,
    atomic_order: str = "wave",
    approx_rounding: str = "nearest",
    mma_order: str = "exact",
) -> RunInfo:
    """Simulate `kernel` (a KernelDef or rocke.ir/1 text) on `arch` over a grid of workgroups.

    grid: workgroups per dimension; block: threads per workgroup per dimension (an int or 1 to 3
    ints). args: one per kernel param, in order (or by name hint): a numpy array for a pointer
    param - bound in place, so stores land in the caller's array - and an int or float for a
    scalar param (floats round to nearest even into the param type). The verifier runs first
    (rocke.ir.VerifyError). Workgroups run in batches of up to max_batch_lanes lanes, all lanes of
    a batch in lockstep. check_races=False skips LDS race tracking (faster). atomic_order picks
    one of the orders in ATOMIC_ORDERS in which the lanes of an atomic add reach memory (a kernel
    with atomic outputs should pass in every one of them). approx_rounding ("nearest", "up",
    "down") rounds each approximate instruction (v_exp, v_log, v_rcp, uncorrected v_sqrt) to
    nearest or to the neighbour above / below the exact value: a tolerance that holds in all
    three covers the hardware's 1-ulp error. mma_order ("exact", "forward", "reverse") sums an
    MMA's products exactly and rounds once, or adds them one at a time in k order / reverse k
    order with a rounding each. Raises a SimError
    subclass on anything the GPU would not define; output arrays may then hold partial results.
    """
    if isinstance(kernel, str):
        kernel = parse_kernel(kernel)
    target = resolve_arch(arch)
    verify(kernel, arch=target)
    launch = Launch(dims3(grid, "grid"), dims3(block, "block"), target.wave_size)
    limit = min(int(kernel.attrs["max_workgroup_size"]), target.max_workgroup_size)
    if launch.threads > limit:
        raise LaunchError("launch", f"block of {launch.threads} threads exceeds the limit of {limit} (kernel "
                                    f"max_workgroup_size and {target.name})")
    if launch.groups * launch.lanes_per_group > 2**40:
        raise LaunchError("launch", f"grid of {launch.groups} workgroups is too large to simulate")
    if isinstance(max_batch_lanes, bool) or not isinstance(max_batch_lanes, int) or max_batch_lanes < 1:
        raise LaunchError("launch", "max_batch_lanes must be a positive int")
    if approx_rounding not in APPROX_ROUNDINGS:
        raise LaunchError("launch", f"approx_rounding must be one of {', '.join(APPROX_ROUNDINGS)}, got "
                                    f"{approx_rounding!r}")
    if mma_order not in MMA_ORDERS:
        raise LaunchError("launch", f"mma_order must be one of {', '.join(MMA_ORDERS)}, got {mma_order!r}")
    if atomic_order not in ATOMIC_ORDERS:
        raise LaunchError("launch", f"atomic_order must be one of {', '.join(ATOMIC_ORDERS)}, got {atomic_order!r}")
    allocs, lds_bytes = _lds_layout(kernel, target)
    binding = _bind(kernel, args)
    info = KernelInfo(kernel)
    per_group = sum(a.elems * (a.dtype.itemsize + (_TRACKING_BYTES_PER_ELEM if check_races else 1)) for a in allocs)
    per_batch = max(1, max_batch_lanes // launch.lanes_per_group)
    if per_group:
        per_batch = max(1, min(per_batch, LDS_BATCH_BYTES // per_group))
    batches = 0
    ops = 0
    try:
        with np.errstate(all="ignore"):  # inactive lanes compute garbage; only active lanes are checked
            for first in range(0, launch.groups, per_batch):
                count = min(per_batch, launch.groups - first)
                batch = Batch(launch, first, count)
                regions: list[Any] = list(binding.regions)
                machine = Machine(info, target, batch, regions, HANDLERS, check_races, atomic_order,
                                  _SKEW[approx_rounding], mma_order)
                for alloc in allocs:
                    machine.lds_region_of[id(alloc.op)] = len(regions)
                    label = f"mem.lds_alloc %{alloc.op.results[0].id}"
                    regions.append(LdsRegion(label, alloc.elems, count, alloc.dtype, alloc.offset, check_races))
                machine.env.update(binding.values(batch.lanes))
                machine.exec_region(kernel.body, Mask(batch.exists))
                batches += 1
                ops += machine.ops_executed
    finally:
        for caller, contiguous in binding.writebacks:
            np.copyto(caller, contiguous)
    return RunInfo(kernel.name, target.name, launch.grid, launch.block, launch.groups, batches, lds_bytes, ops)
