"""Resource usage of compiled kernels, read from the assembly LLVM printed.

Sources, per field (see platform/docs/toolchain.md):

* ``.amdgpu_metadata`` (HSA code object metadata, YAML): name, wavefront
  size, VGPR/AGPR/SGPR counts, spill counts, LDS and scratch bytes, max
  flat workgroup size, target.
* ``.amdhsa_kernel`` directives (kernel descriptor): cross-checks of LDS,
  scratch and wave size, and ``.amdhsa_accum_offset`` on CDNA.
* ``.set <kernel>.num_vgpr`` (LLVM's resource symbols): the architectural
  VGPR count on CDNA, where the metadata's ``.vgpr_count`` is the unified
  VGPR+AGPR allocation.
* ``.amdhsa_next_free_vgpr`` / ``.amdhsa_next_free_sgpr`` (kernel descriptor): the registers
  the code object reserves, which the hardware allocates (COMPUTE_PGM_RSRC1). LLVM 22 often
  reserves more than the kernel counts; occupancy is computed from the reserved figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from rocke.arch import fits_lds, get_arch, occupancy
from rocke.isa.archs import check_arch, llvm_cpu
from rocke.isa.errors import ResourceParseError
from rocke.isa.metadata_yaml import parse_yaml
from rocke.isa.ptxas import NvidiaResources, nvidia_refusal_reason

_SET_RE = re.compile(r"^\s*\.set\s+([^,\s]+)\s*,\s*(.+?)\s*$")
_DIRECTIVE_RE = re.compile(r"^\s*(\.amdhsa_[a-z0-9_]+)\s+(.+?)\s*$")
# Bounded so untrusted digits never reach int()'s size limit; real counts are far smaller.
_INT_RE = re.compile(r"^[0-9]{1,18}$")


@dataclass(frozen=True)
class Resources:
    """What one kernel costs the hardware, as compiled for ``arch``.

    ``vgprs`` are architectural VGPRs (v registers), ``agprs`` accumulation
    registers (a registers, CDNA only) and ``unified_vgprs`` the per-lane
    VGPR allocation the hardware makes (equal to ``vgprs`` on RDNA; on CDNA
    ``vgprs`` rounded up to 4 plus ``agprs`` when AGPRs are used). ``sgprs``
    counts the SGPRs LLVM reserves too (VCC, flat scratch, XNACK). These are the *counted*
    registers (what the code uses, from the metadata and LLVM's resource symbols).

    ``reserved_vgprs`` / ``reserved_sgprs`` are what the kernel descriptor reserves, what the
    hardware allocates: ``.amdhsa_next_free_vgpr`` (unified VGPR+AGPR on CDNA; the split at
    ``.amdhsa_accum_offset``) and ``.amdhsa_next_free_sgpr`` plus the SGPRs LLVM adds to the
    counted ones (``sgprs`` minus the ``.set <kernel>.numbered_sgpr`` symbol). Without a
    descriptor they equal the counted figures.

    ``occupancy`` is waves per SIMD from ``rocke.arch.occupancy`` with the reserved figures;
    ``counted_occupancy`` the same with the counted ones (never lower).
    """

    kernel: str
    arch: str
    wave_size: int
    vgprs: int
    agprs: int
    unified_vgprs: int
    sgprs: int
    reserved_vgprs: int
    reserved_sgprs: int
    scratch_bytes: int
    lds_bytes: int
    vgpr_spill: int
    sgpr_spill: int
    workgroup_size: int
    occupancy: int
    counted_occupancy: int

    def to_dict(self) -> dict[str, str | int]:
        """Fields in declaration order, JSON-ready."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _metadata_text(asm_text: str) -> str:
    lines = asm_text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == ".amdgpu_metadata"]
    if not starts:
        raise ResourceParseError("no .amdgpu_metadata block in the assembly")
    if len(starts) > 1:
        raise ResourceParseError("more than one .amdgpu_metadata block in the assembly")
    first = starts[0] + 1
    for i in range(first, len(lines)):
        if lines[i].strip() == ".end_amdgpu_metadata":
            return "\n".join(lines[first:i])
    raise ResourceParseError(".amdgpu_metadata block is not terminated by .end_amdgpu_metadata")


def _descriptors(asm_text: str) -> dict[str, dict[str, str]]:
    """``.amdhsa_kernel NAME`` blocks: kernel name -> directive -> raw value text."""
    out: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for line in asm_text.split("\n"):
        words = line.split()
        if not words:
            continue
        if words[0] == ".amdhsa_kernel" and len(words) == 2:
            current = out.setdefault(words[1], {})
        elif words[0] == ".end_amdhsa_kernel":
            current = None
        elif current is not None:
            match = _DIRECTIVE_RE.match(line)
            if match:
                current[match.group(1)] = match.group(2)
    return out


