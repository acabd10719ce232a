"""Live progress of the long runs (the config gates and `rocke catalog build`) and their per-family
timing table.

Every gate and the catalog report through one `Progress`: the run states its total, each family
as it starts (`start_family`) and ends (`family_done`), and each finished config (`advance`).

* On a terminal (the stream's ``isatty()``): a live tqdm bar on stderr with configs done / total,
  the rate, the ETA and the current family; a line per finished family is written above the bar.
* Otherwise (CI logs, pipes): plain lines, flushed as they are written, so a log shows a long
  family moving: ``[GATE] DONE/TOTAL configs (P%), R configs/s, eta T, family F`` after every
  ``every_configs`` configs (default: a twentieth of the run) or ``every_seconds`` seconds
  (default 10) since the last line, whichever comes first, and one line per finished family,
  ``[GATE] DONE/TOTAL configs, F done in S s``.

`timing_table` states each family's wall time and its share of the run beside its share of the
configs and, when the run counts them (`advance(ir_lines=...)`), of its kernels' size: the lines
of their `rocke.ir/1` text, about one per op. It flags a family that takes over `SHARE_LIMIT` of
the run's time while it holds no more than `SHARE_LIMIT` of the configs nor of the IR lines: a
family slow for the work it brings, not one that is large in configs or in kernel size (see
platform/docs/gates.md, progress and timing). The flag is a report, never a verdict: gate verdicts
do not depend on timing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from tqdm import tqdm  # imported with the gates, bar or not: a missing dependency fails every gate run

SHARE_LIMIT = 0.25
# Phases a gate may time (wall seconds summed over its families): rocke's own work and LLVM's.
LOWER_PHASE = "lowering (rocke)"
LLVM_PHASE = "LLVM verify + compile"
READ_PHASE = "reading the assembly (rocke)"
EVERY_SECONDS = 10.0
PLAIN_LINES = 20  # plain progress lines per run at most, besides the per-family and time-driven ones


def family_shares(family_seconds: Mapping[str, float], family_configs: Mapping[str, int], wall: float,
                  family_ir_lines: Mapping[str, int] | None = None) -> dict[str, tuple[float, float, float | None]]:
    """Per family: its share of a run's `wall` seconds, of its configs and (None when none were
    counted) of its kernels' IR lines."""
    configs = sum(family_configs.values())
    lines = sum(family_ir_lines.values()) if family_ir_lines else 0
    return {name: (seconds / wall if wall else 0.0,
                   family_configs.get(name, 0) / configs if configs else 0.0,
                   family_ir_lines.get(name, 0) / lines if family_ir_lines and lines else None)
            for name, seconds in family_seconds.items()}


