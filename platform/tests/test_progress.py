"""rocke.gates.progress: plain line-buffered lines off a terminal, a live bar on one, and the
per-family timing table with its share flags."""

from __future__ import annotations

import io
import os

import pytest
from tqdm import tqdm

from rocke.gates.progress import LLVM_PHASE, LOWER_PHASE, Progress
from rocke.gates.runner import parallel_map


class Clock:
    """A settable time source."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_plain_lines_every_n_configs_and_per_family() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress("parity", 10, stream=stream, every_configs=4, every_seconds=1e9, clock=clock)
    assert not progress.tty
    progress.start_family("alpha", 6)
    for _ in range(6):
        clock.now += 0.5
        progress.advance()
    progress.family_done()
    progress.start_family("beta", 4)
    clock.now += 2.0
    progress.advance(4)
    progress.family_done()
    progress.close()
    assert stream.getvalue().splitlines() == [
        "[parity] 4/10 configs (40%), 2.0 configs/s, eta 3s, family alpha",
        "[parity] 6/10 configs, alpha done in 3.0s",
        "[parity] 10/10 configs (100%), 2.0 configs/s, eta 0s, family beta",
        "[parity] 10/10 configs, beta done in 2.0s",
    ]


def test_plain_lines_every_few_seconds_even_between_n_configs() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress("golden", 1000, stream=stream, every_configs=500, every_seconds=10.0, clock=clock)
    progress.start_family("gemm", 1000)
    clock.now += 4.0
    progress.advance()  # 4 s since the start: no line yet
    clock.now += 8.0
    progress.advance()  # 12 s: a line although only 2 configs are done
    assert stream.getvalue().splitlines() == ["[golden] 2/1000 configs (0%), 0.2 configs/s, eta 1h39m48s, family gemm"]
    assert progress.progress_line() .startswith("[golden] 2/1000")


def test_quiet_prints_nothing_but_keeps_the_timing() -> None:
    clock, stream = Clock(), Terminal()
    progress = Progress("parity", 3, stream=stream, quiet=True, clock=clock)
    progress.start_family("alpha", 3)
    clock.now += 1.5
    progress.advance(3)
    progress.family_done()
    progress.close()
    assert stream.getvalue() == "" and progress.family_seconds == {"alpha": 1.5}


def test_a_terminal_gets_the_live_bar() -> None:
    stream = Terminal()
    progress = Progress("parity", 10, stream=stream)
    assert progress.tty and isinstance(progress._bar, tqdm)
    progress.start_family("alpha", 10)
    progress.advance(3)
    progress._bar.refresh()
    bar = stream.getvalue()
    assert "[parity]" in bar and "3/10" in bar and "config/s" in bar and "alpha" in bar
    assert "<" in bar  # elapsed<remaining: the ETA
    progress.advance(7)
    progress.family_done()
    progress.close()
    assert "[parity] 10/10 configs, alpha done in" in stream.getvalue()
    assert progress._bar is None


def test_a_real_pseudo_terminal_is_detected() -> None:
    master, slave = os.openpty()
    with os.fdopen(slave, "w") as stream:
        progress = Progress("catalog", 4, stream=stream)
        assert progress.tty and isinstance(progress._bar, tqdm)
        progress.start_family("gemm", 4)
        progress.advance(4)
        progress.family_done()
        progress.close()
    data = b""
    try:
        while chunk := os.read(master, 65536):
            data += chunk
    except OSError:  # EIO once the slave side is closed (Linux)
        pass
    finally:
        os.close(master)
    text = data.decode(errors="replace")
    assert "[catalog]" in text and "4/4" in text and "gemm done in" in text


def test_timing_table_flags_a_slow_family_with_few_configs() -> None:
    clock = Clock()
    progress = Progress("golden", 12, quiet=True, jobs=2, clock=clock)
    for name, configs, seconds in (("big", 9, 3.0), ("slow", 1, 6.0), ("small", 2, 1.0)):
        progress.start_family(name, configs)
        clock.now += seconds
        progress.advance(configs)
        progress.family_done()
    progress.close()
    assert progress.over_share() == ["slow"]
    lines = progress.timing_table().splitlines()
    assert lines[0] == "golden wall time per family (--jobs 2):"
    assert lines[2].split() == ["big", "9", "75%", "3.0", "30%"]  # over 25% of the time, with 75% of the configs
    assert lines[3].split()[:5] == ["slow", "1", "8%", "6.0", "60%"]
    assert "OVER 25%: 60% of the time for 8% of the configs" in lines[3]
    assert "OVER" not in lines[2] + lines[4]
    assert lines[5].split() == ["total", "(wall)", "12", "10.0"]
    assert lines[6] == "families over 25% of the time without over 25% of the configs: slow"


def test_timing_table_counts_ir_lines_and_flags_only_the_slow_for_their_size() -> None:
    """With IR lines counted (the parity and golden gates), a family over 25% of the time is not
    flagged when it holds over 25% of the lines (large kernels), and is when it holds neither."""
    clock = Clock()
    progress = Progress("parity", 12, quiet=True, jobs=2, clock=clock)
    for name, configs, lines, seconds in (("big", 9, 600, 2.0), ("large", 2, 300, 4.0), ("slow", 1, 100, 4.0)):
        progress.start_family(name, configs)
        clock.now += seconds
        progress.advance(configs, ir_lines=lines)
        progress.family_done()
    progress.advance(ir_lines=50)  # outside a family: not counted
    progress.close()
    assert progress.family_ir_lines == {"big": 600, "large": 300, "slow": 100}
    assert progress.over_share() == ["slow"]
    lines = progress.timing_table().splitlines()
    assert lines[1].split() == ["family", "configs", "share", "IR", "lines", "share", "seconds", "share"]
    assert lines[2].split() == ["big", "9", "75%", "600", "60%", "2.0", "20%"]
    assert lines[3].split() == ["large", "2", "17%", "300", "30%", "4.0", "40%"]  # 40% of the time, 30% of the lines
    assert lines[4].split()[:7] == ["slow", "1", "8%", "100", "10%", "4.0", "40%"]
    assert "OVER 25%: 40% of the time for 8% of the configs and 10% of the IR lines" in lines[4]
    assert lines[5].split() == ["total", "(wall)", "12", "1000", "10.0"]
    assert lines[6] == "families over 25% of the time without over 25% of the configs or of the IR lines: slow"


def test_timing_table_without_violators_says_none() -> None:
    clock = Clock()
    progress = Progress("parity", 2, quiet=True, clock=clock)
    for name in ("a", "b"):
        progress.start_family(name, 1)
        clock.now += 1.0
        progress.advance()
        progress.family_done()
    assert progress.timing_table().endswith("configs: none")


def test_timing_table_gives_the_phases_a_gate_timed() -> None:
    clock = Clock()
    progress = Progress("validity llvm22", 4, quiet=True, clock=clock)
    progress.start_family("a", 4)
    clock.now += 8.0
    progress.add_phase(LOWER_PHASE, 1.0)
    progress.add_phase(LLVM_PHASE, 6.0)
    progress.add_phase(LOWER_PHASE, 1.0)
    progress.advance(4)
    progress.family_done()
    progress.close()
    assert progress.timing_table().splitlines()[-1] == (
        "phases (wall): lowering (rocke) 2.0s (25%), LLVM verify + compile 6.0s (75%); 2.000s per config")


def test_family_done_needs_a_family() -> None:
    with pytest.raises(ValueError, match="before start_family"):
        Progress("parity", 1, quiet=True).family_done()


def _square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("jobs", [1, 2])
def test_parallel_map_reports_each_result_in_order(jobs: int) -> None:
    seen: list[int] = []
    assert parallel_map(_square, [(i,) for i in range(6)], jobs, on_result=seen.append) == [0, 1, 4, 9, 16, 25]
    assert seen == [0, 1, 4, 9, 16, 25]
