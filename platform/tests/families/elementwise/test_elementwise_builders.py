"""elementwise over its config file, through the conformance kit: every config builds and verifies,
or refuses, as its line says; kernels match their launch contracts; every arch and dtype is covered."""

from __future__ import annotations

from typing import ClassVar

from test_elementwise_specs import BASE

from rocke.families.elementwise.family import FAMILY
from rocke.gates import conformance as kit


class TestElementwiseBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = {"n": 1000}
    dtypes = ("f16", "bf16", "f32")
