"""Launching: verification first, grid/block/argument checks with exact messages, LDS limits,
kernels given as rocke.ir/1 text, scalar argument conversion, and the handler table."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from rocke.ir import OPS, Builder, KernelDef, VerifyError, bf16, f16, f32, i8, i32, print_kernel, ptr
from rocke.ir.samples import sample_kernels
from rocke.sim import HANDLERS, LaunchError, RunInfo, SimError, run


def scale_kernel() -> KernelDef:
    b = Builder("scale", max_workgroup_size=128)
    x = b.param("x", ptr(f32, "global"))
    s = b.param("s", f16)
    k = b.param("k", i8)
    t = b.thread_id_x()
    value = b.mul(b.load(x, t), b.extf(s, f32))
    b.store(x, t, b.add(value, b.sitofp(k, f32)))
    return b.finish()


def test_run_reports_what_it_did() -> None:
    x = np.ones(64, np.float32)
    info = run(scale_kernel(), arch="gfx942", grid=(1,), block=[64, 1, 1], args=[x, 0.5, -3])
    assert info == RunInfo("scale", "gfx942", (1, 1, 1), (64, 1, 1), 1, 1, 0, info.ops_executed)
    assert x.tolist() == [-2.5] * 64


def test_scalar_arguments_round_and_wrap() -> None:
    x = np.ones(4, np.float32)
    # 1/3 rounds to the nearest f16; 255 wraps to the i8 value -1
    run(scale_kernel(), arch="gfx942", grid=1, block=4, args=[x, 1 / 3, 255])
    assert x.tolist() == [float(np.float16(1 / 3)) - 1.0] * 4


def test_kernel_text_is_accepted() -> None:
    x = np.ones(4, np.float32)
    run(print_kernel(scale_kernel()), arch="gfx1100", grid=1, block=4, args=[x, 2.0, 1])
    assert x.tolist() == [3.0] * 4


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"block": 256}, r"^launch: block of 256 threads exceeds the limit of 128 \(kernel max_workgroup_size and "
                     r"gfx942\)$"),
    ({"grid": (1, 2, 3, 4)}, r"^launch: grid must be an int or 1 to 3 ints, got 4 values$"),
    ({"grid": 0}, r"^launch: grid dimensions must be in 1\.\.2147483647, got 0$"),
    ({"block": 1.5}, r"^launch: block must be an int or 1 to 3 ints"),
    ({"args": [np.ones(4, np.float32), 1.0]}, r"^launch: kernel @scale takes 3 argument\(s\), got 2$"),
    ({"args": [np.ones(4, np.float64), 1.0, 1]}, r"^param #0 %0 'x': type ptr<f32, global> needs a numpy array of "
                                                 r"float32 \(or a same-size integer array holding its bits\), got "
                                                 r"float64$"),
    ({"args": [[1.0], 1.0, 1]}, r"^param #0 %0 'x': type ptr<f32, global> needs a numpy array, got list$"),
    ({"args": [np.ones(4, np.float32), "1", 1]}, r"^param #1 %1 's': type f16 needs a float, got str$"),
    ({"args": [np.ones(4, np.float32), 1.0, 1.0]}, r"^param #2 %2 'k': type i8 needs an int, got float$"),
    ({"args": [np.ones(4, np.float32), 1.0, 256]}, r"^param #2 %2 'k': value 256 does not fit in i8$"),
    ({"args": {"x": np.ones(4, np.float32), "s": 1.0}}, r"^launch: missing argument\(s\): k$"),
    ({"args": {"x": np.ones(4, np.float32), "s": 1.0, "k": 1, "q": 2}}, r"^launch: unknown argument name\(s\): q$"),
    ({"max_batch_lanes": 0}, r"^launch: max_batch_lanes must be a positive int$"),
])
def test_launch_errors(kwargs: dict, message: str) -> None:
    launch = {"arch": "gfx942", "grid": 1, "block": 4, "args": [np.ones(4, np.float32), 1.0, 1]}
    launch.update(kwargs)
    with pytest.raises(LaunchError, match=message) as info:
        run(scale_kernel(), **launch)
    assert isinstance(info.value, SimError) and isinstance(info.value, RuntimeError)


def test_lds_beyond_the_arch_limit_is_refused() -> None:
    b = Builder("big_lds", max_workgroup_size=64)
    b.lds_alloc(f32, 16384)
    b.lds_alloc(f32, 8, align=64)
    kernel = b.finish()
    with pytest.raises(LaunchError, match=r"^launch: kernel @big_lds allocates 65568 bytes of LDS; gfx942 allows "
                                          r"65536 per workgroup$"):
        run(kernel, arch="gfx942", grid=1, block=64, args=[])
    assert run(kernel, arch="gfx950", grid=1, block=64, args=[]).lds_bytes == 65568  # 160 KiB on gfx950


def test_verifier_runs_first_with_the_arch() -> None:
    kernel = sample_kernels()["gemm_wmma"]  # a gfx11 WMMA op: not available on gfx942
    with pytest.raises(VerifyError, match=r"^\[arch\] mma\.mma %\d+ at body\[\d+\]: op_id "
                                          r"'wmma_f32_16x16x16_f16_gfx11' is not available on gfx942$"):
        run(kernel, arch="gfx942", grid=1, block=32, args=[])


def test_bf16_arrays_and_scalars() -> None:
    b = Builder("bf", max_workgroup_size=64)
    x = b.param("x", ptr(bf16, "global"))
    s = b.param("s", bf16)
    t = b.thread_id_x()
    b.store(x, t, b.add(b.load(x, t), s))
    x_a = np.arange(8).astype(ml_dtypes.bfloat16)
    run(b.finish(), arch="gfx1201", grid=1, block=8, args=[x_a, 1 + 2**-8 + 2**-30])  # rounds up to 1 + 2^-7
    assert x_a.astype(np.float64).tolist() == [float(ml_dtypes.bfloat16(v + 1.0078125)) for v in range(8)]


def test_every_op_of_the_table_has_a_handler() -> None:
    names = {op.name for op in OPS}
    assert set(HANDLERS) == names - {"scf.yield"}


def test_scalar_params_accept_numpy_scalars() -> None:
    x = np.ones(2, np.float32)
    run(scale_kernel(), arch="gfx942", grid=1, block=2, args=[x, np.float32(2.0), np.int64(-1)])
    assert x.tolist() == [1.0, 1.0]
    run(scale_kernel(), arch="gfx942", grid=1, block=2, args=[x, np.array(1.0), np.array(0, np.int8)])
    assert x.tolist() == [1.0, 1.0]
    assert i32.bits == 32


def test_compare_reports_the_worst_element() -> None:
    from rocke.sim import assert_close, compare

    ok = compare(np.array([1.0, np.nan, np.inf]), [1.0 + 1e-9, np.nan, np.inf], rtol=1e-6, atol=0.0, name="v")
    assert ok.ok and ok.mismatches == 0 and ok.message.startswith("v: all 3 elements within atol=0 + rtol=1e-06")
    bad = compare(np.array([[1.0, 2.0], [3.0, 9.0]]), [[1.0, 2.5], [3.0, 4.0]], rtol=0.0, atol=0.1, name="m")
    assert not bad.ok and bad.mismatches == 2 and bad.worst_index == (1, 1)
    assert bad.message == ("m: 2 of 4 elements differ beyond atol=0.1 + rtol=0 * |expected|; worst at [1, 1]: got "
                           "9.0, expected 4.0")
    assert not compare([np.nan], [1.0], rtol=1.0, atol=1.0).ok
    assert not compare(np.zeros(3), np.zeros(4), rtol=0, atol=0).ok
    with pytest.raises(AssertionError, match=r"^m: 2 of 4 elements differ"):
        assert_close(np.array([[1.0, 2.0], [3.0, 9.0]]), [[1.0, 2.5], [3.0, 4.0]], rtol=0.0, atol=0.1, name="m")
