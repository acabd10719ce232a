"""pytest plugin (entry point ``pytest11``): run the families' numeric tests on a GPU.

    pytest -m numeric -k sm_90 --launch-on=gpu [--gpu-report report.json] platform/tests library/tests

With ``--launch-on=gpu`` every kernel a numeric check launches through rocke.families.launcher runs
on the GPU of its arch (rocke.runtime: code objects through the cache, arguments packed by the
kernel's parameters) and, on identical copies of the inputs, on the simulator: the test's own float64
reference and tolerance judge the GPU's output, and the plugin records how far the GPU's outputs are
from the simulator's, per family, in units in the last place of each output's dtype. Negative
controls run on the GPU too and must still fail. Without the option nothing changes.

The report (``--gpu-report``) is JSON: the device, the driver, and per family the kernels launched,
the largest GPU-vs-simulator difference (ulps and absolute) and where it occurred.
"""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPORT_FORMAT = "rocke.gpu_report/1"


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("rocke")
    group.addoption("--launch-on", choices=("sim", "gpu"), default="sim",
                    help="where the families' numeric checks launch their kernels (default: the simulator)")
    group.addoption("--gpu-report", default="", help="with --launch-on=gpu: write the JSON report here")


@dataclass
class FamilyDiff:
    """The GPU-vs-simulator record of one family."""

    launches: int = 0
    max_ulps: float = 0.0
    max_abs: float = 0.0
    worst: str = ""  # kernel, argument and element of the largest difference in ulps
    kernels: set[str] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {"kernels": len(self.kernels), "launches": self.launches, "max_abs": self.max_abs,
                "max_ulps": self.max_ulps, "worst": self.worst}


_ORDERED_INTS = {np.dtype(np.float32): np.int32, np.dtype(np.float16): np.int16}


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per element, how many representable values of the arrays' float dtype lie between a and b
    (0 where both are the same NaN or equal; inf where exactly one is NaN). Integer arrays: |a - b|."""
    if a.dtype.kind in "iu":
        return np.abs(a.astype(np.int64) - b.astype(np.int64)).astype(np.float64)
    bits = _ORDERED_INTS.get(a.dtype, np.int16)  # bf16 (ml_dtypes) is 16 bits, ordered like f16
    ia = a.view(bits).astype(np.int64)
    ib = b.view(bits).astype(np.int64)
    top = np.int64(1) << (8 * a.dtype.itemsize - 1)
    # Sign-magnitude to a monotonic integer line.
    ia = np.where(ia < 0, -top - ia, ia)
    ib = np.where(ib < 0, -top - ib, ib)
    out = np.abs(ia - ib).astype(np.float64)
    nan_a, nan_b = np.isnan(a.astype(np.float64)), np.isnan(b.astype(np.float64))
    out = np.where(nan_a & nan_b, 0.0, out)
    return np.where(nan_a ^ nan_b, np.inf, out)


class GpuSession:
    """The device, the per-family records and the launcher the numeric checks call."""

    def __init__(self) -> None:
        self.devices: dict[str, Any] = {}  # arch -> RuntimeDevice
        self.families: dict[str, FamilyDiff] = {}
        self.test = ""  # the running test's id

    def device(self, arch: str) -> Any:
        if arch not in self.devices:
            from rocke.runtime import RuntimeDevice, open_backend

            self.devices[arch] = RuntimeDevice(open_backend(arch))
        return self.devices[arch]

    def launch(self, kernel: Any, *, arch: str, grid: Any, block: Any, args: Any, **options: Any) -> None:
        from rocke.sim import run as sim_run

        sim_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        sim_run(kernel, arch=arch, grid=grid, block=block, args=sim_args, **options)
        self.device(arch).run(kernel, arch=arch, grid=grid, block=block, args=args, **options)
        family = kernel.name.rsplit("_", 1)[0]
        if "negative_control" in self.test:
            # A deliberately broken kernel may write one place from two workgroups; its GPU and
            # simulator outputs need not agree, only both fail the reference: recorded apart.
            family += " (negative controls)"
        record = self.families.setdefault(family, FamilyDiff())
        record.launches += 1
        record.kernels.add(kernel.name)
        for index, (gpu, sim) in enumerate(zip(args, sim_args, strict=True)):
            if not isinstance(gpu, np.ndarray) or gpu.size == 0 or np.array_equal(gpu, sim, equal_nan=True):
                continue
            ulps = ulp_distance(np.ascontiguousarray(gpu).ravel(), np.ascontiguousarray(sim).ravel())
            where = int(np.argmax(ulps))
            absolute = float(np.nanmax(np.abs(gpu.astype(np.float64) - sim.astype(np.float64))))
            record.max_abs = max(record.max_abs, absolute)
            if ulps[where] > record.max_ulps:
                record.max_ulps = float(ulps[where])
                record.worst = (f"{kernel.name} argument {index} element {where}: gpu {gpu.ravel()[where]!r}, "
                                f"simulator {sim.ravel()[where]!r}")

    def report(self) -> dict[str, Any]:
        names = sorted(self.devices)
        device = self.devices[names[0]].backend.device_name if names else ""
        return {"format": REPORT_FORMAT, "device": device, "host": platform.node(),
                "families": {name: self.families[name].to_json() for name in sorted(self.families)}}


_SESSION: GpuSession | None = None


def pytest_configure(config: Any) -> None:
    """With --launch-on=gpu, the session's launcher serves every test (pytest runs them in this
    thread's context, where the launcher is set once)."""
    global _SESSION
    if config.getoption("launch_on", default="sim") == "gpu":
        from rocke.families.launcher import set_launcher

        _SESSION = GpuSession()
        set_launcher(_SESSION.launch)


