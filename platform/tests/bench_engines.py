"""Benchmark: lowering the sample kernels with the Python engine, the C++ engine through the
bindings, and the native emitter rocke-emit, all measured in one run on one machine.

Not collected by pytest (no test_ prefix). Needs the installed wheel (rocke_engine, rocke-emit):
    python platform/tests/bench_engines.py [--arch gfx942] [--flavor llvm22] [--runs 15]

Per kernel, the median of --runs runs of:
  python    rocke.lower.lower(kernel)                         (kernel already built)
  bindings  rocke_engine.lower(text)                          (parse + verify + lower in C++)
  emit      one rocke-emit process lowering COPIES copies of the kernel's file, divided by
            COPIES (the per-kernel cost inside the emitter, process start-up spread out)
  emit1     one rocke-emit process lowering the file once (what a single call costs, start-up included)
and the ratios python / bindings and python / emit.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rocke.arch import get_arch
from rocke.engine import native_engine
from rocke.ir import kernel_needs, print_kernel
from rocke.ir.samples import sample_kernels
from rocke.lower import lower

COPIES = 50


def _median(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _emitter() -> str:
    found = shutil.which("rocke-emit") or str(Path(sysconfig.get_path("scripts")) / "rocke-emit")
    if not Path(found).is_file():
        raise SystemExit("bench_engines: rocke-emit is not installed (install the rocke wheel)")
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="gfx942")
    parser.add_argument("--flavor", default="llvm22")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    engine = native_engine()
    emitter = _emitter()
    arch = get_arch(args.arch)
    rows = []
    with tempfile.TemporaryDirectory(prefix="rocke_bench_") as scratch:
        for name, kernel in sample_kernels().items():
            if not kernel_needs(kernel).satisfied_by(arch):
                continue
            text = print_kernel(kernel)
            path = Path(scratch) / f"{name}.ir"
            path.write_text(text)
            python_text = lower(kernel, arch=args.arch, flavor=args.flavor)
            assert engine.lower(text, args.arch, args.flavor) == python_text, name
            many = [emitter, "--arch", args.arch, "--flavor", args.flavor, *[str(path)] * COPIES]
            once = [emitter, "--arch", args.arch, "--flavor", args.flavor, str(path)]
            py = _median(lambda k=kernel: lower(k, arch=args.arch, flavor=args.flavor), args.runs)
            cpp = _median(lambda t=text: engine.lower(t, args.arch, args.flavor), args.runs)
            emit = _median(lambda c=many: subprocess.run(c, capture_output=True, check=True), args.runs) / COPIES
            emit1 = _median(lambda c=once: subprocess.run(c, capture_output=True, check=True), args.runs)
            rows.append((name, kernel.op_count(), py, cpp, emit, emit1))
    print(f"lowering for {args.arch} / {args.flavor}, median of {args.runs} runs (times in microseconds)")
    print(f"{'kernel':<16}{'ops':>5}{'python':>10}{'bindings':>10}{'emit':>10}{'emit1':>10}"
          f"{'py/bind':>9}{'py/emit':>9}")
    for name, ops, py, cpp, emit, emit1 in rows:
        print(f"{name:<16}{ops:>5}{py * 1e6:>10.0f}{cpp * 1e6:>10.0f}{emit * 1e6:>10.0f}{emit1 * 1e6:>10.0f}"
              f"{py / cpp:>9.1f}{py / emit:>9.1f}")
    total = [sum(row[i] for row in rows) for i in (2, 3, 4)]
    print(f"{'all':<21}{total[0] * 1e6:>10.0f}{total[1] * 1e6:>10.0f}{total[2] * 1e6:>10.0f}{'':>10}"
          f"{total[0] / total[1]:>9.1f}{total[0] / total[2]:>9.1f}")


if __name__ == "__main__":
    main()
