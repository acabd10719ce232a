"""The conv_igemm_wgrad family record: everything library registers about it (`rocke_library.families` lists it)."""

from __future__ import annotations

from rocke.families import Family

from .builder import build
from .contract import launch
from .numerics import numerics
from .reference import reference
from .spec import ConvIgemmWgradSpec

FAMILY = Family("conv_igemm_wgrad", "rocke-library", spec=ConvIgemmWgradSpec, build=build, package=__package__,
                cpp_engine="rocke_library_engine", native_emitter="rocke-library-emit", launch=launch,
                reference=reference, numerics=numerics)
