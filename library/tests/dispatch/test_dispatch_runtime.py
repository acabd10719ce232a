"""Plans executed through the runtime's device shape (rocke_library.dispatch.execute with a device):
the simulator device and a RuntimeDevice on the loopback backend (device memory, packed parameter
buffers, the simulator behind them) give bit-identical results; the launches the backend sees are
the plan's (kernel, grid, block, the arguments packed by the contract's layout: buffers at their
device addresses, workspace slices at the workspace's address plus their offset, sizes and
scalars by value); zero-fills come before the launch that needs them; nothing stays allocated.
The attention backward's plan (a shared workspace layout) runs through `execute` bit for bit as
the backward simulator's own plan runner runs it."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest

from rocke.families import build_family
from rocke.ir import parse_type
from rocke.runtime import LoopbackBackend, RuntimeDevice, contract_layout, kernel_layout
from rocke.sim.dtypes import numpy_dtype
from rocke_library.dispatch import plan
from rocke_library.dispatch.execute import execute
from rocke_library.families import defined

PLANS = [
    # (kind, arch, problem, varlen sequence lengths (q, k)): split-K wgrad (a workspace slice, a
    # zero-fill, a convert launch reading the slice), conv_fwd with bias, varlen attention (index
    # buffers and an f32 scalar), the attention backward (a shared layout, four launches)
    ("conv_wgrad", "gfx1201", "n=2 h=16 w=16 c=8 k=8 filter_y=1 filter_x=1 dtype=bf16", None),
    ("conv_fwd", "gfx942", "n=1 h=5 w=6 c=8 k=12 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16 bias=1 relu=1", None),
    ("attention_fwd", "gfx950", "batch=3 seqlen_q=20 seqlen_k=17 total_q=35 total_k=30 seq_mode=varlen heads_q=2 "
     "heads_kv=2 head_dim=32 dtype=f16", ((20, 0, 15), (17, 13, 0))),
    ("attention_bwd", "gfx942", "batch=1 seqlen_q=29 seqlen_k=23 heads_q=4 heads_kv=2 head_dim=64 dtype=f16 "
     "mask=causal_br", None),
]
SENTINEL = -7.0
SCALE = 0.125


class RecordingLoopback(LoopbackBackend):
    """The loopback backend, logging allocations, fills and launches in order."""

    def __init__(self, arch: str) -> None:
        super().__init__(arch, check_races=False)
        self.log: list[tuple] = []

    def alloc(self, nbytes: int) -> int:
        address = super().alloc(nbytes)
        self.log.append(("alloc", address, nbytes))
        return address

    def fill(self, address: int, nbytes: int, byte: int) -> None:
        super().fill(address, nbytes, byte)
        self.log.append(("fill", address, nbytes, byte))

    def launch(self, kernel, grid, block, params, *, shared_bytes=0) -> None:
        super().launch(kernel, grid, block, params, shared_bytes=shared_bytes)
        self.log.append(("launch", kernel.name))


def _workspace_names(result) -> set[str]:
    return {"workspace"} | ({piece.name for piece in result.workspace[0]} if result.shared is not None else set())


def _given(result, lengths) -> dict[str, object]:
    """Every caller argument of the plan: inputs random, outputs SENTINEL, index buffers from lengths."""
    rng = np.random.default_rng(11)
    given: dict[str, object] = {}
    for launch in result.launches:
        for arg in launch.contract.args:
            if arg.name in given or arg.name in _workspace_names(result) or arg.value is not None:
                continue
            if not arg.type.startswith("ptr"):
                assert arg.name == "scale", arg
                given[arg.name] = SCALE
            elif arg.name.startswith("cu_seqlens_"):
                seqlens = lengths[0] if arg.name.endswith("_q") else lengths[1]
                given[arg.name] = np.concatenate([[0], np.cumsum(seqlens)]).astype(np.int32)
            else:
                dtype = numpy_dtype(parse_type(arg.type).pointee)
                count = arg.bytes // dtype.itemsize
                given[arg.name] = (np.full(count, SENTINEL, dtype) if arg.role == "output"
                                   else rng.uniform(-1.0, 1.0, count).astype(dtype))
    return given


def _copy(given):
    return {name: value.copy() if isinstance(value, np.ndarray) else value for name, value in given.items()}


@pytest.fixture(scope="module", params=PLANS, ids=[f"{kind}-{arch}" for kind, arch, _, _ in PLANS])
def executed(request):
    kind, arch, text, lengths = request.param
    result = plan(kind, text, arch)
    assert result.status == "planned", result.to_text()
    given = _given(result, lengths)
    on_sim = _copy(given)
    execute(result, on_sim, check_races=False)
    backend = RecordingLoopback(arch)
    on_device = _copy(given)
    device = RuntimeDevice(backend)
    execute(result, on_device, device=device)
    return result, given, on_sim, on_device, backend, device


def test_the_device_and_the_simulator_give_identical_results(executed):
    result, given, on_sim, on_device, backend, _ = executed
    changed = []
    for name, value in given.items():
        if isinstance(value, np.ndarray):
            assert on_device[name].tobytes() == on_sim[name].tobytes(), name
            if on_sim[name].tobytes() != value.tobytes():
                changed.append(name)
    outputs = {arg.name for launch in result.launches for arg in launch.contract.args if arg.role == "output"}
    assert changed and set(changed) <= outputs  # the outputs were written, the inputs were not
    assert backend.allocations == 0


def test_the_backend_sees_the_plans_launches_packed_by_their_contracts(executed):
    result, given, _, _, backend, device = executed
    allocs = [entry for entry in backend.log if entry[0] == "alloc"]
    arrays = [name for name, value in given.items() if isinstance(value, np.ndarray)]
    address = {name: alloc[1] for name, alloc in zip(arrays, allocs, strict=False)}
    workspace_base = allocs[len(arrays)][1]
    assert len(allocs) == len(arrays) + 1 and allocs[-1][2] == max(1, result.workspace[1])
    shared = {piece.name: piece for piece in result.workspace[0]} if result.shared is not None else {}
    assert [(name, tuple(grid), tuple(block)) for name, grid, block, _ in backend.launches] == [
        (launch.contract.kernel, launch.contract.grid, launch.contract.block) for launch in result.launches]
    for i, (launch, (_, _, _, params)) in enumerate(zip(result.launches, backend.launches, strict=True)):
        contract = launch.contract
        for arg, value in zip(contract.args, contract_layout(contract).unpack(params), strict=True):
            if arg.name in shared:
                assert value == workspace_base + shared[arg.name].offset, arg.name
            elif arg.name == "workspace":
                assert value == workspace_base + result.workspace_slice(i).offset
            elif arg.value is not None:
                assert value == arg.value, arg.name
            elif arg.type == "f32":
                assert value == struct.unpack("<f", struct.pack("<f", given[arg.name]))[0]
            else:
                assert value == address[arg.name], arg.name
    assert [record.kernel for record in device.launches] == [launch.contract.kernel for launch in result.launches]
    assert all(record.milliseconds is not None for record in device.launches)


def test_zero_fills_come_before_the_launch_that_needs_them(executed):
    result, _, _, _, backend, _ = executed
    launches = [i for i, entry in enumerate(backend.log) if entry[0] == "launch"]
    fills = [(i, entry) for i, entry in enumerate(backend.log) if entry[0] == "fill" and entry[3] == 0]
    assert len(fills) == len(result.zero_init)
    for (index, _name), (position, _fill) in zip(result.zero_init, fills, strict=True):
        assert (launches[index - 1] if index else -1) < position < launches[index]
    workspace_fill = next(entry for entry in backend.log if entry[0] == "fill")
    assert workspace_fill[3] == 0xFF  # a fresh workspace is not zero


def test_every_launch_packs_its_contract_as_its_built_kernel(executed):
    result = executed[0]
    families = {family.name: family for family in defined()}
    for launch in result.launches:
        family = families[launch.family]
        kernel = build_family(family, family.spec.from_kv(launch.spec), result.arch)
        assert contract_layout(launch.contract) == kernel_layout(kernel), launch.family


def test_the_attention_backward_plan_runs_through_execute_as_the_backward_simulator_runs_it():
    from rocke_library.dispatch.attention_bwd import FAMILIES
    from rocke_library.kernels.attention.backward_plan import plan_attention_bwd
    from rocke_library.kernels.attention.backward_sim import Case, problem_of, run_plan

    kind, arch, text, _ = PLANS[-1]
    result = plan(kind, text, arch)
    specs = {launch.family: FAMILIES[launch.family].spec.from_kv(launch.spec) for launch in result.launches}
    prep = specs["attention_bwd_prep"]
    sizes = dict(result.launches[1].contract.problem)
    case = Case((sizes["seqlen_q"],), (sizes["seqlen_k"],), sizes["heads_q"], sizes["heads_kv"])
    assembled = plan_attention_bwd(problem_of(prep.seq_mode, prep.head_dim, arch, case), specs)
    scale = next(arg["value"] for launch in assembled.launches for arg in launch.args if arg["name"] == "scale")
    assert scale == pytest.approx(1.0 / math.sqrt(prep.head_dim))
    given = {**_given(result, None), "scale": scale}
    by_execute = _copy(given)
    execute(result, by_execute, check_races=False)
    by_runner = {name: value for name, value in _copy(given).items() if isinstance(value, np.ndarray)}
    run_plan(assembled, by_runner)
    for name in ("dq", "dk", "dv"):
        assert by_execute[name].tobytes() == by_runner[name].tobytes(), name


def test_a_failing_plan_frees_what_it_allocated():
    kind, arch, text, lengths = PLANS[0]
    result = plan(kind, text, arch)
    backend = LoopbackBackend(arch, check_races=False)

    def broken(family, spec, arch):
        raise RuntimeError("builder failed")

    with pytest.raises(RuntimeError, match="builder failed"):
        execute(result, _given(result, lengths), device=RuntimeDevice(backend), build=broken)
    assert backend.allocations == 0


def test_a_dead_plan_allocates_nothing():
    dead = plan("conv_fwd", "n=0 h=7 w=6 c=8 k=10 filter_y=3 filter_x=3 dtype=f16", "gfx942")
    backend = RecordingLoopback("gfx942")
    execute(dead, {}, device=RuntimeDevice(backend))
    assert backend.log == []


def test_rocke_run_of_a_planned_backward_on_the_loopback_device(monkeypatch, capsys):
    """`rocke run attention_bwd --problem ...`: the planned launch set, launched on the loopback
    backend through the families' launcher, passes the float64 check as `rocke sim` does."""
    from rocke.cli import app, run_cmd

    opened: list[LoopbackBackend] = []
    monkeypatch.setattr(run_cmd, "open_backend", lambda arch: opened.append(LoopbackBackend(arch)) or opened[-1])
    problem = "batch=1 seqlen_q=21 seqlen_k=18 heads_q=4 heads_kv=2 head_dim=32 dtype=f16"
    assert app.main(["run", "attention_bwd", "--problem", problem, "--arch", "gfx942"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"attention_bwd [{problem}] on gfx942, seed 0, loopback gfx942 (simulator): ")
    assert out[-1] == "PASS" and len(opened[0].launches) >= 3 and opened[0].allocations == 0
