"""The specs dispatch plans are shippable: the parity corpus's planned launches, one spec per
resource class, through the validity gate's measurement at the lane's LLVM (no spill, no scratch,
LDS within capacity, occupancy above 0). Config files list tiles; dispatch fills in the problem's
fields, so its specs are mostly not config lines and the refusal tables never saw them.

A resource class is a family's spec without the fields that only shape address arithmetic or a
mask test (the conv window: filter, pad, stride, dilation; mask, seq_mode, vec, bias, relu): the
tile, atom, head_dim, dtype and modes, which set the register and LDS budget. Per class the first
spec in sorted order is measured."""

from __future__ import annotations

from collections import defaultdict

import pytest
from test_dispatch_parity import CORPUS

from rocke.families.configs import ConfigLine
from rocke.gates.validity import measure_configs
from rocke_library import families as library_families
from rocke_library.dispatch import plan

pytestmark = pytest.mark.validity

ADDRESS_ONLY = ("filter_x", "filter_y", "pad_h", "pad_w", "stride_h", "stride_w", "dil_h", "dil_w", "mask",
                "seq_mode", "vec", "bias", "relu")
FAMILIES = {family.name: family for family in library_families.defined()}


def _resource_class(kv: str) -> tuple[tuple[str, str], ...]:
    fields = dict(pair.split("=", 1) for pair in kv.split())
    return tuple(sorted((k, v) for k, v in fields.items() if k not in ADDRESS_ONLY))


def _planned_classes() -> dict[str, list[ConfigLine]]:
    specs: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for kind, text, arch in CORPUS:
        try:
            result = plan(kind, text, arch)
        except (ValueError, KeyError):
            continue
        for launch in result.launches:
            specs[launch.family].add((arch, launch.spec))
    out: dict[str, list[ConfigLine]] = {}
    for family, pairs in sorted(specs.items()):
        first: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}
        for arch, kv in sorted(pairs):
            first.setdefault((arch, _resource_class(kv)), kv)
        out[family] = [ConfigLine(i, arch, kv, False) for i, ((arch, _), kv) in enumerate(sorted(first.items()))]
    return out


PLANNED = _planned_classes()


def test_dispatch_plans_every_product_family():
    assert sorted(PLANNED) == sorted(name for name in FAMILIES if name != "img2col")


@pytest.mark.parametrize("family", sorted(PLANNED))
def test_the_specs_dispatch_plans_can_ship(family):
    rows = measure_configs(FAMILIES[family], PLANNED[family], jobs=2)
    assert len(rows) == len(PLANNED[family])
    bad = [f"{row.key}: {row.problem}" for row in rows if row.problem]
    assert not bad, "\n".join(bad)


def test_a_spilling_spec_fails_the_measurement():
    """Negative control: a spec the refusal table lists as spilling at LLVM 22 (attention_bwd_main,
    gfx1100, head_dim 128 in one chunk), measured as if dispatch had planned it, has a problem."""
    kv = ("block_m=16 block_n=32 d_chunk=128 dkv_mode=atomic dq_mode=split dtype=f16 head_dim=128 lds_pad=8 "
          "mask=causal_tl op_id=wmma_f32_16x16x16_f16_gfx11 seq_mode=varlen waves=2")
    (row,) = measure_configs(FAMILIES["attention_bwd_main"], [ConfigLine(0, "gfx1100", kv, False)])
    assert row.reason == "spills" and "shippable" in row.problem, row
