"""rocke.lower: KernelDef -> AMDGPU LLVM IR text, per flavor (Python engine).

    lower(kernel, arch=, flavor=) -> str     the .ll text (platform/docs/lowering.md)
    LowerError                               a refusal, raised before any LLVM sees text
"""

from .errors import LowerError
from .module import lower

__all__ = ["LowerError", "lower"]
