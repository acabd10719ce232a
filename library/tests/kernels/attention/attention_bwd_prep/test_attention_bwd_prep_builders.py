"""attention_bwd_prep over its config file, through the conformance kit: every config builds and
verifies, or refuses, as its line says; kernels match their launch contracts."""

from __future__ import annotations

from typing import ClassVar

from test_attention_bwd_prep_specs import BASE

from rocke.families.spec import Spec
from rocke.gates import conformance as kit
from rocke_library.kernels.attention.attention_bwd_prep.family import FAMILY

BATCHED = {"batch": 2, "seqlen_q": 100, "heads_q": 8, "zero_count": 4096}
VARLEN = {"total_q": 150, "heads_q": 8, "zero_count": 4096}


class TestAttentionBwdPrepBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = BATCHED
    dtypes = ("f16", "bf16")

    def problem_for(self, spec: Spec) -> dict[str, int]:
        return VARLEN if spec.seq_mode == "varlen" else BATCHED  # type: ignore[attr-defined]
