"""The families owned by platform (registered under the entry point ``rocke``)."""

from __future__ import annotations

from rocke.families import elementwise, gemm
from rocke.families.elementwise import numerics as elementwise_numerics
from rocke.families.gemm import numerics as gemm_numerics
from rocke.families.registry import Family

OWNER = "rocke"
PACKAGE = "rocke.families"  # holds configs/<name>.cfg
CPP_ENGINE = "rocke_engine"
NATIVE_EMITTER = "rocke-emit"


def provide() -> list[Family]:
    """Platform's families, sorted by name."""
    return [
        Family("elementwise", OWNER, spec=elementwise.ElementwiseSpec, build=elementwise.build, package=PACKAGE,
               cpp_engine=CPP_ENGINE, native_emitter=NATIVE_EMITTER, launch=elementwise.launch,
               reference=elementwise.reference, numerics=elementwise_numerics.numerics),
        Family("gemm", OWNER, spec=gemm.GemmSpec, build=gemm.build, package=PACKAGE, cpp_engine=CPP_ENGINE,
               native_emitter=NATIVE_EMITTER, launch=gemm.launch, reference=gemm.reference,
               numerics=gemm_numerics.numerics),
    ]
