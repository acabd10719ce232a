"""Every built attention_bwd_main config, lowered for the running LLVM's flavor, compiles with real
LLVM (in child processes) without scratch, VGPR or SGPR spills and within the arch's LDS. Runs in
both LLVM lanes, each with its own flavor."""

from __future__ import annotations

import pytest

from rocke.gates import conformance as kit
from rocke_library.kernels.attention.attention_bwd_main.family import FAMILY

pytestmark = [pytest.mark.validity, pytest.mark.validity_llvm20]  # each lane checks its own flavor


class TestAttentionBwdMainValidity(kit.ValidityConformance):
    family = FAMILY
