"""rocke.ir: the typed SSA IR of rocKE.

Types (by value), the op table (data/ops.toml), Value/Op/Region/KernelDef, the Builder, the
verifier, the rocke.ir/1 text format (printer and parser) and canonicalization.
"""

from .archlike import ArchLike
from .attrs import KERNEL_ATTRS, PARAM_ATTRS, AttrDef
from .builder import Builder
from .canonical import canonicalize, equivalent
from .core import KernelDef, Op, Param, Region, Value
from .errors import ParseError, VerifyError
from .facts import VERSION
from .needs import KernelNeeds, kernel_needs
from .optable import OP_BY_NAME, OPS, OpDef, get_op
from .parser import parse_kernel
from .printer import print_kernel
from .types import (
    ADDRESS_SPACES,
    SCALAR_TYPES,
    PtrType,
    RsrcType,
    ScalarType,
    Type,
    VecType,
    bf16,
    f16,
    f32,
    i1,
    i8,
    i16,
    i32,
    i64,
    parse_type,
    ptr,
    rsrc,
    scalar_type,
    vec,
)
from .verifier import verify

__all__ = [
    "ADDRESS_SPACES",
    "KERNEL_ATTRS",
    "OPS",
    "OP_BY_NAME",
    "PARAM_ATTRS",
    "SCALAR_TYPES",
    "VERSION",
    "ArchLike",
    "AttrDef",
    "Builder",
    "KernelDef",
    "KernelNeeds",
    "Op",
    "OpDef",
    "Param",
    "ParseError",
    "PtrType",
    "Region",
    "RsrcType",
    "ScalarType",
    "Type",
    "Value",
    "VecType",
    "VerifyError",
    "bf16",
    "canonicalize",
    "equivalent",
    "f16",
    "f32",
    "get_op",
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "kernel_needs",
    "parse_kernel",
    "parse_type",
    "print_kernel",
    "ptr",
    "rsrc",
    "scalar_type",
    "vec",
    "verify",
]
