"""PyTorch ops on planned rocKE kernels: `attention` and `conv2d`, with autograd (library/docs/torch.md).

Each call plans its problem with dispatch for the GPU's arch (sm_XY from the tensors' device) and
runs the plan with `execute` on a `TorchDevice`: the caller's tensors are bound by address (no host
copies), the plan's workspace is a torch uint8 tensor on the same device, and the launches go
through a `rocke.runtime` backend on that GPU (its kernel loading and parameter packing). The
backward passes plan attention_bwd, conv_dgrad and conv_wgrad for the same problem. A refused plan
raises `PlanRefusedError` naming its reason codes. Today the GPU backend is NVIDIA's (sm_90).

torch is imported when an op runs, never at import: `import rocke_library` needs no torch, and this
module's problem translation (`attention_problem`, `conv_problem`) runs without it.
Layouts: attention q (B, S_q, H_q, D), k and v (B, S_k, H_kv, D) (rocKE's batched BSHD; H_q a
multiple of H_kv), O like q and LSE (B, H_q, S_q) f32; conv2d x (N, H, W, C) NHWC and w (K, R, S, C),
output (N, H_o, W_o, K). Tensors that are not contiguous are made contiguous on their device.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rocke.families import build_family
from rocke.runtime import Backend, DeviceBuffer, RuntimeDevice, open_backend
from rocke_library.dispatch import Plan, plan
from rocke_library.dispatch.execute import execute

__all__ = ["PlanRefusedError", "TorchDevice", "attention", "attention_problem", "conv2d", "conv_problem"]

DTYPES = {"float16": "f16", "bfloat16": "bf16"}  # torch dtype name -> problem dtype
ALIGN = 16  # the problems' default align (bytes): every bound base address must be a multiple


class PlanRefusedError(ValueError):
    """A problem dispatch does not plan on the arch; `reasons` are the rejections' reason codes."""

    def __init__(self, kind: str, arch: str, result: Plan) -> None:
        self.reasons = tuple(dict.fromkeys(code for rejection in result.rejected for code in rejection.reasons))
        super().__init__(f"{kind} on {arch} is refused ({', '.join(self.reasons) or 'no candidate'}):\n"
                         f"{result.to_text().strip()}")


# -- problem translation (no torch) -------------------------------------------------------------


def _dtype_name(dtype: Any) -> str:
    name = str(dtype).removeprefix("torch.")
    if name not in DTYPES:
        raise TypeError(f"dtype: rocKE's torch ops take {', '.join(f'torch.{d}' for d in DTYPES)}, got {dtype}")
    return DTYPES[name]


def attention_problem(q_shape: Sequence[int], k_shape: Sequence[int], v_shape: Sequence[int], dtype: Any, *,
                      causal: bool = False) -> str:
    """The attention problem text of q (B, S_q, H_q, D), k and v (B, S_k, H_kv, D): batched, contiguous
    BSHD; causal is torch's is_causal (top-left aligned: query i sees keys 0..i), mask causal_tl."""
    shapes = {"q": tuple(q_shape), "k": tuple(k_shape), "v": tuple(v_shape)}
    for name, shape in shapes.items():
        if len(shape) != 4:
            raise ValueError(f"{name}: expected 4 dimensions (B, S, H, D), got shape {shape}")
    (b, sq, hq, d), (bk, sk, hk, dk) = shapes["q"], shapes["k"]
    if shapes["v"] != shapes["k"]:
        raise ValueError(f"v: shape {shapes['v']} must equal k's shape {shapes['k']}")
    if bk != b or dk != d:
        raise ValueError(f"k: shape {shapes['k']} must have q's batch {b} and head dim {d} (q is {shapes['q']})")
    if hk == 0 or hq % hk != 0:
        raise ValueError(f"q: heads {hq} must be a multiple of k's heads {hk} (grouped-query attention)")
    mask = "causal_tl" if causal else "none"
    return (f"batch={b} seqlen_q={sq} seqlen_k={sk} heads_q={hq} heads_kv={hk} head_dim={d} "
            f"dtype={_dtype_name(dtype)} mask={mask}")


def _pair(name: str, value: int | Sequence[int]) -> tuple[int, int]:
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
        raise ValueError(f"{name}: expected an int or two ints, got {value!r}")
    return pair  # type: ignore[return-value]