def pytest_runtest_setup(item: Any) -> None:
    if _SESSION is not None:
        _SESSION.test = item.nodeid


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    if _SESSION is None:
        return
    path = session.config.getoption("gpu_report", default="")
    worker = getattr(session.config, "workerinput", {}).get("workerid")
    if path and worker:  # pytest-xdist: one report per worker, merged by merge_reports
        path = f"{path}.{worker}"
    text = json.dumps(_SESSION.report(), indent=1, sort_keys=True) + "\n"
    if path:
        Path(path).write_text(text, encoding="utf-8")
    for name, record in sorted(_SESSION.families.items()):
        print(f"gpu vs simulator: {name}: {record.launches} launches of {len(record.kernels)} kernels, "
              f"max {record.max_ulps:g} ulps, max abs {record.max_abs:.3g}")


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One report from several (pytest-xdist workers): launches and kernels add up, the largest
    differences win."""
    families: dict[str, dict[str, Any]] = {}
    for report in reports:
        for name, row in report["families"].items():
            have = families.setdefault(name, {"kernels": 0, "launches": 0, "max_abs": 0.0, "max_ulps": 0.0,
                                               "worst": ""})
            have["kernels"] += row["kernels"]
            have["launches"] += row["launches"]
            have["max_abs"] = max(have["max_abs"], row["max_abs"])
            if row["max_ulps"] > have["max_ulps"] or not have["worst"]:
                have["max_ulps"], have["worst"] = max(have["max_ulps"], row["max_ulps"]), row["worst"] or have["worst"]
    first = reports[0] if reports else {"device": "", "host": ""}
    return {"format": REPORT_FORMAT, "device": first["device"], "host": first["host"],
            "families": dict(sorted(families.items()))}


if __name__ == "__main__":
    import sys

    merged = merge_reports([json.loads(Path(p).read_text(encoding="utf-8")) for p in sys.argv[2:]])
    Path(sys.argv[1]).write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for name, row in merged["families"].items():
        print(f"gpu vs simulator: {name}: {row['launches']} launches, max {row['max_ulps']:g} ulps, "
              f"max abs {row['max_abs']:.3g}; worst: {row['worst']}")
