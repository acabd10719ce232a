"""The attention backward as one plan: launch order, workspace layout, zero-init needs and the
argument bindings of every launch, as data a host (or the simulator) follows without the builders.

Conventions every backward family follows (library/docs/attention.md, "## Backward"):

* Launch order: attention_bwd_prep -> attention_bwd_main -> [attention_bwd_dq when
  dq_mode=split] -> [attention_bwd_convert when dq_mode=atomic or dkv_mode != direct].
* Problem: the forward's keys (batched: batch, seqlen_q, seqlen_k, heads_q, heads_kv; varlen:
  batch, max_seqlen_q, max_seqlen_k, total_q, total_k, heads_q, heads_kv) and optionally the
  strides (elements) of q, k, v, o, do, dq, dk, dv: batched {t}_stride_{b,s,h}, varlen
  {t}_stride_{s,h}; default contiguous [B, S, H, D] / [T, H, D]. head_dim is the specs'.
* User buffers (bound by argument name): inputs q, k, v, o, do (input dtype), lse (f32, the
  forward's natural-log LSE: batched [B, H_q, S_q], varlen [H_q, total_q]), varlen
  cu_seqlens_q, cu_seqlens_k (i32[B + 1]); outputs dq (like q), dk, dv (like k).
* Workspace: one f32 buffer, slices at 256-byte aligned offsets, in this order:
    lse2    f32 like lse: LSE * log2(e); +inf for a dead row (LSE = -inf or NaN)
    delta   f32 like lse: D = rowsum(dO * O) in f32; 0 for a dead row
    dq_acc  (dq_mode=atomic) f32 [B, S_q, H_q, D] / [total_q, H_q, D], contiguous
    dk_acc, dv_acc  (dkv_mode=atomic) f32 [B, S_k, H_kv, D] / [total_k, H_kv, D], contiguous,
            every query head of a group adds into its kv head (f32 global atomics);
            (dkv_mode=split) f32 [B, S_k, H_q, D] / [total_k, H_q, D], contiguous, one slice
            per query head, plain stores of main (every element written once), so they need
            no zeros; convert sums the group's heads.
  The accumulation slices main adds into by atomics (dq_acc with dq_mode=atomic, dk_acc and
  dv_acc with dkv_mode=atomic) are contiguous from the first one to the end of the last (the
  "zero region"); attention_bwd_prep zero-fills the whole region (arguments zero_ws,
  zero_count), so the host zero-fills nothing (the plan's zero_init is empty). The split slices
  lie past the region and are not zeroed.
* dq_mode=split: attention_bwd_dq writes dq in the input dtype through the dq strides (no
  workspace). dkv_mode=direct (h_q == h_kv): attention_bwd_main writes dk, dv in the input dtype.
* Argument names of the workspace slices in every launch: lse2, delta, dq_acc, dk_acc, dv_acc,
  zero_ws (the zero region); scalar arguments come from each family's launch contract, except
  scale (f32, the caller's: the problem's "scale", default 1 / sqrt(head_dim)).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rocke.families.launch import LaunchContract, LaunchError
from rocke.helpers import elem_bytes

WORKSPACE_ALIGN = 256  # bytes; every slice offset is a multiple
PLAN_FORMAT = "rocke.plan/1"
LAUNCH_ORDER = ("attention_bwd_prep", "attention_bwd_main", "attention_bwd_dq", "attention_bwd_convert")
DQ_MODES = ("atomic", "split")
DKV_MODES = ("direct", "atomic", "split")
TENSORS = ("q", "k", "v", "o", "do", "dq", "dk", "dv")
INPUTS = ("q", "k", "v", "o", "do", "lse", "cu_seqlens_q", "cu_seqlens_k")
OUTPUTS = ("dq", "dk", "dv")
STAT_SLICES = ("lse2", "delta")
ACC_SLICES = ("dq_acc", "dk_acc", "dv_acc")
ZERO_REGION = "zero_ws"
BATCHED_KEYS = ("batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv")
VARLEN_KEYS = ("batch", "max_seqlen_q", "max_seqlen_k", "total_q", "total_k", "heads_q", "heads_kv")


def kv_tensor(tensor: str) -> bool:
    """Whether a tensor is laid out like K (rows of S_k and kv heads) rather than like Q."""
    return tensor in ("k", "v", "dk", "dv")


@dataclass(frozen=True)
class Slice:
    """One f32 workspace slice: byte offset (256-aligned), byte size and logical shape."""

    name: str
    offset: int
    bytes: int
    shape: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"bytes": self.bytes, "dtype": "f32", "name": self.name, "offset": self.offset,
                "shape": list(self.shape)}


def align_up(value: int, align: int = WORKSPACE_ALIGN) -> int:
    return -(-value // align) * align


def stat_shape(seq_mode: str, sizes: Mapping[str, int]) -> tuple[int, ...]:
    """Shape of lse, lse2 and delta: batched [B, H_q, S_q], varlen [H_q, total_q]."""
    if seq_mode == "batched":
        return (sizes["batch"], sizes["heads_q"], sizes["seqlen_q"])
    return (sizes["heads_q"], sizes["total_q"])


def acc_shape(seq_mode: str, sizes: Mapping[str, int], name: str, head_dim: int, dkv_mode: str) -> tuple[int, ...]:
    """Shape of an accumulation slice (see the module docstring)."""
    if name == "dq_acc":
        heads = sizes["heads_q"]
        rows = (sizes["batch"], sizes["seqlen_q"]) if seq_mode == "batched" else (sizes["total_q"],)
    else:
        heads = sizes["heads_q"] if dkv_mode == "split" else sizes["heads_kv"]
        rows = (sizes["batch"], sizes["seqlen_k"]) if seq_mode == "batched" else (sizes["total_k"],)
    return (*rows, heads, head_dim)


def workspace_layout(seq_mode: str, sizes: Mapping[str, int], head_dim: int, dq_mode: str, dkv_mode: str
                     ) -> tuple[Slice, ...]:
    """The workspace slices in order: lse2, delta, then dq_acc (dq_mode=atomic), dk_acc and
    dv_acc (dkv_mode atomic or split), each at a 256-byte aligned offset."""
    names = list(STAT_SLICES)
    if dq_mode == "atomic":
        names.append("dq_acc")
    if dkv_mode != "direct":
        names += ["dk_acc", "dv_acc"]
    slices, offset = [], 0
    for name in names:
        shape = stat_shape(seq_mode, sizes) if name in STAT_SLICES else acc_shape(seq_mode, sizes, name, head_dim,
                                                                                 dkv_mode)
        count = 1
        for dim in shape:
            count *= dim
        slices.append(Slice(name, offset, count * 4, shape))
        offset = align_up(offset + count * 4)
    return tuple(slices)


def zero_region(slices: tuple[Slice, ...], dkv_mode: str = "atomic") -> Slice | None:
    """The accumulation slices that need zeros as one region (first offset to the end of the
    last), or None: all of them, but the dkv_mode=split dk_acc, dv_acc (written by plain stores)."""
    atomic = ACC_SLICES if dkv_mode != "split" else ("dq_acc",)
    accs = [s for s in slices if s.name in atomic]
    if not accs:
        return None
    end = accs[-1].offset + accs[-1].bytes
    return Slice(ZERO_REGION, accs[0].offset, end - accs[0].offset, ((end - accs[0].offset) // 4,))


def workspace_bytes(slices: tuple[Slice, ...]) -> int:
    """Total workspace bytes: the end of the last slice, rounded up to the alignment."""
    return align_up(slices[-1].offset + slices[-1].bytes) if slices else 0


class PlanError(ValueError):
    """Specs or a problem the backward plan cannot assemble (missing or inconsistent specs, bad sizes)."""


class ComponentLaunchError(LaunchError):
    """The launch contract of one of the plan's families refused the problem (its text unchanged);
    `family` names the family, so dispatch can say whose contract refused."""

    def __init__(self, family: str, message: str) -> None:
        super().__init__(message)
        self.family = family


@dataclass(frozen=True)
class Launch:
    """One launch of the plan: the family, its spec (canonical kv), kernel symbol, grid, block and
    every argument in order with its binding (tensor, workspace slice or scalar value)."""

    family: str
    spec: str
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    args: tuple[dict[str, object], ...]
    # the family's contract, for dispatch (not part of the plan's JSON)
    contract: LaunchContract | None = dataclasses.field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, object]:
        return {"args": [dict(a) for a in self.args], "block": list(self.block), "family": self.family,
                "grid": list(self.grid), "kernel": self.kernel, "spec": self.spec}


@dataclass(frozen=True)
class BackwardPlan:
    """The whole backward of one problem (see the module docstring); to_json() is rocke.plan/1."""

    arch: str
    problem: tuple[tuple[str, int | float], ...]
    tensors: tuple[tuple[str, dict[str, object]], ...]  # user buffer -> {bytes, dtype, role}
    slices: tuple[Slice, ...]
    zero: Slice | None
    launches: tuple[Launch, ...]
    zero_init: tuple[str, ...] = ()  # buffers the host must zero-fill first: none (prep clears the region)

    @property
    def workspace_bytes(self) -> int:
        return workspace_bytes(self.slices)

    def to_dict(self) -> dict[str, object]:
        return {
            "arch": self.arch,
            "format": PLAN_FORMAT,
            "launches": [launch.to_dict() for launch in self.launches],
            "problem": dict(self.problem),
            "tensors": {name: dict(info) for name, info in self.tensors},
            "workspace": {"bytes": self.workspace_bytes, "slices": [s.to_dict() for s in self.slices],
                          "zero_region": None if self.zero is None else self.zero.to_dict()},
            "zero_init": list(self.zero_init),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, indent=2) + "\n"


def _plan_sizes(seq_mode: str, head_dim: int, problem: Mapping[str, object]) -> dict[str, int]:
    keys = BATCHED_KEYS if seq_mode == "batched" else VARLEN_KEYS
    dims = ("b", "s", "h") if seq_mode == "batched" else ("s", "h")
    strides = tuple(f"{t}_stride_{d}" for t in TENSORS for d in dims)
    unknown = sorted(k for k in problem if k not in keys and k not in strides and k not in ("arch", "scale"))
    missing = [k for k in (*keys, "arch") if k not in problem]
    if unknown or missing:
        raise PlanError(f"attention backward: the {seq_mode} problem needs arch and the sizes {', '.join(keys)} "
                        f"(and optionally scale and the strides of {', '.join(TENSORS)}); unknown: "
                        f"{', '.join(unknown) or 'none'}, missing: {', '.join(missing) or 'none'}")
    sizes: dict[str, int] = {}
    for key in (*keys, *strides):
        if key not in problem:
            continue
        value = problem[key]
        smallest = 0 if key.startswith(("seqlen_", "max_seqlen_", "total_")) else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < smallest:
            raise PlanError(f"attention backward: problem size {key} must be an int >= {smallest}")
        sizes[key] = value
    if sizes["heads_q"] % sizes["heads_kv"] != 0:
        raise PlanError(f"attention backward: heads_q={sizes['heads_q']} is not a multiple of "
                        f"heads_kv={sizes['heads_kv']}")
    for tensor in TENSORS:
        heads = sizes["heads_kv"] if kv_tensor(tensor) else sizes["heads_q"]
        sizes.setdefault(f"{tensor}_stride_h", head_dim)
        sizes.setdefault(f"{tensor}_stride_s", heads * head_dim)
        if seq_mode == "batched":
            seqlen = sizes["seqlen_k"] if kv_tensor(tensor) else sizes["seqlen_q"]
            # a tensor of no rows (seqlen_k = 0) is never addressed: one row's stride, as a contract takes it
            sizes.setdefault(f"{tensor}_stride_b", max(seqlen, 1) * heads * head_dim)
    return sizes


def tensor_elems(seq_mode: str, sizes: Mapping[str, int], tensor: str, head_dim: int) -> int:
    """Elements a user tensor's buffer must hold (one past its last element, through its strides);
    lse: its [B, H_q, S_q] / [H_q, total_q] elements; cu_seqlens_*: batch + 1."""
    if tensor == "lse":
        count = 1
        for dim in stat_shape(seq_mode, sizes):
            count *= dim
        return count
    if tensor.startswith("cu_seqlens"):
        return sizes["batch"] + 1
    kv = kv_tensor(tensor)
    heads = sizes["heads_kv"] if kv else sizes["heads_q"]
    side = "k" if kv else "q"
    rows = sizes[f"seqlen_{side}"] if seq_mode == "batched" else sizes[f"total_{side}"]
    if rows == 0:
        return 0
    outer = (sizes["batch"] - 1) * sizes[f"{tensor}_stride_b"] if seq_mode == "batched" else 0
    return outer + (rows - 1) * sizes[f"{tensor}_stride_s"] + (heads - 1) * sizes[f"{tensor}_stride_h"] + head_dim


def family_problem(record: Any, spec: Any, sizes: Mapping[str, int], zero_count: int) -> dict[str, int]:
    """The problem one family's launch contract takes: the backward problem's sizes and strides
    restricted to the keys its contract module names (problem_keys(spec), stride_keys(spec)), plus
    zero_count for prep. A record without a contract module (tests) gets the whole problem."""
    try:
        contract = importlib.import_module(f"{record.package}.contract") if record.package else None
    except ImportError:
        contract = None
    if contract is None or not hasattr(contract, "problem_keys") or not hasattr(contract, "stride_keys"):
        return dict(sizes)
    keys = set(contract.problem_keys(spec)) | set(contract.stride_keys(spec))
    out = {k: v for k, v in sizes.items() if k in keys}
    if record.name == "attention_bwd_prep":
        out["zero_count"] = zero_count
    return out


def backward_records(records: Mapping[str, object] | None = None) -> Mapping[str, object]:
    """records when given (tests), else the four backward families' records by name (imported
    from their folders, not from the library's registry, so attention never reaches conv)."""
    if records is not None:
        return records
    from .attention_bwd_convert.family import FAMILY as CONVERT
    from .attention_bwd_dq.family import FAMILY as DQ
    from .attention_bwd_main.family import FAMILY as MAIN
    from .attention_bwd_prep.family import FAMILY as PREP

    return {family.name: family for family in (CONVERT, DQ, MAIN, PREP)}