def conv_problem(x_shape: Sequence[int], w_shape: Sequence[int], dtype: Any, *, stride: int | Sequence[int] = 1,
                 padding: int | Sequence[int] = 0, dilation: int | Sequence[int] = 1) -> str:
    """The convolution problem text of x (N, H, W, C) NHWC and w (K, R, S, C)."""
    x_shape, w_shape = tuple(x_shape), tuple(w_shape)
    if len(x_shape) != 4:
        raise ValueError(f"x: expected 4 dimensions (N, H, W, C), got shape {x_shape}")
    if len(w_shape) != 4:
        raise ValueError(f"w: expected 4 dimensions (K, R, S, C), got shape {w_shape}")
    n, h, w, c = x_shape
    k, r, s, wc = w_shape
    if wc != c:
        raise ValueError(f"w: channels {wc} must equal x's channels {c} (groups are not supported)")
    (sh, sw), (ph, pw), (dh, dw) = _pair("stride", stride), _pair("padding", padding), _pair("dilation", dilation)
    return (f"n={n} h={h} w={w} c={c} k={k} filter_y={r} filter_x={s} stride_h={sh} stride_w={sw} "
            f"pad_h={ph} pad_w={pw} dil_h={dh} dil_w={dw} dtype={_dtype_name(dtype)}")


@functools.lru_cache(maxsize=256)
def planned(kind: str, text: str, arch: str) -> Plan:
    """The dispatch plan of a problem (cached); PlanRefusedError when it is refused."""
    result = plan(kind, text, arch)
    if result.status == "refused":
        raise PlanRefusedError(kind, arch, result)
    return result


_BUILT: dict[tuple[str, str, str], Any] = {}


def _build(family: Any, spec: Any, arch: str) -> Any:
    """build_family, cached by family, spec and arch (a plan's kernels are built once per process)."""
    key = (family.name, spec.to_kv(), arch)
    if key not in _BUILT:
        _BUILT[key] = build_family(family, spec, arch)
    return _BUILT[key]


# -- the device ---------------------------------------------------------------------------------


@dataclass
class TorchDevice(RuntimeDevice):
    """A RuntimeDevice whose buffers are torch tensors' own memory: `buffer` binds a tensor by its
    address (DeviceBuffer(data_ptr, nbytes); a numpy array is copied as RuntimeDevice does), the
    workspace is a torch uint8 tensor on `torch_device` (uninitialised: the plan's zero-fills make
    what must be zero), and `finish` synchronizes and drops those tensors. Launches, kernel loading
    and timing are RuntimeDevice's; `kernels` shares loaded kernels between devices of one backend."""

    torch_device: Any = None
    _tensors: list[Any] = field(default_factory=list)

    def buffer(self, array: Any) -> DeviceBuffer:
        if hasattr(array, "data_ptr"):
            return self.bind(array)
        return super().buffer(array)

    def bind(self, tensor: Any, name: str = "tensor") -> DeviceBuffer:
        if self.torch_device is not None and tensor.device != self.torch_device:
            raise ValueError(f"{name}: on {tensor.device}, the op runs on {self.torch_device}")
        if not tensor.is_contiguous():
            raise ValueError(f"{name}: must be contiguous (strides {tuple(tensor.stride())})")
        self._tensors.append(tensor)
        return DeviceBuffer(int(tensor.data_ptr()), tensor.numel() * tensor.element_size())

    def workspace(self, nbytes: int) -> DeviceBuffer:
        import torch

        tensor = torch.empty(max(1, nbytes), dtype=torch.uint8, device=self.torch_device)
        self._tensors.append(tensor)
        return DeviceBuffer(int(tensor.data_ptr()), nbytes)

    def release(self) -> None:
        super().release()
        self._tensors.clear()


_BACKENDS: dict[int, tuple[Backend, dict[Any, Any]]] = {}


def _device_for(tensor: Any) -> tuple[TorchDevice, str]:
    """A TorchDevice on tensor's GPU and that GPU's arch (the backend and its kernels opened once)."""
    import torch

    if tensor.device.type != "cuda":
        raise ValueError(f"device: rocKE's torch ops take CUDA tensors, got one on {tensor.device}")
    index = tensor.device.index if tensor.device.index is not None else torch.cuda.current_device()
    major, minor = torch.cuda.get_device_capability(index)
    arch = f"sm_{major}{minor}"
    if index not in _BACKENDS:
        _BACKENDS[index] = (open_backend(arch, ordinal=index), {})
    backend, kernels = _BACKENDS[index]
    context = getattr(backend, "_context", None)  # the thread may be autograd's: make the GPU's context current
    if context is not None:
        backend._call("cuCtxSetCurrent", context)  # type: ignore[attr-defined]
    stream = torch.cuda.current_stream(index)
    if stream.cuda_stream != 0:  # the backend launches on the default stream: let the caller's work land first
        stream.synchronize()
    return TorchDevice(backend, _kernels=kernels, torch_device=tensor.device), arch


