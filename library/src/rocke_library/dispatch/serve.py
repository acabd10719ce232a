"""Serving a plan from a code-object catalog (rocke.gates.catalog, `rocke.catalog/2`): each launch's
code object is found by the spec digest of its family and spec (rocke.families.refusals.spec_digest,
what Spec.digest gives for the canonical kv a plan holds), checked against the launch (family,
spec, kernel symbol) and its bytes against the catalog's sha256; `served_text` is what a host
would launch, without a GPU: per launch the code object, kernel symbol, grid, block, every argument
(a buffer's bytes, a size's value), then the workspace slices and the buffers to zero first.

A refused plan, an arch the catalog skipped, a launch without an entry, an entry that holds another
spec and a missing or altered code object are ValueErrors naming what is wrong (a launch without an
entry says how to build it: `rocke catalog build --problems FILE` with the problem in FILE).
C++ twin: rocke_library/dispatch/serve.hpp (the same checks in the same order, the same messages
and text byte for byte; the example host under library/examples/host prints it).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from rocke.families.refusals import spec_digest
from rocke.gates.catalog import INDEX, Catalog, CatalogEntry, read_catalog

from .dispatch import plan as plan_problem
from .plan import Plan


@dataclass(frozen=True)
class ServedLaunch:
    launch: int  # the launch's index in the plan
    spec_digest: str
    entry: CatalogEntry


def serve(plan: Plan, catalog: Catalog) -> tuple[ServedLaunch, ...]:
    """The catalog entry of every launch of plan, in launch order (none for a dead plan)."""
    if plan.status == "refused":
        raise ValueError(f"{plan.kind} on {plan.arch} is refused: no launch to serve")
    if plan.arch in catalog.skipped:
        raise ValueError(f"catalog {catalog.directory} skipped {plan.arch}: {catalog.skipped[plan.arch]}")
    served = []
    for i, launch in enumerate(plan.launches):
        digest = spec_digest(launch.family, launch.spec)
        entry = catalog.find(plan.arch, digest)
        if entry is None:
            raise ValueError(f"catalog {catalog.directory} has no code object for launch {i} of {plan.kind} on "
                             f"{plan.arch}: {launch.family} [{launch.spec}] (spec digest {digest}); "
                             "rocke catalog build --problems FILE with this problem in FILE builds it")
        if entry.family != launch.family or entry.spec != launch.spec or entry.kernel != launch.contract.kernel:
            raise ValueError(f"catalog {catalog.directory}: entry {plan.arch} {digest} holds {entry.family} "
                             f"[{entry.spec}] ({entry.kernel}), not launch {i}'s {launch.family} [{launch.spec}] "
                             f"({launch.contract.kernel})")
        path = catalog.code_object(entry)
        if not path.is_file():
            raise ValueError(f"{path}: no such code object (launch {i}; listed in {INDEX})")
        try:
            data = path.read_bytes()
        except OSError:
            raise ValueError(f"{path}: cannot be read (launch {i})") from None
        actual = hashlib.sha256(data).hexdigest()
        if actual != entry.hsaco_sha256:
            raise ValueError(f"{path}: sha256 {actual} is not {entry.hsaco_sha256} of {INDEX} (launch {i})")
        served.append(ServedLaunch(i, digest, entry))
    return tuple(served)


def served_text(plan: Plan, catalog: Catalog, served: tuple[ServedLaunch, ...]) -> str:
    """What a host would launch for plan from catalog (serve's launches), one line a fact."""
    if plan.status == "dead":
        return f"{plan.kind} on {plan.arch}: dead, nothing to launch\n"
    slices, total = plan.workspace
    lines = [f"{plan.kind} on {plan.arch}: {len(served)} launch(es) from {catalog.directory / INDEX} "
             f"({catalog.flavor}), workspace {total} bytes"]
    for item in served:
        contract = plan.launches[item.launch].contract
        grid, block = contract.grid, contract.block
        lines.append(f"  launch {item.launch}: {item.entry.kernel} in {item.entry.hsaco} "
                     f"(sha256 {item.entry.hsaco_sha256})")
        lines.append(f"    spec digest {item.spec_digest}")
        lines.append(f"    grid ({grid[0]}, {grid[1]}, {grid[2]}) block ({block[0]}, {block[1]}, {block[2]})")
        for arg in contract.args:
            if arg.role != "scalar":
                what = f" {arg.role}, {arg.bytes} bytes"
            elif arg.value is not None:
                what = f" = {arg.value}"
            else:
                what = ", set by the caller"
            lines.append(f"    arg {arg.name}: {arg.type}{what}")
    for piece in slices:
        lines.append(f"  workspace {piece.name}: offset {piece.offset}, {piece.bytes} bytes")
    for i, arg in plan.zero_init:
        lines.append(f"  zero before launch {i}: {arg}")
    return "\n".join(lines) + "\n"


def serve_problem(kind: str, text: str, arch: str, directory: Path | str) -> str:
    """Plan a problem, read the catalog of directory and serve the plan from it: served_text (the
    example host's output). ValueError for a malformed problem, a bad catalog or what serve refuses."""
    result = plan_problem(kind, text, arch)
    catalog = read_catalog(directory)
    return served_text(result, catalog, serve(result, catalog))
