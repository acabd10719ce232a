"""conv_igemm_dgrad over its config file, through the conformance kit: every config builds and
verifies, or refuses, as its line says; kernels match their launch contracts; every arch and dtype is
covered."""

from __future__ import annotations

from typing import ClassVar

from test_conv_igemm_dgrad_specs import BASE

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY


class TestConvIgemmDgradBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = {"n": 2, "h": 15, "w": 17, "c": 48, "k": 64, "g": 2}
    dtypes = ("f16", "bf16")
