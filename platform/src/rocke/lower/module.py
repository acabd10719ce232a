"""lower(kernel, arch=, flavor=): a verified KernelDef as the text of one AMDGPU LLVM IR module.

The module is built as plain text, in this order (sections separated by one blank line):

    target datalayout = "<the flavor's datalayout>"
    target triple = "amdgcn-amd-amdhsa"

    @rocke.lds = internal addrspace(3) global [N x i8] poison, align A     (only with LDS)

    define amdgpu_kernel void @NAME(PARAMS) #0 {
    entry:
      ...
      ret void
    }

    declare ...                         (only the intrinsics used, in intrinsic-table order)

    attributes #0 = { ... }             (sorted by attribute name)

See platform/docs/lowering.md for the naming rules and every op's lowering.
"""

from __future__ import annotations

from rocke.arch import TARGET, ArchTarget, Flavor, get_flavor, resolve_arch
from rocke.ir.core import KernelDef, Param
from rocke.ir.verifier import verify

from .dispatch import lower_op
from .emitter import FunctionEmitter
from .lds import plan_lds, pool_global
from .llvm_types import llvm_type


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

    out = [f'target datalayout = "{row.datalayout}"', f'target triple = "{TARGET.triple}"', ""]
    if lds.size:
        out += [pool_global(lds), ""]
    out.append(f"define amdgpu_kernel void @{kernel.name}({params}) #0 {{")
    out += em.lines
    out += ["}", ""]
    decls = sorted(em.decls.values(), key=lambda d: (d.index, d.name))
    if decls:
        out += [decl.text for decl in decls] + [""]
    out.append(f"attributes #0 = {{ {' '.join(kernel_attributes(kernel, target))} }}")
    return "\n".join(out) + "\n"


def param_text(param: Param, flavor: Flavor, em: FunctionEmitter) -> str:
    """TYPE [noalias] NOCAPTURE [readonly|writeonly] [align N] %name (attributes on pointers only)."""
    value = param.value
    parts = [llvm_type(value.type)]
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

