"""Every built elementwise config, lowered for the running LLVM's flavor, compiles with real LLVM (in child
processes) without scratch or spills and within the arch's LDS."""

from __future__ import annotations

import pytest

from rocke.families.elementwise.family import FAMILY
from rocke.gates import conformance as kit

pytestmark = pytest.mark.validity


class TestElementwiseValidity(kit.ValidityConformance):
    family = FAMILY
