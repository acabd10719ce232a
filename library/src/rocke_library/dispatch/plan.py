"""Plans: what dispatch answers for a problem on an arch, as JSON `rocke.plan/1`.

A plan is one of
* planned: the ordered launches (family, spec kv, the launch contract for the problem), the
  workspace layout (one slice per launch that needs workspace, each at a 256-byte aligned offset;
  a launch that only reads its workspace, role input, reads the slice of the latest launch of its
  family before it: a split-K reduction's convert kernel) and the buffers to zero first ({launch, arg});
  a launch set whose launches share named workspace slices (the attention backward) has the layout
  its plan assembler gives instead (`shared`: slices named by the argument they bind, and its own
  zero-init list);
* dead: the problem has nothing to compute (empty outputs): no launch, nothing to zero;
* refused: no candidate is usable.
`rejected` lists, in order, every candidate tried and not taken, with its reason codes (table
order, reasons.json) and a detail (the refusal text of the spec rule, table or contract, else
the hook's note). JSON: sorted keys, two-space indent, LF, final LF (as launch contracts).
C++ twin: rocke_library/dispatch/plan.hpp, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rocke.families.launch import LaunchContract

from .reasons import reason_text

PLAN_FORMAT = "rocke.plan/1"
WORKSPACE_ALIGN = 256
STATUSES = ("planned", "dead", "refused")


@dataclass(frozen=True)
class WorkspaceSlice:
    name: str  # "<launch index>.<family>"
    offset: int  # bytes from the workspace base, a multiple of WORKSPACE_ALIGN
    bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {"bytes": self.bytes, "name": self.name, "offset": self.offset}


def layout_workspace(requests: Sequence[tuple[str, int]]) -> tuple[tuple[WorkspaceSlice, ...], int]:
    """Slices for (name, bytes) requests in order, each at the next WORKSPACE_ALIGN multiple; and
    the total bytes (the end of the last slice rounded up to WORKSPACE_ALIGN). Empty requests get no slice."""
    slices, offset = [], 0
    for name, nbytes in requests:
        if nbytes <= 0:
            continue
        slices.append(WorkspaceSlice(name, offset, nbytes))
        offset += -(-nbytes // WORKSPACE_ALIGN) * WORKSPACE_ALIGN
    return tuple(slices), offset


def reads_workspace(launch: Launch) -> bool:
    """The launch only reads its workspace (an earlier launch of its family wrote it)."""
    return any(arg.name == "workspace" and arg.role == "input" for arg in launch.contract.args)


@dataclass(frozen=True)
class Workspace:
    """A layout a plan assembler gives (launches sharing slices, each bound to the arguments of its
    name), with the buffers to zero first as (launch index, argument)."""

    slices: tuple[WorkspaceSlice, ...]
    bytes: int
    zero_init: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class Rejection:
    family: str  # "" when no family serves the kind
    spec: str  # "" when the hook rejected before a spec existed
    reasons: tuple[str, ...]
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"detail": self.detail, "family": self.family,
                "reasons": [{"code": code, "text": reason_text(code)} for code in self.reasons], "spec": self.spec}


@dataclass(frozen=True)
class Launch:
    family: str
    spec: str
    contract: LaunchContract

    def to_dict(self) -> dict[str, Any]:
        return {"contract": self.contract.to_dict(), "family": self.family, "spec": self.spec}


@dataclass(frozen=True)
class Plan:
    kind: str
    arch: str
    problem: str  # the problem's canonical kv text
    status: str
    launches: tuple[Launch, ...] = ()
    rejected: tuple[Rejection, ...] = ()
    shared: Workspace | None = None  # the assembler's layout of a launch set (else one slice per launch)

    @property
    def workspace(self) -> tuple[tuple[WorkspaceSlice, ...], int]:
        if self.shared is not None:
            return self.shared.slices, self.shared.bytes
        return layout_workspace([(f"{i}.{launch.family}",
                                  0 if reads_workspace(launch) else launch.contract.workspace_bytes)
                                 for i, launch in enumerate(self.launches)])

    def workspace_slice(self, index: int) -> WorkspaceSlice | None:
        """The slice launch `index` gets as its `workspace` argument: its own, or for a launch that
        only reads its workspace the slice of the latest launch of its family before it."""
        slices = {piece.name: piece for piece in self.workspace[0]}
        launch = self.launches[index]
        if not reads_workspace(launch):
            return slices.get(f"{index}.{launch.family}")
        for earlier in range(index - 1, -1, -1):
            name = f"{earlier}.{self.launches[earlier].family}"
            if self.launches[earlier].family == launch.family and name in slices:
                return slices[name]
        return None

    @property
    def zero_init(self) -> tuple[tuple[int, str], ...]:
        if self.shared is not None:
            return self.shared.zero_init
        return tuple((i, arg) for i, launch in enumerate(self.launches) for arg in launch.contract.zero_init)

    def to_dict(self) -> dict[str, Any]:
        slices, total = self.workspace
        return {
            "arch": self.arch,
            "format": PLAN_FORMAT,
            "kind": self.kind,
            "launches": [launch.to_dict() for launch in self.launches],
            "problem": self.problem,
            "rejected": [rejection.to_dict() for rejection in self.rejected],
            "status": self.status,
            "workspace": {"bytes": total, "slices": [piece.to_dict() for piece in slices]},
            "zero_init": [{"arg": arg, "launch": i} for i, arg in self.zero_init],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, indent=2) + "\n"

    def to_text(self) -> str:
        """The human form `rocke plan` prints: a status line, the launches, the rejections."""
        lines = [f"{self.kind} on {self.arch}: {self.status}"]
        slices, total = self.workspace
        if self.status == "planned":
            lines[0] += f", {len(self.launches)} launch(es), workspace {total} bytes"
        for i, launch in enumerate(self.launches):
            grid, block = launch.contract.grid, launch.contract.block
            lines.append(f"  launch {i}: {launch.family} [{launch.spec}] grid ({grid[0]}, {grid[1]}, {grid[2]}) "
                         f"block ({block[0]}, {block[1]}, {block[2]})")
        for piece in slices:
            lines.append(f"  workspace {piece.name}: offset {piece.offset}, {piece.bytes} bytes")
        for i, arg in self.zero_init:
            lines.append(f"  zero before launch {i}: {arg}")
        for rejection in self.rejected:
            who = rejection.family or self.kind
            if rejection.spec:
                who += f" [{rejection.spec}]"
            for code in rejection.reasons:
                lines.append(f"  rejected {who}: {code}: {reason_text(code)}")
            if rejection.detail:
                lines.append(f"    {rejection.detail}")
        return "\n".join(lines) + "\n"
