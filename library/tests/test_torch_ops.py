"""rocke_library.torch: problem translation (no torch), the TorchDevice binding and the ops end to end
on the loopback backend over CPU tensors (the simulator runs the planned sm_90 kernels on the
tensors' own memory), and on a CUDA GPU against torch's scaled_dot_product_attention and conv2d."""

from __future__ import annotations

import ctypes
import importlib.util
import subprocess
import sys

import numpy as np
import pytest

from rocke.runtime import LoopbackBackend
from rocke_library.torch import PlanRefusedError, attention_problem, conv_problem, planned

HAS_TORCH = importlib.util.find_spec("torch") is not None
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")


def test_attention_problem_text() -> None:
    text = attention_problem((2, 16, 4, 64), (2, 32, 2, 64), (2, 32, 2, 64), "torch.bfloat16", causal=True)
    assert text == ("batch=2 seqlen_q=16 seqlen_k=32 heads_q=4 heads_kv=2 head_dim=64 dtype=bf16 mask=causal_tl")


@pytest.mark.parametrize(("q", "k", "v", "dtype", "field"), [
    ((2, 16, 4), (2, 16, 4, 64), (2, 16, 4, 64), "torch.float16", "q:"),
    ((2, 16, 4, 64), (2, 16, 4, 64), (2, 16, 2, 64), "torch.float16", "v:"),
    ((2, 16, 4, 64), (3, 16, 4, 64), (3, 16, 4, 64), "torch.float16", "k:"),
    ((2, 16, 3, 64), (2, 16, 2, 64), (2, 16, 2, 64), "torch.float16", "q:"),
    ((2, 16, 4, 64), (2, 16, 4, 64), (2, 16, 4, 64), "torch.float32", "dtype:"),
])
def test_attention_problem_errors_name_the_field(q, k, v, dtype, field) -> None:
    with pytest.raises((ValueError, TypeError), match=field):
        attention_problem(q, k, v, dtype)


def test_conv_problem_text_and_errors() -> None:
    assert conv_problem((2, 8, 8, 16), (32, 3, 3, 16), "torch.float16", stride=(2, 1), padding=1) == (
        "n=2 h=8 w=8 c=16 k=32 filter_y=3 filter_x=3 stride_h=2 stride_w=1 pad_h=1 pad_w=1 dil_h=1 dil_w=1 dtype=f16")
    with pytest.raises(ValueError, match="w: channels"):
        conv_problem((2, 8, 8, 16), (32, 3, 3, 8), "torch.float16")
    with pytest.raises(ValueError, match="stride"):
        conv_problem((2, 8, 8, 16), (32, 3, 3, 16), "torch.float16", stride=(1, 2, 3))


def test_refused_plan_names_its_reasons() -> None:
    text = attention_problem((1, 16, 2, 72), (1, 16, 2, 72), (1, 16, 2, 72), "torch.float16")
    with pytest.raises(PlanRefusedError, match="HEAD_DIM_UNSUPPORTED") as info:
        planned("attention_fwd", text, "sm_90")
    assert info.value.reasons == ("HEAD_DIM_UNSUPPORTED",)


class HostLoopback(LoopbackBackend):
    """The loopback backend that also reaches host memory it did not allocate (CPU tensors')."""

    def adopt(self, address: int, nbytes: int) -> None:
        if address in self._memory or nbytes == 0:
            return
        memory = np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(address))
        self._memory[address] = memory
        self._bases = sorted(self._memory)


@pytest.fixture
def on_host(monkeypatch):
    """rocke_library.torch running on CPU tensors: the loopback backend (sm_90) over their memory."""
    torch = pytest.importorskip("torch")
    import rocke_library.torch as ops

    backend = HostLoopback("sm_90", check_races=False)

    class HostDevice(ops.TorchDevice):
        def bind(self, tensor, name="tensor"):
            buffer = super().bind(tensor, name)
            backend.adopt(buffer.address, buffer.nbytes)
            return buffer

        def workspace(self, nbytes):
            buffer = super().workspace(nbytes)
            backend.adopt(buffer.address, max(1, nbytes))
            return buffer

    monkeypatch.setattr(ops, "_device_for", lambda tensor: (HostDevice(backend, torch_device=tensor.device), "sm_90"))
    return torch, backend


@needs_torch
def test_torch_device_binds_tensors_by_address() -> None:
    import torch

    from rocke_library.torch import TorchDevice

    device = TorchDevice(HostLoopback("sm_90"), torch_device=torch.device("cpu"))
    t = torch.zeros(8, 4, dtype=torch.float16)
    buffer = device.buffer(t)
    assert (buffer.address, buffer.nbytes) == (t.data_ptr(), 64)
    with pytest.raises(ValueError, match="x: must be contiguous"):
        device.bind(t.t(), "x")
    workspace = device.workspace(100)
    assert workspace.nbytes == 100 and device.view(workspace, 16, 32, np.dtype(np.float32)).address == \
        workspace.address + 16
    device.finish()
    assert device._tensors == []


def _reference_attention(torch, q, k, v, causal, scale):
    group = q.shape[2] // k.shape[2]
    qt, kt, vt = (t.double().transpose(1, 2) for t in (q, k, v))
    kt, vt = kt.repeat_interleave(group, 1), vt.repeat_interleave(group, 1)
    o = torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, is_causal=causal, scale=scale)
    return o.transpose(1, 2)


