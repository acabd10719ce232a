"""gemm over its config file, through the conformance kit: every config builds and verifies, or
refuses, as its line says; kernels match their launch contracts; every MMA op of every arch is built."""

from __future__ import annotations

from typing import ClassVar

from test_gemm_specs import BASE

from rocke.arch import MMA_OPS
from rocke.families.configs import family_configs
from rocke.families.gemm.family import FAMILY
from rocke.gates import conformance as kit


class TestGemmBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = {"m": 100, "n": 70, "k": 50}


def test_configs_cover_every_mma_op_of_every_arch() -> None:
    built = {(line.arch, line.kv.split("op_id=")[1].split(" ")[0]) for line in family_configs(FAMILY)
             if not line.refuse}
    for op in MMA_OPS:
        for arch in op.archs:
            assert (arch, op.id) in built