def over_share(family_seconds: Mapping[str, float], family_configs: Mapping[str, int], wall: float,
               limit: float = SHARE_LIMIT, family_ir_lines: Mapping[str, int] | None = None) -> list[str]:
    """The families, sorted, that take over `limit` of a run's `wall` seconds while they hold no more
    than `limit` of its configs nor (when counted) of its kernels' IR lines: the one rule of the
    gates' timing tables and of the bench's gate cost. A family is flagged for being slow for its
    work, not for being large: a config of one family may hold four times the ops of another's."""
    shares = family_shares(family_seconds, family_configs, wall, family_ir_lines)
    return [name for name, (time_share, config_share, line_share) in sorted(shares.items())
            if time_share > limit and config_share <= limit and (line_share or 0.0) <= limit]


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Progress:
    """Progress of one run over `total` configs, and its per-family wall time.

    ``stream`` defaults to sys.stderr; ``tty`` (default: ``stream.isatty()``) chooses the live bar
    over plain lines; ``quiet`` prints nothing (the timing is still kept); ``clock`` is the time
    source (seconds).
    """

    def __init__(self, gate: str, total: int, *, quiet: bool = False, stream: TextIO | None = None,
                 tty: bool | None = None, every_configs: int | None = None, every_seconds: float = EVERY_SECONDS,
                 jobs: int = 1, clock: Callable[[], float] = time.perf_counter) -> None:
        self.gate, self.total, self.quiet, self.jobs = gate, total, quiet, jobs
        self.stream: TextIO = sys.stderr if stream is None else stream
        self.tty = bool(self.stream.isatty()) if tty is None else tty
        self.every_configs = every_configs if every_configs is not None else max(1, total // PLAIN_LINES)
        self.every_seconds = every_seconds
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.family: str | None = None
        self.family_seconds: dict[str, float] = {}
        self.family_configs: dict[str, int] = {}
        self.family_ir_lines: dict[str, int] = {}
        self.phase_seconds: dict[str, float] = {}
        self._family_start = self.start
        self._last_line_done = 0
        self._last_line_time = self.start
        self._bar: Any = None
        self._wall: float | None = None
        if not quiet and self.tty:
            self._bar = tqdm(total=total, desc=f"[{gate}]", unit="config", file=self.stream, dynamic_ncols=True,
                             mininterval=0.2, leave=False)

    # --- the run reports -------------------------------------------------------------------------

    def start_family(self, name: str, configs: int) -> None:
        """Family `name` starts; `configs` of the run's configs are its."""
        self.family = name
        self.family_configs[name] = self.family_configs.get(name, 0) + configs
        self._family_start = self.clock()
        if self._bar is not None:
            self._bar.set_postfix_str(name, refresh=True)

    def advance(self, configs: int = 1, ir_lines: int = 0) -> None:
        """`configs` more configs are finished; their kernels' IR text has `ir_lines` lines (the
        current family's size, counted when the run has the text)."""
        self.done += configs
        if ir_lines and self.family is not None:
            self.family_ir_lines[self.family] = self.family_ir_lines.get(self.family, 0) + ir_lines
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.update(configs)
            return
        now = self.clock()
        if (self.done - self._last_line_done >= self.every_configs
                or now - self._last_line_time >= self.every_seconds):
            self._line(self.progress_line(now))

    def family_done(self, name: str | None = None, seconds: float | None = None) -> None:
        """The current family (or `name`) is finished, after `seconds` (default: since start_family)."""
        name = self.family if name is None else name
        if name is None:
            raise ValueError("family_done before start_family")
        if seconds is None:
            seconds = self.clock() - self._family_start
        self.family_seconds[name] = self.family_seconds.get(name, 0.0) + seconds
        self.family_configs.setdefault(name, 0)
        self.family = None
        if not self.quiet:
            self._line(f"[{self.gate}] {self.done}/{self.total} configs, {name} done in {seconds:.1f}s")

    def add_phase(self, name: str, seconds: float) -> None:
        """`seconds` more wall time spent in phase `name` (e.g. LOWER_PHASE)."""
        self.phase_seconds[name] = self.phase_seconds.get(name, 0.0) + seconds

    def close(self) -> None:
        """The run is over: the bar goes away; the wall time is fixed for the timing table."""
        if self._wall is None:
            self._wall = self.clock() - self.start
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- what it prints --------------------------------------------------------------------------

    def progress_line(self, now: float | None = None) -> str:
        """The plain progress line: configs done / total, share, rate, ETA, current family."""
        elapsed = (self.clock() if now is None else now) - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = _duration(left / rate) if rate > 0 else "?"
        share = self.done / self.total if self.total else 1.0
        line = f"[{self.gate}] {self.done}/{self.total} configs ({share:.0%}), {rate:.1f} configs/s, eta {eta}"
        return line + (f", family {self.family}" if self.family else "")

    def _line(self, text: str) -> None:
        self._last_line_done = self.done
        self._last_line_time = self.clock()
        if self._bar is not None:
            self._bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    @property
    def wall(self) -> float:
        return self._wall if self._wall is not None else self.clock() - self.start

    def over_share(self) -> list[str]:
        """Families over SHARE_LIMIT of the wall time that hold no more than SHARE_LIMIT of the configs
        nor of the IR lines counted."""
        return over_share(self.family_seconds, self.family_configs, self.wall, family_ir_lines=self.family_ir_lines)

    def timing_table(self) -> str:
        """Per family: configs and their share, (when counted) IR lines and their share, wall seconds
        and their share of the run; flagged rows."""
        total, configs = self.wall, sum(self.family_configs.values())
        lines = sum(self.family_ir_lines.values())
        shares = family_shares(self.family_seconds, self.family_configs, total, self.family_ir_lines)
        flagged = set(self.over_share())
        limit = f"{SHARE_LIMIT:.0%}"
        lines_head = f" {'IR lines':>9} {'share':>6}" if lines else ""
        rows = [f"{self.gate} wall time per family (--jobs {self.jobs}):",
                f"{'family':<24} {'configs':>7} {'share':>6}{lines_head} {'seconds':>8} {'share':>6}"]
        for name in sorted(self.family_seconds):
            seconds, count = self.family_seconds[name], self.family_configs.get(name, 0)
            time_share, config_share, line_share = shares[name]
            lines_cols = f" {self.family_ir_lines.get(name, 0):9d} {line_share or 0.0:6.0%}" if lines else ""
            flag = (f"  OVER {limit}: {time_share:.0%} of the time for {config_share:.0%} of the configs"
                    + (f" and {line_share or 0.0:.0%} of the IR lines" if lines else "")) if name in flagged else ""
            rows.append(f"{name:<24} {count:7d} {config_share:6.0%}{lines_cols} {seconds:8.1f} {time_share:6.0%}{flag}")
        rows.append(f"{'total (wall)':<24} {configs:7d} {'':>6}" + (f" {lines:9d} {'':>6}" if lines else "")
                    + f" {total:8.1f}")
        rows.append(f"families over {limit} of the time without over {limit} of the configs"
                    + (" or of the IR lines" if lines else "") + ": "
                    + (", ".join(sorted(flagged)) if flagged else "none"))
        if self.phase_seconds:
            per_config = total / configs if configs else 0.0
            parts = [f"{name} {seconds:.1f}s ({seconds / total if total else 0.0:.0%})"
                     for name, seconds in self.phase_seconds.items()]
            rows.append(f"phases (wall): {', '.join(parts)}; {per_config:.3f}s per config")
        return "\n".join(rows)
