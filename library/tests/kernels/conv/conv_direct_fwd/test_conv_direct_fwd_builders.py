"""conv_direct_fwd over its config file, through the conformance kit: every config builds and verifies, or
refuses, as its line says; kernels match their launch contracts; every arch and dtype is covered."""

from __future__ import annotations

from typing import ClassVar

from test_conv_direct_fwd_specs import BASE

from rocke.families.configs import family_configs
from rocke.families.spec import Spec
from rocke.gates import conformance as kit
from rocke_library.kernels.conv.conv_direct_fwd.family import FAMILY


class TestConvDirectFwdBuilders(kit.BuilderConformance):
    family, base = FAMILY, BASE
    problem: ClassVar[dict[str, int]] = {"n": 2, "h": 15, "w": 17, "c": 48, "k": 40, "g": 2}
    dtypes = ("f16", "bf16", "f32")

    def problem_for(self, spec: Spec) -> dict[str, int]:
        return {"n": 2, "h": 15, "w": 17, "c": 48} if spec.depthwise else self.problem  # type: ignore[attr-defined]


def test_configs_cover_the_windows_that_matter() -> None:
    specs = [FAMILY.spec.from_kv(line.kv) for line in family_configs(FAMILY) if not line.refuse]  # type: ignore
    assert any(s.depthwise for s in specs) and any(not s.depthwise for s in specs)
    windows = {(s.filter_y, s.filter_x, s.stride_h, s.pad_h, s.dil_h) for s in specs}
    assert {(3, 3, 1, 1, 1), (3, 3, 2, 1, 1), (1, 1, 1, 0, 1), (1, 1, 2, 0, 1), (7, 7, 2, 3, 1),
            (3, 3, 1, 2, 2)} <= windows
    assert {s.bias for s in specs} == {False, True} and {s.relu for s in specs} == {False, True}
    assert {s.vec for s in specs} == {1, 2, 4, 8}
    assert max(s.thread_p * s.thread_k for s in specs) == 64