def _run(kind: str, text: str, arch: str, device: TorchDevice, tensors: dict[str, Any], scalars: dict[str, Any]
         ) -> Plan | None:
    """Plan and execute; None when the problem is dead (nothing to compute)."""
    result = planned(kind, text, arch)
    if result.status == "dead":
        return None
    for launch in result.launches:  # every bound tensor holds the bytes its contracts name
        for arg in launch.contract.args:
            if arg.name in tensors and arg.bytes > tensors[arg.name].numel() * tensors[arg.name].element_size():
                raise ValueError(f"{arg.name}: {kind} launch {launch.family} reads {arg.bytes} bytes, the tensor "
                                 f"holds {tensors[arg.name].numel() * tensors[arg.name].element_size()}")
    for name, tensor in tensors.items():
        if tensor.numel() and tensor.data_ptr() % ALIGN:
            raise ValueError(f"{name}: its address must be a multiple of {ALIGN} bytes")
    given: dict[str, Any] = {name: device.bind(tensor, name) for name, tensor in tensors.items()}
    given.update(scalars)
    execute(result, given, device=device, build=_build)
    return result


def _contiguous(name: str, tensor: Any, like: Any) -> Any:
    import torch

    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(tensor).__name__}")
    if tensor.device != like.device:
        raise ValueError(f"{name}: on {tensor.device}, q/x is on {like.device}")
    if tensor.dtype != like.dtype:
        raise TypeError(f"{name}: dtype {tensor.dtype} differs from {like.dtype}")
    return tensor.contiguous()


# -- attention ----------------------------------------------------------------------------------


def _attention_forward(q: Any, k: Any, v: Any, causal: bool, scale: float) -> tuple[Any, Any]:
    import torch

    text = attention_problem(q.shape, k.shape, v.shape, q.dtype, causal=causal)
    b, sq, hq, _ = q.shape
    o = torch.empty_like(q)
    lse = torch.empty((b, hq, sq), dtype=torch.float32, device=q.device)
    if o.numel() == 0:
        return o, lse
    device, arch = _device_for(q)
    if _run("attention_fwd", text, arch, device, {"q": q, "k": k, "v": v, "o": o, "lse": lse},
            {"scale": scale}) is None:
        o.zero_()
        lse.fill_(-math.inf)
    return o, lse


def _attention_backward(q: Any, k: Any, v: Any, o: Any, lse: Any, do: Any, causal: bool, scale: float
                        ) -> tuple[Any, Any, Any]:
    import torch

    text = attention_problem(q.shape, k.shape, v.shape, q.dtype, causal=causal)
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    if q.numel() == 0 or k.numel() == 0:
        return dq.zero_(), dk.zero_(), dv.zero_()
    device, arch = _device_for(q)
    tensors = {"q": q, "k": k, "v": v, "o": o, "lse": lse, "do": do, "dq": dq, "dk": dk, "dv": dv}
    if _run("attention_bwd", text, arch, device, tensors, {"scale": scale}) is None:
        return dq.zero_(), dk.zero_(), dv.zero_()
    return dq, dk, dv


@functools.cache
def _functions() -> tuple[Any, Any]:
    """The autograd Functions (made on first use: torch is imported here)."""
    import torch
    from torch.autograd.function import once_differentiable

    class Attention(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, q: Any, k: Any, v: Any, causal: bool, scale: float) -> tuple[Any, Any]:
            o, lse = _attention_forward(q, k, v, causal, scale)
            ctx.save_for_backward(q, k, v, o, lse)
            ctx.causal, ctx.scale = causal, scale
            ctx.mark_non_differentiable(lse)
            return o, lse

        @staticmethod
        @once_differentiable
        def backward(ctx: Any, do: Any, _dlse: Any) -> tuple[Any, ...]:
            q, k, v, o, lse = ctx.saved_tensors
            do = _contiguous("dO", do, o)
            dq, dk, dv = _attention_backward(q, k, v, o, lse, do, ctx.causal, ctx.scale)
            return dq, dk, dv, None, None

    class Conv2d(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, w: Any, stride: Any, padding: Any, dilation: Any) -> Any:
            text = conv_problem(x.shape, w.shape, x.dtype, stride=stride, padding=padding, dilation=dilation)
            ctx.save_for_backward(x, w)
            ctx.text = text
            return _conv(x, w, text, "conv_fwd")

        @staticmethod
        @once_differentiable
        def backward(ctx: Any, dy: Any) -> tuple[Any, ...]:
            x, w = ctx.saved_tensors
            dy = _contiguous("dy", dy, x)
            dx = _conv_grad(x, w, dy, ctx.text, "conv_dgrad") if ctx.needs_input_grad[0] else None
            dw = _conv_grad(x, w, dy, ctx.text, "conv_wgrad") if ctx.needs_input_grad[1] else None
            return dx, dw, None, None, None

    return Attention, Conv2d


