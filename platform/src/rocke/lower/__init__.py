"""rocke.lower: KernelDef -> AMDGPU LLVM IR text, per flavor (Python engine).

    lower(kernel, arch=, flavor=) -> str     the .ll text (platform/docs/lowering.md)
    lower_verified(kernel, arch=, flavor=)   the same for a kernel verified for arch (no re-verify)
    LowerError                               a refusal, raised before any LLVM sees text
"""

from .errors import LowerError
from .module import lower, lower_verified

__all__ = ["LowerError", "lower", "lower_verified"]
