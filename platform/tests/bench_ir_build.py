"""Benchmark: time to build (and finish) a 10,000-op kernel with the Builder.

Not collected by pytest (no test_ prefix). Run:
    PYTHONPATH=platform/src python platform/tests/bench_ir_build.py
"""

from __future__ import annotations

import statistics
import time

from rocke.ir import Builder, f32, parse_kernel, print_kernel, ptr, verify

OPS = 10_000
RUNS = 7


def build_kernel(op_count: int = OPS, *, verify_on_finish: bool = False):
    """A straight-line kernel plus a loop: loads, arithmetic, compares, selects and stores."""
    b = Builder("bench", max_workgroup_size=256)
    x = b.param("x", ptr(f32, "global"), noalias=True, readonly=True)
    y = b.param("y", ptr(f32, "global"), noalias=True)
    tid = b.thread_id_x(name="tid")
    acc = b.load(x, tid, name="acc")
    one = b.const(1.0, f32, name="one")
    emitted = 4  # tid, load, const and the final store
    while emitted + 4 <= op_count:
        prod = b.mul(acc, one)
        summed = b.add(prod, acc, name="acc")
        cond = b.cmpf("olt", summed, acc)
        acc = b.select(cond, summed, prod, name="acc")
        emitted += 4
    while emitted < op_count:
        acc = b.add(acc, one)
        emitted += 1
    b.store(y, tid, acc)
    return b.finish(verify=verify_on_finish)


def _median_seconds(fn, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    kernel = build_kernel()
    count = kernel.op_count()
    build = _median_seconds(lambda: build_kernel())
    build_verify = _median_seconds(lambda: build_kernel(verify_on_finish=True))
    verify_only = _median_seconds(lambda: verify(kernel))
    printing = _median_seconds(lambda: print_kernel(kernel))
    text = print_kernel(kernel)
    parsing = _median_seconds(lambda: parse_kernel(text))
    print(f"ops per kernel:            {count}")
    print(f"build (median of {RUNS}):      {build * 1e3:8.1f} ms")
    print(f"build + verify:            {build_verify * 1e3:8.1f} ms")
    print(f"verify only:               {verify_only * 1e3:8.1f} ms")
    print(f"print only:                {printing * 1e3:8.1f} ms")
    print(f"parse only:                {parsing * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
