"""attention_bwd_convert over its config file, through the conformance kit: every config builds and
verifies, or refuses, as its line says; kernels match their launch contracts."""

from __future__ import annotations

from typing import ClassVar

from test_attention_bwd_convert_specs import BASE

from rocke.families.spec import Spec
from rocke.gates import conformance as kit
from rocke_library.kernels.attention.attention_bwd_convert.family import FAMILY

BATCHED = {"batch": 2, "seqlen_q": 100, "seqlen_k": 77, "heads_q": 8, "heads_kv": 2}
VARLEN = {"total_q": 150, "total_k": 120, "heads_q": 8, "heads_kv": 1}


class TestAttentionBwdConvertBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = BATCHED
    dtypes = ("f16", "bf16")

    def problem_for(self, spec: Spec) -> dict[str, int]:
        return VARLEN if spec.seq_mode == "varlen" else BATCHED  # type: ignore[attr-defined]
