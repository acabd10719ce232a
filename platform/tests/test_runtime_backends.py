"""Backends without a GPU: the one-line errors when nothing can launch, the CUDA backend's driver
calls against a stand-in driver (the parameter buffer it hands cuLaunchKernel), the HIP stub, the
compile seam, kernarg packing against real `.amdhsa` metadata, and `rocke run`."""

from __future__ import annotations

import ctypes
import dataclasses
import enum
import sys
import types

import numpy as np
import pytest

from rocke.cli import app, run_cmd
from rocke.families import build_family, get_family
from rocke.families.elementwise.numerics import edge_problem
from rocke.families.elementwise.spec import ElementwiseSpec
from rocke.families.launcher import launches_on
from rocke.isa import compile_ll
from rocke.runtime import (
    LoopbackBackend,
    RuntimeDevice,
    RuntimeUnavailableError,
    compile_code_object,
    contract_layout,
    kernel_layout,
    open_backend,
    toolchain_version,
    vendor_of,
)
from rocke.runtime.cuda import CudaBackend, load_driver
from rocke.runtime.errors import DeviceError
from rocke.runtime.hip import HipBackend, amdhsa_kernargs, check_kernargs

ELEMENTWISE = ElementwiseSpec.from_kv("block=256 dtype=f16 op=add vec=8")


def test_vendors_come_from_the_arch_target():
    assert vendor_of("gfx942") == "amd" and vendor_of("sm_90") == "nvidia"
    with pytest.raises(ValueError, match="unknown arch 'h100'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90"):
        vendor_of("h100")


# ---- the CUDA backend -------------------------------------------------------------------------------


def test_missing_cuda_bindings_is_one_line_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "cuda", None)
    monkeypatch.setitem(sys.modules, "cuda.bindings", None)
    with pytest.raises(RuntimeUnavailableError) as info:
        load_driver()
    assert str(info.value) == "no CUDA backend: cuda-bindings is not installed (pip install 'rocke[cuda]')"
    with pytest.raises(RuntimeUnavailableError, match="cuda-bindings is not installed"):
        open_backend("sm_90")


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_NO_DEVICE = 100
    CUDA_ERROR_INVALID_IMAGE = 200


class FakeDriver:
    """The part of cuda.bindings.driver the backend calls, with host memory, recording every call."""

    CUresult = CUresult
    CUdevice_attribute = types.SimpleNamespace(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR="cc_major",
                                               CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR="cc_minor")
    CUfunction_attribute = types.SimpleNamespace(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES="max_dyn_shared")
    CUevent_flags = types.SimpleNamespace(CU_EVENT_DEFAULT=0)

    def __init__(self, *, devices: int = 1, init: object = CUresult.CUDA_SUCCESS) -> None:
        self.devices, self.init = devices, init
        self.capability = (9, 0)  # compute capability the device reports
        self.calls: list[tuple] = []
        self.memory: dict[int, ctypes.Array] = {}
        self.params: list[bytes] = []
        self.fail: dict[str, CUresult] = {}

    def __getattr__(self, name: str):
        if not name.startswith("cu"):
            raise AttributeError(name)

        def call(*args):
            self.calls.append((name, *args))
            if name in self.fail:
                return (self.fail[name],)
            return (CUresult.CUDA_SUCCESS, *getattr(self, "_" + name)(*args))

        return call

    def cuInit(self, flags):
        if isinstance(self.init, Exception):
            raise self.init
        return (self.init,)

    def cuGetErrorName(self, result):
        return CUresult.CUDA_SUCCESS, CUresult(result).name.encode()

    CUstream = staticmethod(lambda handle: ("stream", handle))
    CUdeviceptr = staticmethod(int)

    def _cuDeviceGetCount(self):
        return (self.devices,)

    def _cuDeviceGet(self, ordinal):
        return (("device", ordinal),)

    def _cuDeviceGetAttribute(self, attribute, device):
        return ({"cc_major": self.capability[0], "cc_minor": self.capability[1]}[attribute],)

    def _cuDeviceGetName(self, length, device):
        return (b"NVIDIA H100 80GB HBM3\0\0\0",)

    def _cuDevicePrimaryCtxRetain(self, device):
        return (("context", device),)

    def _cuCtxSetCurrent(self, context):
        return ()

    def _cuModuleLoadData(self, image):
        return (("module", bytes(image)),)

    def _cuModuleGetFunction(self, module, name):
        return (("function", name),)

    def _cuMemAlloc(self, nbytes):
        block = ctypes.create_string_buffer(nbytes)
        self.memory[ctypes.addressof(block)] = block
        return (ctypes.addressof(block),)

    def _cuMemcpyHtoD(self, device, host, nbytes):
        ctypes.memmove(device, host, nbytes)
        return ()

    def _cuMemcpyDtoH(self, host, device, nbytes):
        ctypes.memmove(host, device, nbytes)
        return ()

    def _cuMemsetD8(self, device, byte, nbytes):
        ctypes.memset(device, byte, nbytes)
        return ()

    def _cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        marks = (ctypes.c_void_p * 5).from_address(extra)
        assert (marks[0], marks[2], marks[4]) == (1, 2, None)  # BUFFER_POINTER, BUFFER_SIZE, END
        size = ctypes.c_size_t.from_address(marks[3]).value
        self.params.append(ctypes.string_at(marks[1], size))
        return ()

    def _cuFuncSetAttribute(self, function, attribute, value):
        return ()

    def _cuEventCreate(self, flags):
        return (("event", len(self.calls)),)

    def _cuEventRecord(self, event, stream):
        return ()

    def _cuEventSynchronize(self, event):
        return ()

    def _cuEventElapsedTime(self, start, end):
        return (0.25,)

    def _cuEventDestroy(self, event):
        return ()

    def _cuCtxSynchronize(self):
        return ()

    def _cuMemFree(self, device):
        del self.memory[device]
        return ()

    def _cuModuleUnload(self, module):
        return ()

    def _cuDevicePrimaryCtxRelease(self, device):
        return ()


