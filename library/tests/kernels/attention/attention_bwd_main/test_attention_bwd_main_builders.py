"""attention_bwd_main over its config file, through the conformance kit: every config builds and
verifies, or refuses, as its line says; kernels match their launch contracts (batched and varlen
problems); every arch builds both dtypes and refuses."""

from __future__ import annotations

from typing import ClassVar

from test_attention_bwd_main_specs import BASE

from rocke.families.spec import Spec
from rocke.gates import conformance as kit
from rocke_library.kernels.attention.attention_bwd_main.family import FAMILY

BATCHED = {"batch": 2, "seqlen_q": 100, "seqlen_k": 77, "heads_q": 4, "heads_kv": 4}
GQA = {"batch": 2, "seqlen_q": 100, "seqlen_k": 77, "heads_q": 8, "heads_kv": 2}
VARLEN = {"batch": 3, "max_seqlen_k": 90, "total_q": 150, "total_k": 120, "heads_q": 4, "heads_kv": 4}
VARLEN_MQA = {"batch": 3, "max_seqlen_k": 90, "total_q": 150, "total_k": 120, "heads_q": 4, "heads_kv": 1}


class TestAttentionBwdMainBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = BATCHED
    dtypes = ("f16", "bf16")

    def problem_for(self, spec: Spec) -> dict[str, int]:
        atomic = spec.dkv_mode != "direct"  # type: ignore[attr-defined]
        if spec.seq_mode == "varlen":  # type: ignore[attr-defined]
            return VARLEN_MQA if atomic else VARLEN
        return GQA if atomic else BATCHED
