"""lower(kernel, arch=, flavor=): a verified KernelDef as the text of one LLVM IR module for the
arch's target (rocke/arch/data/targets.toml: amdgcn or nvptx).

The module is built as plain text, in this order (sections separated by one blank line):

    target datalayout = "<the target's datalayout for the flavor>"
    target triple = "<the target's triple>"

    @rocke.lds = internal addrspace(3) global [N x i8] poison, align A     (only with LDS)

    define <the target's kernel_cc> void @NAME(PARAMS) #0 {
    entry:
      ...
      ret void
    }

    declare ...                         (only the intrinsics used, in intrinsic-table order)

    attributes #0 = { ... }             (sorted by attribute name)

    !...                                (nvptx only: the !nvvm.annotations of the kernel)

See platform/docs/lowering.md for the naming rules and every op's lowering.
"""

from __future__ import annotations

from rocke.arch import ArchTarget, Flavor, get_flavor, resolve_arch
from rocke.ir.core import KernelDef, Param
from rocke.ir.verifier import verify

from .dispatch import lower_op
from .emitter import FunctionEmitter
from .lds import plan_lds, pool_global
from .nvptx import module as nvptx_module


def lower(kernel: KernelDef, *, arch: str | ArchTarget, flavor: str) -> str:
    """The .ll text of kernel for arch under flavor.

    Raises ValueError for an unknown flavor (listing the known ones), rocke.arch.UnknownArchError
    for an unknown arch, rocke.ir.VerifyError for a kernel the verifier refuses on that arch, and
    LowerError for what the lowerer refuses (an intrinsic outside the arch domain, too much LDS,
    an unsupported buffer access size, a shuffle mask at or above the wave size).
    """
    row = get_flavor(flavor)
    target = resolve_arch(arch)
    verify(kernel, target)
    return _lower(kernel, target, row)


def lower_verified(kernel: KernelDef, *, arch: str | ArchTarget, flavor: str) -> str:
    """lower() of a kernel the caller has verified for arch (verify(kernel, arch)) and not changed
    since: the same text and refusals, without verifying again (C++ twin: lower::lower_verified)."""
    row = get_flavor(flavor)
    return _lower(kernel, resolve_arch(arch), row)


def _lower(kernel: KernelDef, target: ArchTarget, row: Flavor) -> str:
    lds = plan_lds(kernel, target)
    em = FunctionEmitter(target, row, lds.offsets, lower_op)
    params = ", ".join(param_text(param, row, em) for param in kernel.params)
    em.label("entry")
    em.lower_ops(kernel.body.ops, "body")
    em.emit("ret void")

    vendor = em.target
    out = [f'target datalayout = "{vendor.datalayout(row.name)}"', f'target triple = "{vendor.triple}"', ""]
    if lds.size:
        out += [pool_global(lds, vendor), ""]
    out.append(f"define {vendor.kernel_cc} void @{kernel.name}({params}) #0 {{")
    out += em.lines
    out += ["}", ""]
    decls = sorted(em.decls.values(), key=lambda d: (d.index, d.name))
    if decls:
        out += [decl.text for decl in decls] + [""]
    attributes, metadata = MODULE_PARTS[vendor.name]
    out.append(f"attributes #0 = {{ {' '.join(attributes(kernel, target))} }}")
    tail = metadata(kernel, target)
    if tail:
        out += ["", *tail]
    return "\n".join(out) + "\n"


def param_text(param: Param, flavor: Flavor, em: FunctionEmitter) -> str:
    """TYPE [noalias] NOCAPTURE [readonly|writeonly] [align N] %name (attributes on pointers only)."""
    value = param.value
    parts = [em.llvm_type(value.type)]
    if value.type.is_ptr:
        attrs = param.attrs
        if attrs["noalias"]:
            parts.append("noalias")
        parts.append(flavor.nocapture)  # rocke.ir cannot store a pointer, so no param is captured
        if attrs["readonly"]:
            parts.append("readonly")
        if attrs["writeonly"]:
            parts.append("writeonly")
        if attrs["align"]:
            parts.append(f"align {attrs['align']}")
    parts.append(em.bind(value))
    return " ".join(parts)


def kernel_attributes(kernel: KernelDef, arch: ArchTarget) -> list[str]:
    """String attributes of the kernel, sorted by name."""
    max_wg = int(kernel.attrs["max_workgroup_size"])
    attrs = [
        ("amdgpu-flat-work-group-size", f"{min(arch.wave_size, max_wg)},{max_wg}"),
        ("target-cpu", arch.llvm_cpu),
    ]
    waves = int(kernel.attrs["waves_per_eu"])
    if waves:
        attrs.append(("amdgpu-waves-per-eu", str(waves)))
    return [f'"{name}"="{value}"' for name, value in sorted(attrs)]



def no_metadata(kernel: KernelDef, arch: ArchTarget) -> list[str]:
    return []


# target name -> (kernel attributes, closing metadata) of its modules.
MODULE_PARTS = {
    "amdgcn": (kernel_attributes, no_metadata),
    "nvptx": (nvptx_module.kernel_attributes, nvptx_module.module_metadata),
}
