"""The families owned by library, registered under the entry point ``rocke_library``.

Each family's record lives in its own folder (`rocke_library/kernels/<group>/<family>/family.py`,
beside its config file `<family>.cfg` and golden `<family>.golden.json`); this list only lists them.

A family is shipped (returned by :func:`provide`) only once its Python builder and its C++ twin
(``rocke_library_engine.build_family`` and ``rocke-library-emit``) agree byte for byte on every
config of its config file; the others are defined here but not registered yet.
"""

from __future__ import annotations

from rocke.families import Family
from rocke_library.kernels.attention.attention_bwd_convert.family import FAMILY as ATTENTION_BWD_CONVERT
from rocke_library.kernels.attention.attention_bwd_dq.family import FAMILY as ATTENTION_BWD_DQ
from rocke_library.kernels.attention.attention_bwd_main.family import FAMILY as ATTENTION_BWD_MAIN
from rocke_library.kernels.attention.attention_bwd_prep.family import FAMILY as ATTENTION_BWD_PREP
from rocke_library.kernels.attention.attention_fwd.family import FAMILY as ATTENTION_FWD
from rocke_library.kernels.conv.conv_direct_fwd.family import FAMILY as CONV_DIRECT_FWD
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY as CONV_IGEMM_DGRAD
from rocke_library.kernels.conv.conv_igemm_fwd.family import FAMILY as CONV_IGEMM_FWD
from rocke_library.kernels.conv.conv_igemm_wgrad.family import FAMILY as CONV_IGEMM_WGRAD
from rocke_library.kernels.conv.img2col.family import FAMILY as IMG2COL

# Their C++ twins pass parity on every config.
SHIPPED: tuple[str, ...] = (
    "attention_bwd_convert", "attention_bwd_dq", "attention_bwd_main", "attention_bwd_prep",
    "attention_fwd", "conv_direct_fwd", "conv_igemm_dgrad", "conv_igemm_fwd", "conv_igemm_wgrad",
    "img2col",
)


def defined() -> list[Family]:
    """Every family library defines, shipped or not, sorted by name."""
    return [
        ATTENTION_BWD_CONVERT, ATTENTION_BWD_DQ, ATTENTION_BWD_MAIN, ATTENTION_BWD_PREP, ATTENTION_FWD,
        CONV_DIRECT_FWD, CONV_IGEMM_DGRAD, CONV_IGEMM_FWD, CONV_IGEMM_WGRAD, IMG2COL,
    ]


def provide() -> list[Family]:
    """Library's shipped families, sorted by name."""
    return [family for family in defined() if family.name in SHIPPED]
