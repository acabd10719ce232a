"""The families owned by library, registered under the entry point ``rocke_library``.

A family is shipped (returned by :func:`provide`) only once its Python builder and its C++ twin
(``rocke_library_engine.build_family`` and ``rocke-library-emit``) agree byte for byte on every
config of its config file; the others are defined here but not registered yet.
"""

from __future__ import annotations

from rocke.families import Family
from rocke_library.kernels.conv import conv_direct_fwd, img2col
from rocke_library.kernels.conv.conv_direct_fwd import numerics as conv_direct_fwd_numerics
from rocke_library.kernels.conv.img2col import numerics as img2col_numerics

OWNER = "rocke-library"
PACKAGE = "rocke_library"  # ships configs/<name>.cfg and goldens/<name>.json
CPP_ENGINE = "rocke_library_engine"
NATIVE_EMITTER = "rocke-library-emit"

SHIPPED: tuple[str, ...] = ("conv_direct_fwd", "img2col")  # their C++ twins pass parity on every config


def defined() -> list[Family]:
    """Every family library defines, shipped or not, sorted by name."""
    return [
        Family("conv_direct_fwd", OWNER, spec=conv_direct_fwd.ConvDirectFwdSpec, build=conv_direct_fwd.build,
               package=PACKAGE, cpp_engine=CPP_ENGINE, native_emitter=NATIVE_EMITTER,
               launch=conv_direct_fwd.launch, reference=conv_direct_fwd.reference,
               numerics=conv_direct_fwd_numerics.numerics),
        Family("img2col", OWNER, spec=img2col.Img2colSpec, build=img2col.build, package=PACKAGE,
               cpp_engine=CPP_ENGINE, native_emitter=NATIVE_EMITTER, launch=img2col.launch,
               reference=img2col.reference, numerics=img2col_numerics.numerics),
    ]


def provide() -> list[Family]:
    """Library's shipped families, sorted by name."""
    return [family for family in defined() if family.name in SHIPPED]
