"""Flavor -> LLVM toolchain table and the running llvmlite's identity.

The flavor rows (LLVM major, llvmlite range) come from the one flavor table,
``rocke/arch/data/flavors.toml``, and each target's triple from ``rocke/arch/data/targets.toml``;
how the backends are driven (optimisation level, code model, ptxas's level) is
``data/toolchains.toml``. This module only
reads them and answers questions such as "may this environment compile flavor X?".
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources as _pkg_resources

from rocke.arch import flavor_data, get_flavor, get_target
from rocke.isa.errors import FlavorMismatchError

_FORMAT = "rocke.isa.toolchains/4"


@dataclass(frozen=True)
class FlavorToolchain:
    """One flavor row: the LLVM major that validates it and the llvmlite releases bundling it."""

    name: str
    llvm_major: int
    llvmlite_min: str
    llvmlite_max: str


@dataclass(frozen=True)
class TargetConfig:
    """How the AMDGPU backend is driven for every compile."""

    triple: str
    codegen_opt_level: int
    code_model: str


@dataclass(frozen=True)
class NvptxConfig:
    """How the NVPTX backend and ptxas are driven for every compile."""

    triple: str
    codegen_opt_level: int
    code_model: str
    ptxas_opt_level: int


@dataclass(frozen=True)
class ToolchainTable:
    target: TargetConfig
    flavors: tuple[FlavorToolchain, ...]
    nvptx: NvptxConfig


def _require(table: dict, key: str, kind: type, where: str):
    value = table.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ValueError(f"toolchains.toml: {where}.{key} must be a {kind.__name__}")
    return value


@functools.cache
def toolchain_table() -> ToolchainTable:
    """The backend settings of ``data/toolchains.toml`` and the flavor rows of rocke.arch (read once)."""
    raw = _pkg_resources.files("rocke.isa").joinpath("data/toolchains.toml").read_bytes()
    doc = tomllib.loads(raw.decode("utf-8"))
    if doc.get("format") != _FORMAT:
        raise ValueError(f"toolchains.toml: format must be {_FORMAT}")
    tgt = doc.get("target", {})
    target = TargetConfig(
        triple=get_target("amdgcn").triple,
        codegen_opt_level=_require(tgt, "codegen_opt_level", int, "target"),
        code_model=_require(tgt, "code_model", str, "target"),
    )
    rows = tuple(
        FlavorToolchain(name=f.name, llvm_major=f.llvm_major, llvmlite_min=f.llvmlite_min, llvmlite_max=f.llvmlite_max)
        for f in flavor_data().flavors
    )
    return ToolchainTable(target=target, flavors=rows, nvptx=_nvptx_config(doc.get("nvptx", {})))


def _nvptx_config(raw: dict) -> NvptxConfig:
    return NvptxConfig(
        triple=get_target("nvptx").triple,
        codegen_opt_level=_require(raw, "codegen_opt_level", int, "nvptx"),
        code_model=_require(raw, "code_model", str, "nvptx"),
        ptxas_opt_level=_require(raw, "ptxas_opt_level", int, "nvptx"),
    )


def backend_settings(triple: str) -> tuple[int, str]:
    """(codegen optimisation level, code model) of the backend for ``triple`` (AMDGPU or NVPTX)."""
    table = toolchain_table()
    if triple == table.target.triple:
        return table.target.codegen_opt_level, table.target.code_model
    if triple == table.nvptx.triple:
        return table.nvptx.codegen_opt_level, table.nvptx.code_model
    raise ValueError(f"unknown target triple '{triple}'; known triples: {table.target.triple}, {table.nvptx.triple}")


def flavor_names() -> tuple[str, ...]:
    """Known flavors, sorted."""
    return tuple(r.name for r in toolchain_table().flavors)


def flavor_toolchain(flavor: str) -> FlavorToolchain:
    """The table row for ``flavor``; unknown flavors raise ``ValueError`` listing the known ones."""
    name = get_flavor(flavor).name
    for row in toolchain_table().flavors:
        if row.name == name:
            return row
    raise AssertionError(f"flavor '{name}' is missing from the toolchain table")


def llvm_version() -> tuple[int, int, int]:
    """(major, minor, patch) of the LLVM bundled in the running llvmlite."""
    import llvmlite.binding as llvm

    major, minor, patch = llvm.llvm_version_info
    return (int(major), int(minor), int(patch))


def llvm_major() -> int:
    """Major version of the LLVM bundled in the running llvmlite."""
    return llvm_version()[0]


def llvmlite_version() -> str:
    import llvmlite

    return str(llvmlite.__version__)


def running_flavor() -> str | None:
    """The flavor the running LLVM validates, or None if no flavor targets it."""
    major = llvm_major()
    for row in toolchain_table().flavors:
        if row.llvm_major == major:
            return row.name
    return None


def check_flavor(flavor: str) -> FlavorToolchain:
    """Refuse a flavor this environment's LLVM cannot validate.

    Raises ``ValueError`` for an unknown flavor and ``FlavorMismatchError`` when
    the flavor needs another LLVM major than the running one.
    """
    row = flavor_toolchain(flavor)
    have = llvm_version()
    if row.llvm_major != have[0]:
        have_text = ".".join(str(part) for part in have)
        raise FlavorMismatchError(
            f"flavor {row.name} needs LLVM {row.llvm_major} "
            f"(llvmlite {row.llvmlite_min}-{row.llvmlite_max}); "
            f"this environment has LLVM {have_text} (llvmlite {llvmlite_version()})"
        )
    return row