def _set_symbols(asm_text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in asm_text.split("\n"):
        match = _SET_RE.match(line)
        if match:
            out[match.group(1)] = match.group(2)
    return out


def _plain_int(text: str | None) -> int | None:
    return int(text) if text is not None and _INT_RE.match(text) else None


class _Kernel:
    """Typed access to one kernel's metadata map, with messages naming the kernel."""

    def __init__(self, entry: object, position: int) -> None:
        if not isinstance(entry, dict):
            raise ResourceParseError(f"amdhsa.kernels entry {position} is not a mapping")
        self.entry = entry
        name = entry.get(".name")
        if not isinstance(name, str) or not name:
            raise ResourceParseError(f"amdhsa.kernels entry {position} has no .name")
        self.name = name

    def int(self, key: str, default: int | None = None) -> int:
        raw = self.entry.get(key)
        if raw is None and default is not None:
            return default
        if raw is None:
            raise ResourceParseError(f"kernel {self.name}: metadata lacks {key}")
        value = _plain_int(raw) if isinstance(raw, str) else None
        if value is None:
            raise ResourceParseError(f"kernel {self.name}: metadata {key} is not a non-negative integer")
        return value


def _cross_check(kernel: str, meta_key: str, meta_value: int, directive: str, desc: dict[str, str]) -> None:
    value = _plain_int(desc.get(directive))
    if value is not None and value != meta_value:
        raise ResourceParseError(
            f"kernel {kernel}: metadata {meta_key} {meta_value} disagrees with {directive} {value}"
        )


def _target_processor(doc: dict) -> str:
    target = doc.get("amdhsa.target")
    if not isinstance(target, str) or "--" not in target:
        raise ResourceParseError("metadata lacks amdhsa.target")
    # amdgcn-amd-amdhsa--gfx942[:sramecc+][:xnack-]
    return target.split("--", 1)[1].split(":", 1)[0]


def _resources_of(kernel: _Kernel, arch: str, desc: dict[str, str], symbols: dict[str, str]) -> Resources:
    name = kernel.name
    wave_size = kernel.int(".wavefront_size")
    lds_bytes = kernel.int(".group_segment_fixed_size")
    scratch_bytes = kernel.int(".private_segment_fixed_size")
    _cross_check(name, ".group_segment_fixed_size", lds_bytes, ".amdhsa_group_segment_fixed_size", desc)
    _cross_check(
        name, ".private_segment_fixed_size", scratch_bytes, ".amdhsa_private_segment_fixed_size", desc
    )
    if desc:
        # The descriptor states wave32 explicitly; its absence means wave64.
        desc_wave = 32 if desc.get(".amdhsa_wavefront_size32") == "1" else 64
        if desc_wave != wave_size:
            raise ResourceParseError(
                f"kernel {name}: metadata .wavefront_size {wave_size} "
                f"disagrees with the descriptor's {desc_wave}"
            )

    unified = kernel.int(".vgpr_count")
    agprs = kernel.int(".agpr_count", default=0)  # the key exists only on CDNA
    vgprs = _plain_int(symbols.get(f"{name}.num_vgpr"))
    if vgprs is None:
        # Older LLVMs print no resource symbols; without AGPRs the count is exact,
        # with them the accumulator offset bounds it (rounded up to 4).
        accum = _plain_int(desc.get(".amdhsa_accum_offset"))
        vgprs = accum if agprs and accum is not None else unified

    sgprs = kernel.int(".sgpr_count")
    reserved_vgprs, reserved_sgprs = _reserved(name, unified, sgprs, desc, symbols)
    workgroup_size = kernel.int(".max_flat_workgroup_size")
    if workgroup_size < 1:
        raise ResourceParseError(f"kernel {name}: metadata .max_flat_workgroup_size must be at least 1")
    target = get_arch(arch)
    if wave_size != target.wave_size:
        # rocke.arch's occupancy model assumes the arch's native wave size.
        raise ResourceParseError(
            f"kernel {name}: compiled for wave{wave_size}, but rocke.arch models {arch} "
            f"in wave{target.wave_size}"
        )
    lds_limit = {"lds_bytes": lds_bytes, "workgroup_size": workgroup_size}
    accum = _plain_int(desc.get(".amdhsa_accum_offset"))
    if target.unified_vgpr_file and accum is not None and reserved_vgprs > accum:
        reserved_split = {"vgprs": accum, "agprs": reserved_vgprs - accum}
    else:
        reserved_split = {"vgprs": reserved_vgprs, "agprs": 0}
    return Resources(
        kernel=name,
        arch=arch,
        wave_size=wave_size,
        vgprs=vgprs,
        agprs=agprs,
        unified_vgprs=unified,
        sgprs=sgprs,
        reserved_vgprs=reserved_vgprs,
        reserved_sgprs=reserved_sgprs,
        scratch_bytes=scratch_bytes,
        lds_bytes=lds_bytes,
        vgpr_spill=kernel.int(".vgpr_spill_count"),
        sgpr_spill=kernel.int(".sgpr_spill_count"),
        workgroup_size=workgroup_size,
        occupancy=occupancy(target, **reserved_split, sgprs=reserved_sgprs, **lds_limit),
        counted_occupancy=occupancy(target, vgprs=vgprs, agprs=agprs, sgprs=sgprs, **lds_limit),
    )


def _reserved(name: str, unified: int, sgprs: int, desc: dict[str, str], symbols: dict[str, str]
              ) -> tuple[int, int]:
    """(reserved VGPRs, reserved SGPRs) from the kernel descriptor; the counted ones without it."""
    next_vgpr = _plain_int(desc.get(".amdhsa_next_free_vgpr"))
    next_sgpr = _plain_int(desc.get(".amdhsa_next_free_sgpr"))
    numbered = _plain_int(symbols.get(f"{name}.numbered_sgpr"))
    reserved_vgprs = unified if next_vgpr is None else next_vgpr
    reserved_sgprs = sgprs
    if next_sgpr is not None and numbered is not None and numbered <= sgprs:
        reserved_sgprs = next_sgpr + sgprs - numbered
    if reserved_vgprs < unified or reserved_sgprs < sgprs:
        raise ResourceParseError(
            f"kernel {name}: the descriptor reserves {reserved_vgprs} VGPRs and {reserved_sgprs} SGPRs, "
            f"fewer than the {unified} and {sgprs} the metadata counts"
        )
    return reserved_vgprs, reserved_sgprs


#: Why a compiled kernel cannot ship, in the order :func:`refusal_reason` checks them; the first
#: that applies is the reason (the resource-refusal tables and the validity gate name it).
REFUSAL_REASONS: tuple[str, ...] = ("spills", "scratch", "lds_over_capacity", "occupancy_zero")


def refusal_reason(res: Resources | NvidiaResources) -> str | None:
    """Why ``res`` cannot ship, or None when it can (the one "shippable resources" rule).

    ``spills``: LLVM spilled VGPRs or SGPRs (to scratch or, for SGPRs, to VGPR lanes);
    ``scratch``: scratch memory without a spill count (a private array or stack);
    ``lds_over_capacity``: more LDS than one workgroup may allocate on the arch;
    ``occupancy_zero``: the kernel cannot be resident at all (``Resources.occupancy``).
    NVIDIA kernels (``NvidiaResources``) follow ``nvidia_refusal_reason``: the same names for
    ptxas's spills, local memory stack frame and shared memory.
    """
    if isinstance(res, NvidiaResources):
        return nvidia_refusal_reason(res)
    if res.vgpr_spill > 0 or res.sgpr_spill > 0:
        return "spills"
    if res.scratch_bytes > 0:
        return "scratch"
    if not fits_lds(res.arch, res.lds_bytes):
        return "lds_over_capacity"
    if res.occupancy == 0:
        return "occupancy_zero"
    return None


def shippable(res: Resources | NvidiaResources) -> bool:
    """Whether a compiled kernel may ship: no spill of any kind, no scratch, LDS within the arch's
    capacity and occupancy above 0 (:func:`refusal_reason` says which rule fails)."""
    return refusal_reason(res) is None


def all_resources(asm_text: str, arch: str) -> tuple[Resources, ...]:
    """Resources of every kernel in the assembly, in the order LLVM listed them."""
    check_arch(arch)
    doc = parse_yaml(_metadata_text(asm_text))
    if not isinstance(doc, dict):
        raise ResourceParseError("metadata is not a mapping")
    processor = _target_processor(doc)
    if processor != llvm_cpu(arch):
        raise ResourceParseError(f"the assembly was compiled for {processor}, not {arch}")
    entries = doc.get("amdhsa.kernels")
    if not isinstance(entries, list) or not entries:
        raise ResourceParseError("metadata lists no kernels (amdhsa.kernels)")
    descriptors = _descriptors(asm_text)
    symbols = _set_symbols(asm_text)
    out = []
    for position, entry in enumerate(entries):
        kernel = _Kernel(entry, position)
        out.append(_resources_of(kernel, arch, descriptors.get(kernel.name, {}), symbols))
    return tuple(out)


def resources(asm_text: str, arch: str, *, kernel: str | None = None) -> Resources:
    """Resources of one kernel: the named one, or the only one in the assembly."""
    found = all_resources(asm_text, arch)
    if kernel is None:
        if len(found) != 1:
            names = ", ".join(r.kernel for r in found)
            raise ResourceParseError(f"the assembly holds {len(found)} kernels ({names}); name one")
        return found[0]
    for res in found:
        if res.kernel == kernel:
            return res
    names = ", ".join(r.kernel for r in found)
    raise ResourceParseError(f"no kernel {kernel} in the assembly (kernels: {names})")
