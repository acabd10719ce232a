"""Every built elementwise config, lowered for the running LLVM's flavor, compiles with real LLVM (in child
processes) into a shippable kernel (rocke.isa.shippable) at the occupancy its kernel descriptor reserves."""

from __future__ import annotations

import pytest

from rocke.families.elementwise.family import FAMILY
from rocke.gates import conformance as kit

pytestmark = [pytest.mark.validity, pytest.mark.validity_llvm20]  # each lane checks its own flavor


class TestElementwiseValidity(kit.ValidityConformance):
    family = FAMILY
