"""rocke.helpers.buffers on the simulator: guarded vector loads read 0 past `valid`, guarded stores
drop past it, and neither ever touches memory past the buffer's records."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from rocke.helpers import OOB_OFFSET, buffer_rsrc, elem_bytes, ir_type, load_guarded, store_guarded, vector_type
from rocke.ir import Builder, KernelDef, i32, ptr
from rocke.sim import run

NP = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
BLOCK = 64


def copy_kernel(dtype: str, lanes: int) -> KernelDef:
    """Thread t copies elements t*lanes .. +lanes-1 of x (n records) to out (n records) through the
    guarded helpers and dumps what it loaded to `seen` with plain stores."""
    elem = ir_type(dtype)
    b = Builder(f"copy_{dtype}_{lanes}", max_workgroup_size=BLOCK)
    x = b.param("x", ptr(elem, "global"), readonly=True)
    out = b.param("out", ptr(elem, "global"))
    seen = b.param("seen", ptr(elem, "global"))
    n = b.param("n", i32)
    first = b.mul(b.thread_id_x(), b.const(lanes, i32))
    valid = b.sub(n, first)
    value = load_guarded(b, buffer_rsrc(b, x, n, elem_bytes(dtype)), first, valid, elem, lanes)
    assert value.type == vector_type(elem, lanes)
    b.store(seen, first, value)
    store_guarded(b, buffer_rsrc(b, out, n, elem_bytes(dtype)), first, valid, value, elem, lanes)
    return b.finish()


CASES = [(d, v) for d in ("f16", "bf16", "f32") for v in (1, 2, 4, 8) if v * elem_bytes(d) <= 16]


@pytest.mark.parametrize(("dtype", "lanes"), CASES)
@pytest.mark.parametrize("n", [1, 37, 64])
def test_guarded_copy(dtype: str, lanes: int, n: int) -> None:
    total = BLOCK * lanes
    rng = np.random.default_rng(n)
    x = rng.uniform(1, 2, total).astype(NP[dtype])  # never 0: a zero proves a masked read
    out = np.full(total, -3.0, NP[dtype])
    seen = np.full(total, -3.0, NP[dtype])
    run(copy_kernel(dtype, lanes), arch="gfx942", grid=1, block=BLOCK, args=[x, out, seen, n])
    expected = np.where(np.arange(total) < n, x, np.zeros(total, NP[dtype]))
    assert seen.astype(np.float64).tolist() == expected.astype(np.float64).tolist()
    kept = np.where(np.arange(total) < n, x, np.full(total, -3.0, NP[dtype]))
    assert out.astype(np.float64).tolist() == kept.astype(np.float64).tolist()


def test_oob_offset_is_past_every_addressable_buffer() -> None:
    assert OOB_OFFSET == -(2**31)
    assert OOB_OFFSET % 2**32 == 2**31  # as the unsigned byte offset the hardware sees
