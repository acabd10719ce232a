"""Every built conv_igemm_dgrad config, lowered for the running LLVM's flavor, compiles with real LLVM (in child
processes) into a shippable kernel (rocke.isa.shippable) at the occupancy its kernel descriptor
reserves. Runs in both LLVM lanes, each with its own flavor."""

from __future__ import annotations

import pytest

from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY

pytestmark = [pytest.mark.validity, pytest.mark.validity_llvm20]  # each lane checks its own flavor


class TestConvIgemmDgradValidity(kit.ValidityConformance):
    family = FAMILY