@pytest.mark.parametrize(("driver", "message"), [
    (FakeDriver(init=OSError("libcuda.so.1: cannot open\nshared object file")),
     "no NVIDIA driver: libcuda.so.1: cannot open shared object file"),
    (FakeDriver(init=CUresult.CUDA_ERROR_NO_DEVICE), "no NVIDIA GPU: cuInit failed with CUDA_ERROR_NO_DEVICE"),
    (FakeDriver(devices=0), "no NVIDIA GPU 0: the driver sees 0"),
])
def test_no_driver_or_no_gpu_is_one_line(driver, message):
    with pytest.raises(RuntimeUnavailableError) as info:
        CudaBackend(0, driver=driver)
    assert str(info.value) == message


def test_the_installed_bindings_without_a_gpu_say_so():
    try:
        load_driver()
    except RuntimeUnavailableError:
        pytest.skip("cuda-bindings is not installed")
    try:
        backend = CudaBackend(0)
    except RuntimeUnavailableError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("no NVIDIA")
        return
    backend.close()
    pytest.skip("a GPU is present")


def test_cuda_backend_opens_the_primary_context_and_names_the_device():
    driver = FakeDriver()
    backend = CudaBackend(0, driver=driver)
    assert (backend.arch, backend.device_name) == ("sm_90", "NVIDIA H100 80GB HBM3")
    assert ("cuCtxSetCurrent", ("context", ("device", 0))) in driver.calls
    backend.close()
    assert driver.calls[-1] == ("cuDevicePrimaryCtxRelease", ("device", 0))


def test_a_failed_driver_call_names_the_call_and_the_error():
    driver = FakeDriver()
    backend = CudaBackend(0, driver=driver)
    driver.fail["cuModuleLoadData"] = CUresult.CUDA_ERROR_INVALID_IMAGE
    with pytest.raises(DeviceError) as info:
        backend.load_module(b"not a cubin")
    assert str(info.value) == "cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE"


