"""Launch contracts: how a host launches a family's kernel for one problem, without the builder.

A contract lists the kernel arguments in order (name, IR type text, role), the grid (workgroups)
and block (threads per workgroup) as integers, the workspace the launch needs and the arguments
that must be zero-filled first. Its JSON form (`to_json`, sorted keys, LF) is written next to the
code object. The simulator launches through the same contract (`ordered_args`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CONTRACT_FORMAT = "rocke.launch/1"
ARG_ROLES = ("input", "output", "inout", "scalar")  # inout: read and written (e.g. atomic adds)
MAX_BUFFER_BYTES = 2**31 - 1  # buffer offsets are i32 and 2^31 marks an out-of-range lane


class LaunchError(ValueError):
    """A problem the family cannot launch (bad sizes, buffers too large, missing arguments)."""


@dataclass(frozen=True)
class KernelArg:
    """One kernel argument. Pointer args give the bytes their buffer must hold for the problem;
    scalar args fixed by the problem (sizes) give their value; others (alpha) come from the caller."""

    name: str
    type: str  # IR type text: "ptr<f16, global>", "i32", "f32"
    role: str  # input | output | inout | scalar
    bytes: int = 0
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"bytes": self.bytes, "name": self.name, "role": self.role, "type": self.type, "value": self.value}


@dataclass(frozen=True)
class LaunchContract:
    family: str
    kernel: str  # the kernel symbol (spec.kernel_name())
    spec: str  # the spec's canonical kv text
    problem: tuple[tuple[str, int], ...]  # problem sizes, sorted by name
    args: tuple[KernelArg, ...]
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    workspace_bytes: int = 0
    zero_init: tuple[str, ...] = ()  # names of buffer args to zero-fill before the launch

    def to_dict(self) -> dict[str, Any]:
        return {
            "args": [arg.to_dict() for arg in self.args],
            "block": list(self.block),
            "family": self.family,
            "format": CONTRACT_FORMAT,
            "grid": list(self.grid),
            "kernel": self.kernel,
            "problem": {name: value for name, value in self.problem},
            "spec": self.spec,
            "workspace_bytes": self.workspace_bytes,
            "zero_init": list(self.zero_init),
        }

    def to_json(self) -> str:
        """Sorted keys, two-space indent, LF line ends, final LF; integers and strings only."""
        return json.dumps(self.to_dict(), sort_keys=True, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> LaunchContract:
        data = json.loads(text)
        if data.get("format") != CONTRACT_FORMAT:
            raise LaunchError(f"launch contract: expected format '{CONTRACT_FORMAT}'")
        args = tuple(KernelArg(a["name"], a["type"], a["role"], a["bytes"], a["value"]) for a in data["args"])
        return cls(
            data["family"], data["kernel"], data["spec"], tuple(sorted(data["problem"].items())), args,
            tuple(data["grid"]), tuple(data["block"]), data["workspace_bytes"], tuple(data["zero_init"]),
        )

    def arg(self, name: str) -> KernelArg:
        for arg in self.args:
            if arg.name == name:
                return arg
        raise KeyError(f"{self.family}: no kernel argument '{name}'")

    def ordered_args(self, given: Mapping[str, Any]) -> list[Any]:
        """The kernel arguments in order: buffers and caller scalars from `given` (by name), problem
        sizes from the contract. Giving a problem size is allowed only with the contract's value."""
        known = [arg.name for arg in self.args]
        unknown = sorted(name for name in given if name not in known)
        if unknown:
            raise LaunchError(f"{self.family}: unknown argument(s): {', '.join(unknown)}")
        ordered: list[Any] = []
        for arg in self.args:
            if arg.value is not None:
                if arg.name in given and given[arg.name] != arg.value:
                    raise LaunchError(f"{self.family}: argument {arg.name} is fixed to {arg.value} by the problem")
                ordered.append(arg.value)
            elif arg.name in given:
                ordered.append(given[arg.name])
            else:
                raise LaunchError(f"{self.family}: missing argument '{arg.name}'")
        return ordered


def problem_sizes(family: str, problem: Mapping[str, int], keys: Sequence[str]) -> tuple[int, ...]:
    """The problem's sizes for exactly `keys`, each a positive int; LaunchError otherwise."""
    names = sorted(problem)
    if names != sorted(keys):
        raise LaunchError(f"{family}: the problem needs exactly the sizes {', '.join(keys)}; got {', '.join(names)}")
    values = []
    for key in keys:
        value = problem[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise LaunchError(f"{family}: problem size {key} must be a positive int")
        values.append(value)
    return tuple(values)


def check_buffer(family: str, name: str, nbytes: int) -> int:
    """nbytes when a buffer of that size is addressable by i32 byte offsets; LaunchError otherwise."""
    if nbytes > MAX_BUFFER_BYTES:
        raise LaunchError(f"{family}: buffer {name} needs {nbytes} bytes; at most {MAX_BUFFER_BYTES} are addressable")
    return nbytes


TEMPLATE_FORMAT = "rocke.launch-template/1"


def launch_template(kernel: Any, *, family: str, spec: str, arch: str) -> dict[str, Any]:
    """What a host needs to launch a built kernel besides the problem: the symbol, the arguments in
    order with their IR types, the block bound and the spec (the family's `launch(spec, problem)`
    gives grid, buffer sizes and zero-fills for a problem). It is written as `KERNEL.launch.json`
    next to the .ll and the code object, and is the launch template of a catalog entry.

    Twin: rocke/families/launch.hpp (launch_template_json), byte for byte."""
    return {
        "arch": arch,
        "args": [{"name": param.name, "type": str(param.type)} for param in kernel.params],
        "family": family,
        "format": TEMPLATE_FORMAT,
        "kernel": kernel.name,
        "max_workgroup_size": kernel.attrs.get("max_workgroup_size"),
        "spec": spec,
    }


def template_json(template: Mapping[str, Any]) -> str:
    """Sorted keys, two-space indent, LF line ends, final LF (as LaunchContract.to_json)."""
    return json.dumps(dict(template), sort_keys=True, indent=2) + "\n"