def attention(q: Any, k: Any, v: Any, *, causal: bool = False, scale: float | None = None,
              return_lse: bool = False) -> Any:
    """softmax(scale * Q K^T [+ causal mask]) V on the GPU through rocKE's attention plans.

    q (B, S_q, H_q, D), k and v (B, S_k, H_kv, D): CUDA tensors, float16 or bfloat16, BSHD (made
    contiguous); H_q a multiple of H_kv (grouped-query attention). causal: torch's is_causal (query
    i sees keys 0..i). scale: default 1/sqrt(D). Returns O (B, S_q, H_q, D), and with return_lse
    also LSE (B, H_q, S_q) float32 (natural log; not differentiable). Differentiable in q, k, v
    (the backward runs the attention_bwd plan). PlanRefusedError names a refused plan's reasons."""
    import torch

    for name, tensor in (("q", q), ("k", k), ("v", v)):
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f"{name}: expected a torch.Tensor, got {type(tensor).__name__}")
    _dtype_name(q.dtype)
    k, v, q = _contiguous("k", k, q), _contiguous("v", v, q), q.contiguous()
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else float(scale)
    attention_fn, _ = _functions()
    o, lse = attention_fn.apply(q, k, v, bool(causal), scale)
    return (o, lse) if return_lse else o


# -- conv2d -------------------------------------------------------------------------------------


def _conv(x: Any, w: Any, text: str, kind: str) -> Any:
    import torch

    from rocke_library.dispatch import KINDS

    problem: Any = KINDS[kind].parse(text)
    ho, wo = problem.output_hw()
    y = torch.empty((problem.n, ho, wo, problem.k), dtype=x.dtype, device=x.device)
    if y.numel() == 0:
        return y
    device, arch = _device_for(x)
    if _run(kind, text, arch, device, {"input": x, "weight": w, "output": y}, {}) is None:
        y.zero_()
    return y


def _conv_grad(x: Any, w: Any, dy: Any, text: str, kind: str) -> Any:
    import torch

    out, tensors = (torch.empty_like(x), {"dy": dy, "weight": w}) if kind == "conv_dgrad" else \
        (torch.empty_like(w), {"input": x, "dy": dy})
    if out.numel() == 0:
        return out
    name = "dx" if kind == "conv_dgrad" else "dw"
    device, arch = _device_for(x)
    if _run(kind, text, arch, device, {**tensors, name: out}, {}) is None:
        out.zero_()
    return out


def conv2d(x: Any, w: Any, *, stride: int | Sequence[int] = 1, padding: int | Sequence[int] = 0,
           dilation: int | Sequence[int] = 1) -> Any:
    """2-D convolution (cross-correlation, as torch's conv2d) on the GPU through rocKE's plans.

    x (N, H, W, C) NHWC and w (K, R, S, C): CUDA tensors, float16 or bfloat16 (made contiguous).
    A channels_last NCHW tensor `t` is passed as `t.permute(0, 2, 3, 1)` (a contiguous NHWC view
    of the same memory, no copy); the weights of torch's (K, C, R, S) as `w.permute(0, 2, 3, 1)`.
    Returns y (N, H_o, W_o, K) NHWC. Differentiable in x and w (conv_dgrad and conv_wgrad plans).
    No groups and no bias. PlanRefusedError names a refused plan's reasons."""
    import torch

    for name, tensor in (("x", x), ("w", w)):
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f"{name}: expected a torch.Tensor, got {type(tensor).__name__}")
    _dtype_name(x.dtype)
    w, x = _contiguous("w", w, x), x.contiguous()
    _, conv_fn = _functions()
    return conv_fn.apply(x, w, stride, padding, dilation)