def test_a_contract_launch_through_the_cuda_backend():
    """RuntimeDevice.run on the CUDA backend: buffers allocated and copied, the parameter buffer
    is the contract's layout with the buffers' device addresses, outputs copied back, all freed."""
    driver = FakeDriver()
    backend = CudaBackend(0, driver=driver)
    family = get_family("elementwise")
    n = edge_problem(ELEMENTWISE)["n"]
    contract = family.launch(ELEMENTWISE, {"n": n})
    kernel = build_family(family, ELEMENTWISE, "gfx942")
    device = RuntimeDevice(backend, code_object=lambda k, arch, flavor: b"cubin of " + k.name.encode())
    x, y = np.arange(n, dtype=np.float16), np.ones(n, np.float16)
    out = np.full(n, 7.0, np.float16)
    device.run(kernel, arch="sm_90", grid=contract.grid, block=contract.block,
               args=contract.ordered_args({"x": x, "y": y, "out": out}))
    (params,) = driver.params
    addresses = [call[1] for call in driver.calls if call[0] == "cuMemcpyHtoD"]
    assert contract_layout(contract).unpack(params) == [*addresses, n]
    launch = next(call for call in driver.calls if call[0] == "cuLaunchKernel")
    assert launch[1:9] == (("function", kernel.name.encode()), *contract.grid, *contract.block, 0)
    assert ("cuModuleLoadData", b"cubin of " + kernel.name.encode()) in driver.calls
    assert np.all(out == 7.0)  # the stand-in runs nothing: what came back is what went in
    assert driver.memory == {} and device.milliseconds == 0.25
    names = [call[0] for call in driver.calls]
    assert names.index("cuLaunchKernel") < names.index("cuCtxSynchronize") < names.index("cuMemcpyDtoH")


def test_dynamic_shared_memory_past_48k_opts_the_kernel_in_once():
    driver = FakeDriver()
    backend = CudaBackend(0, driver=driver)
    function = backend.get_kernel(backend.load_module(b"x"), "k")
    for _ in range(2):
        backend.launch(function, (1, 1, 1), (32, 1, 1), b"\0" * 4, shared_bytes=100_000)
    assert [c for c in driver.calls if c[0] == "cuFuncSetAttribute"] == [
        ("cuFuncSetAttribute", function, "max_dyn_shared", 100_000)]


def test_open_backend_refuses_a_gpu_of_another_arch(monkeypatch):
    import rocke.runtime.cuda as cuda

    monkeypatch.setattr(cuda, "CudaBackend", lambda ordinal: CudaBackend(ordinal, driver=FakeDriver()))
    assert open_backend("sm_90").arch == "sm_90"
    newer = FakeDriver()
    newer.capability = (10, 0)
    monkeypatch.setattr(cuda, "CudaBackend", lambda ordinal: CudaBackend(ordinal, driver=newer))
    with pytest.raises(RuntimeUnavailableError) as info:
        open_backend("sm_90")
    assert str(info.value) == "GPU 0 is NVIDIA H100 80GB HBM3 (sm_100), not sm_90"


# ---- AMD ----------------------------------------------------------------------------------------------


def test_the_hip_backend_says_it_never_launched_on_amd_hardware():
    for opening in (lambda: HipBackend(0), lambda: open_backend("gfx942")):
        with pytest.raises(NotImplementedError) as info:
            opening()
        assert isinstance(info.value, RuntimeUnavailableError)
        assert str(info.value) == ("the HIP backend is an interface only: rocKE has never launched a kernel on AMD "
                                   "hardware")


@pytest.mark.parametrize(("name", "kv", "problem"), [
    ("elementwise", "block=256 dtype=f16 op=add vec=8", {"n": 5000}),
    ("gemm", "a_dtype=f16 a_layout=col b_dtype=f16 b_layout=col bias=1 bk=16 bm=32 bn=32 c_dtype=f32 "
             "double_buffer=0 lds_pad=2 op_id=mfma_f32_16x16x16_f16 wm=1 wn=1", {"m": 40, "n": 35, "k": 50}),
])
def test_contract_packing_matches_the_amdhsa_kernarg_metadata(name, kv, problem):
    from rocke.engine import lower

    family = get_family(name)
    spec = family.spec.from_kv(kv)
    contract = family.launch(spec, problem)
    kernel = build_family(family, spec, "gfx942")
    asm = compile_ll(lower(kernel, arch="gfx942", flavor="llvm22"), "gfx942", "llvm22")
    kernargs = amdhsa_kernargs(asm, kernel.name)
    assert [k.value_kind for k in kernargs] == ["global_buffer" if a.type.startswith("ptr") else "by_value"
                                                for a in contract.args]
    check_kernargs(contract_layout(contract), kernargs, kernel.name)
    layout = kernel_layout(kernel)
    last = layout.slots[-1]
    moved = dataclasses.replace(layout, slots=(*layout.slots[:-1], dataclasses.replace(last, offset=0)))
    with pytest.raises(ValueError, match=f"argument {last.name} .* the metadata has"):
        check_kernargs(moved, kernargs, kernel.name)
    with pytest.raises(ValueError, match=r"no kernel nope in the \.amdhsa metadata"):
        amdhsa_kernargs(asm, "nope")


