"""In-process parse + verify of ``.ll`` text for one flavor."""

from __future__ import annotations

from rocke.isa.llvm_module import parse_and_verify
from rocke.isa.targets import codegen_target
from rocke.isa.toolchains import check_flavor


def verify_ll(ll_text: str, flavor: str, *, arch: str | None = None) -> None:
    """Parse and verify ``ll_text`` with the running LLVM, which must be ``flavor``'s.

    Without ``arch`` the module must target AMDGPU; with it, the triple of ``arch``'s
    vendor (``nvptx64-nvidia-cuda`` for an NVIDIA arch).

    Raises ``ValueError`` (unknown flavor), ``FlavorMismatchError`` (this
    environment's LLVM does not validate ``flavor``) or ``LLVMVerifyError``
    carrying LLVM's message. Parsing and verifying never run the backend, so
    this is safe in the caller's process.
    """
    check_flavor(flavor)
    parse_and_verify(ll_text, None if arch is None else codegen_target(arch).triple)