def plan_attention_bwd(problem: Mapping[str, object], specs: Mapping[str, Any], *,
                       records: Mapping[str, object] | None = None) -> BackwardPlan:
    """Assemble the backward plan of `problem` (arch, sizes, optional strides and scale) from the
    specs of its launches, keyed by family name: attention_bwd_prep and attention_bwd_main always,
    attention_bwd_dq when the main spec's dq_mode is split, attention_bwd_convert when dq_mode is
    atomic or dkv_mode is not direct. records (tests) maps family names to Family records (default:
    the library's). PlanError when specs are missing, extra or disagree, or the problem is bad."""
    for name in specs:
        if name not in LAUNCH_ORDER:
            raise PlanError(f"attention backward: unknown family '{name}' (the plan launches "
                            f"{', '.join(LAUNCH_ORDER)})")
    for name in LAUNCH_ORDER[:2]:
        if name not in specs:
            raise PlanError(f"attention backward: the plan needs a spec of {name}")
    main = specs["attention_bwd_main"]
    dq_mode, dkv_mode = main.dq_mode, main.dkv_mode
    if dq_mode not in DQ_MODES or dkv_mode not in DKV_MODES:
        raise PlanError(f"attention backward: main spec modes dq_mode={dq_mode} dkv_mode={dkv_mode} are not "
                        f"one of {', '.join(DQ_MODES)} / {', '.join(DKV_MODES)}")
    wanted = ["attention_bwd_prep", "attention_bwd_main"]
    if dq_mode == "split":
        wanted.append("attention_bwd_dq")
    if dq_mode == "atomic" or dkv_mode != "direct":
        wanted.append("attention_bwd_convert")
    if sorted(specs) != sorted(wanted):
        raise PlanError(f"attention backward: dq_mode={dq_mode} dkv_mode={dkv_mode} launches "
                        f"{', '.join(wanted)}; got specs of {', '.join(n for n in LAUNCH_ORDER if n in specs)}")
    first = specs["attention_bwd_prep"]
    for name in wanted:
        for field in ("dtype", "head_dim", "seq_mode"):
            if getattr(specs[name], field) != getattr(first, field):
                raise PlanError(f"attention backward: {name} has {field}={getattr(specs[name], field)}, "
                                f"attention_bwd_prep has {field}={getattr(first, field)}")
    if "attention_bwd_convert" in specs:
        convert = specs["attention_bwd_convert"]
        if (convert.dq_mode, convert.dkv_mode) != (dq_mode, dkv_mode):
            raise PlanError(f"attention backward: attention_bwd_convert has dq_mode={convert.dq_mode} "
                            f"dkv_mode={convert.dkv_mode}, the main spec dq_mode={dq_mode} "
                            f"dkv_mode={dkv_mode}")
    seq_mode, head_dim = first.seq_mode, first.head_dim  # type: ignore[attr-defined]
    sizes = _plan_sizes(seq_mode, head_dim, problem)
    if dkv_mode == "direct" and sizes["heads_q"] != sizes["heads_kv"]:
        raise PlanError(f"attention backward: dkv_mode=direct needs heads_q == heads_kv (got {sizes['heads_q']} "
                        f"and {sizes['heads_kv']}); GQA / MQA sum dK, dV with dkv_mode atomic or split")
    arch = str(problem["arch"])
    scale = float(problem["scale"]) if "scale" in problem else 1.0 / float(head_dim) ** 0.5  # type: ignore[arg-type]
    slices = workspace_layout(seq_mode, sizes, head_dim, dq_mode, dkv_mode)
    zero = zero_region(slices, dkv_mode)
    by_name = {s.name: s for s in slices}
    if zero is not None:
        by_name[ZERO_REGION] = zero
    found = backward_records(records)
    dtype = first.dtype  # type: ignore[attr-defined]
    esize = elem_bytes(dtype)
    tensors: dict[str, dict[str, object]] = {}
    names = [t for t in INPUTS + OUTPUTS if seq_mode == "varlen" or not t.startswith("cu_seqlens")]
    for t in names:
        kind = "f32" if t == "lse" else "i32" if t.startswith("cu_seqlens") else dtype
        size = esize if kind == dtype else 4
        tensors[t] = {"bytes": tensor_elems(seq_mode, sizes, t, head_dim) * size, "dtype": kind,
                      "role": "output" if t in OUTPUTS else "input"}
    launches = []
    for name in wanted:
        spec = specs[name]
        record = found.get(name)
        if record is None or getattr(record, "launch", None) is None:
            raise PlanError(f"attention backward: family {name} is not available")
        sub = family_problem(record, spec, sizes, 0 if zero is None else zero.bytes // 4)
        try:
            contract = record.launch(spec, sub)  # type: ignore[attr-defined]
        except LaunchError as exc:
            raise ComponentLaunchError(name, str(exc)) from exc
        args = []
        for arg in contract.args:
            binding: dict[str, object] = {"name": arg.name, "type": arg.type}
            if arg.name in INPUTS or arg.name in OUTPUTS:
                held = int(tensors[arg.name]["bytes"])  # type: ignore[call-overload]
                if arg.bytes > held:
                    raise PlanError(f"attention backward: {name} needs {arg.bytes} bytes of {arg.name}, the problem's "
                                    f"tensor holds {held}")
                binding.update(kind="tensor", tensor=arg.name)
            elif arg.name in by_name or arg.name == ZERO_REGION:
                s = by_name.get(arg.name, Slice(ZERO_REGION, 0, 0, (0,)))
                if arg.bytes > s.bytes:
                    raise PlanError(f"attention backward: {name} needs {arg.bytes} bytes of {arg.name}, the slice "
                                    f"holds {s.bytes}")
                binding.update(kind="workspace", offset=s.offset, bytes=s.bytes)
            elif arg.value is not None:
                binding.update(kind="scalar", value=arg.value)
            elif arg.name == "scale":
                binding.update(kind="scalar", value=scale)
            else:
                raise PlanError(f"attention backward: {name} argument {arg.name} has no binding in the plan")
            args.append(binding)
        launches.append(Launch(name, contract.spec, contract.kernel, contract.grid, contract.block, tuple(args),
                               contract))
    shown: dict[str, int | float] = dict(sizes)
    shown["scale"] = scale
    return BackwardPlan(arch, tuple(sorted(shown.items())), tuple(sorted(tensors.items())), slices, zero,
                        tuple(launches))