# ---- the compile seam ------------------------------------------------------------------------------------


@pytest.mark.validity
def test_an_nvidia_kernel_becomes_a_cubin():
    """sm_90: rocke.lower, LLVM's PTX, ptxas: an ELF cubin whose toolchain version names ptxas."""
    from rocke.isa import find_ptxas, running_flavor

    if find_ptxas() is None:
        pytest.skip("ptxas not found: pip install nvidia-cuda-nvcc-cu12")
    flavor = running_flavor()
    kernel = build_family(get_family("elementwise"), ELEMENTWISE, "sm_90")
    cubin = compile_code_object(kernel, "sm_90", flavor)
    assert cubin[:4] == b"\x7fELF"
    assert "Build cuda_" in toolchain_version("sm_90", flavor)  # ptxas --version's build line
    assert toolchain_version("gfx942", flavor).startswith("rocke ")


# ---- rocke run ---------------------------------------------------------------------------------------------


def _main(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = app.main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_run_with_no_gpu_is_one_line_and_exit_2_before_building(monkeypatch, capsys):
    import rocke.families as families

    monkeypatch.setattr(families, "build_family", lambda *a: pytest.fail("built before the device was checked"))
    code, out, err = _main(["run", "elementwise", "--config", "0"], capsys)
    assert (code, out) == (2, "")
    assert err == ("rocke run: error: the HIP backend is an interface only: rocKE has never launched a kernel on "
                   "AMD hardware\n")

    def no_cuda(arch):
        raise RuntimeUnavailableError("no CUDA backend: cuda-bindings is not installed (pip install 'rocke[cuda]')")

    monkeypatch.setattr(run_cmd, "open_backend", no_cuda)
    code, out, err = _main(["run", "gemm", "--config", "0"], capsys)
    assert (code, out) == (2, "")
    assert err == "rocke run: error: no CUDA backend: cuda-bindings is not installed (pip install 'rocke[cuda]')\n"


def test_run_on_the_loopback_device_matches_the_simulator(monkeypatch, capsys):
    """The whole `rocke run` path (numeric check, device buffers, packing, launch, copies back) on
    the loopback backend: the same errors as `rocke sim` prints, and nothing left allocated."""
    opened: list[LoopbackBackend] = []

    def loopback(arch):
        opened.append(LoopbackBackend(arch))
        return opened[-1]

    monkeypatch.setattr(run_cmd, "open_backend", loopback)
    for family in ("elementwise", "gemm"):
        code, out, err = _main(["run", family, "--config", "0", "--seed", "5"], capsys)
        assert code == 0, err
        sim_code, sim_out, _ = _main(["sim", family, "--config", "0", "--seed", "5"], capsys)
        assert sim_code == 0
        errors = sim_out.splitlines()[0].split(": ", 1)[1]
        first, second, verdict = out.splitlines()
        assert first.endswith(f", loopback {opened[-1].arch} (simulator): {errors}")
        assert second.startswith("  1 launch(es), ") and verdict == "PASS"
        assert opened[-1].allocations == 0 and len(opened[-1].launches) == 1


def test_launches_on_routes_the_numeric_checks_and_restores_the_simulator():
    from rocke.families import launcher
    from rocke.sim import run as sim_run

    seen: list[str] = []
    with launches_on(lambda kernel, **kwargs: seen.append(kernel)):
        launcher.run("k1", arch="gfx942")
        with pytest.raises(RuntimeError), launches_on(lambda kernel, **kwargs: (_ for _ in ()).throw(RuntimeError())):
            launcher.run("k2")
        launcher.run("k3")
    assert seen == ["k1", "k3"]
    assert launcher._LAUNCHER.get() is None and launcher.sim_run is sim_run
