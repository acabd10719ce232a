"""The gemm family record: everything platform registers about it (`platform_families` lists it)."""

from __future__ import annotations

from rocke.families.registry import Family

from .builder import build
from .contract import launch
from .numerics import numerics
from .reference import reference
from .spec import GemmSpec

FAMILY = Family("gemm", "rocke", spec=GemmSpec, build=build, package=__package__, cpp_engine="rocke_engine",
                native_emitter="rocke-emit", launch=launch, reference=reference, numerics=numerics)