def _attention_check(torch, device, dtype, causal, shape=(1, 16, 16, 2, 1, 32), tol=2e-2):
    from rocke_library.torch import attention

    b, sq, sk, hq, hk, d = shape
    gen = torch.Generator(device="cpu").manual_seed(0)
    q, k, v = (torch.randn(b, s, h, d, generator=gen).to(device=device, dtype=dtype).requires_grad_()
               for s, h in ((sq, hq), (sk, hk), (sk, hk)))
    do = torch.randn(b, sq, hq, d, generator=gen).to(device=device, dtype=dtype)
    o, lse = attention(q, k, v, causal=causal, return_lse=True)
    o.backward(do)
    scale = 1.0 / d ** 0.5
    qr, kr, vr = (t.detach().double().requires_grad_() for t in (q, k, v))
    want = _reference_attention(torch, qr, kr, vr, causal, scale)
    want.backward(do.double())
    torch.testing.assert_close(o.double(), want, rtol=tol, atol=tol)
    scores = torch.einsum("bqhd,bkhd->bhqk", qr.detach(), kr.detach().repeat_interleave(hq // hk, 2)) * scale
    if causal:
        scores = scores.masked_fill(torch.ones(sq, sk, dtype=torch.bool, device=device).triu(1), -torch.inf)
    torch.testing.assert_close(lse.double(), torch.logsumexp(scores, -1), rtol=1e-3, atol=1e-3)
    for got, ref in ((q.grad, qr.grad), (k.grad, kr.grad), (v.grad, vr.grad)):
        torch.testing.assert_close(got.double(), ref, rtol=tol * 2, atol=tol * 2)


@pytest.mark.parametrize(("dtype", "shape", "causal"), [
    ("float16", (1, 16, 16, 2, 1, 32), False),
    ("float16", (1, 16, 16, 2, 1, 32), True),
    ("bfloat16", (2, 8, 24, 4, 2, 32), True),  # GQA 2:1, S_q < S_k, top-left causal
])
def test_attention_on_host_tensors(on_host, dtype, shape, causal) -> None:
    torch, backend = on_host
    _attention_check(torch, "cpu", getattr(torch, dtype), causal, shape)
    launched = [entry[0] for entry in backend.launches]
    assert launched[0].startswith("attention_fwd") and any("bwd" in name for name in launched), launched


def test_importing_the_library_needs_no_torch() -> None:
    code = "import sys, rocke_library, rocke_library.torch; sys.exit('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_conv2d_on_host_tensors(on_host) -> None:
    torch, _ = on_host
    _conv_check(torch, "cpu", torch.float16)


def _conv_check(torch, device, dtype, tol=2e-2):
    from rocke_library.torch import conv2d

    gen = torch.Generator(device="cpu").manual_seed(0)
    x = torch.rand(2, 6, 6, 16, generator=gen).sub(0.5).to(device=device, dtype=dtype).requires_grad_()
    w = torch.rand(32, 3, 3, 16, generator=gen).sub(0.5).to(device=device, dtype=dtype).requires_grad_()
    y = conv2d(x, w, padding=1)
    dy = torch.rand(y.shape, generator=gen).sub(0.5).to(device=device, dtype=dtype)
    y.backward(dy)
    xr, wr = (t.detach().double().requires_grad_() for t in (x, w))
    want = torch.nn.functional.conv2d(xr.permute(0, 3, 1, 2), wr.permute(0, 3, 1, 2), padding=1).permute(0, 2, 3, 1)
    want.backward(dy.double())
    torch.testing.assert_close(y.double(), want, rtol=tol, atol=tol)
    torch.testing.assert_close(x.grad.double(), xr.grad, rtol=tol, atol=tol)
    torch.testing.assert_close(w.grad.double(), wr.grad, rtol=tol * 2, atol=tol * 2)


def _cuda() -> bool:
    if not HAS_TORCH:
        return False
    import torch

    return torch.cuda.is_available()


needs_gpu = pytest.mark.skipif(not _cuda(), reason="no CUDA GPU (or no torch)")


@needs_gpu
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize(("shape", "causal"), [((2, 64, 64, 4, 4, 64), False), ((2, 64, 64, 4, 4, 64), True),
                                                ((1, 128, 128, 8, 2, 128), True), ((2, 48, 80, 2, 1, 32), False),
                                                ((1, 40, 72, 4, 1, 64), True)])
def test_attention_on_gpu(dtype, shape, causal) -> None:
    import torch

    _attention_check(torch, "cuda", getattr(torch, dtype), causal, shape, tol=3e-2)


@needs_gpu
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_conv2d_on_gpu(dtype) -> None:
    import torch

    _conv_check(torch, "cuda", getattr(torch, dtype), tol=3e-2 if dtype == "float16" else 6e-2)


@needs_torch
def test_ops_take_cuda_tensors_and_name_bad_arguments() -> None:
    import torch

    from rocke_library.torch import attention, conv2d

    q = torch.zeros(1, 16, 2, 32, dtype=torch.float16)
    with pytest.raises(ValueError, match="device: rocKE's torch ops take CUDA tensors"):
        attention(q, q, q)
    with pytest.raises(TypeError, match="dtype"):
        attention(q.float(), q.float(), q.float())
    with pytest.raises(TypeError, match="k: dtype"):
        attention(q, q.bfloat16(), q)
    with pytest.raises(TypeError, match=r"w: expected a torch\.Tensor"):
        conv2d(torch.zeros(1, 4, 4, 8, dtype=torch.float16), np.zeros((8, 1, 1, 8), np.float16))


def test_misaligned_tensor_is_refused(on_host) -> None:
    torch, _ = on_host
    from rocke_library.torch import attention

    base = torch.zeros(1 * 16 * 2 * 32 + 1, dtype=torch.float16)
    q = base[1:].view(1, 16, 2, 32)  # 2 bytes past a 16-byte boundary
    k = torch.zeros(1, 16, 2, 32, dtype=torch.float16)
    with pytest.raises(ValueError, match="q: its address must be a multiple of 16 bytes"):
        attention(q, k, k)
