"""gemm on the simulator against an independent numpy reference: every config of the config file
at sizes that are not multiples of the tile in any dimension (three K tiles, so double buffering
uses both stages), tiny problems inside one tile, and negative controls that must fail the same
comparison (a transposed A fragment, a dropped column mask, a wrong scale).

Tolerances (|got - want| <= atol + rtol * |want|; inputs uniform in [-1, 1], so |C| <= K + 1):
f32 output: the f32 accumulation of K products (each exact) rounds up to ~K f32 ulps of K, well
under 1e-4 absolute; f16 / bf16 output: that plus one or two ulps of the output rounding.
"""

from __future__ import annotations

import pytest

from rocke.families.configs import ConfigLine, load_configs
from rocke.families.gemm import GemmSpec
from rocke.families.gemm.numerics import edge_problem, run_case

pytestmark = pytest.mark.numeric

CONFIGS = [line for line in load_configs("gemm") if not line.refuse]


@pytest.mark.parametrize("line", CONFIGS, ids=[f"{c.arch}:{c.lineno}" for c in CONFIGS])
def test_config_matches_reference_at_edges(line: ConfigLine) -> None:
    spec = GemmSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, *edge_problem(spec))
    assert result.ok, result.message


def _deepest_per_arch() -> list[ConfigLine]:
    """Per arch, the config with the longest K tile (the most products summed per output)."""
    best: dict[str, ConfigLine] = {}
    for line in CONFIGS:
        bk = GemmSpec.from_kv(line.kv).bk
        if line.arch not in best or bk > GemmSpec.from_kv(best[line.arch].kv).bk:
            best[line.arch] = line
    return [best[arch] for arch in sorted(best)]


DEEPEST = _deepest_per_arch()


@pytest.mark.parametrize("order", ["forward", "reverse"])
@pytest.mark.parametrize("line", DEEPEST, ids=[f"{c.arch}:{c.lineno}" for c in DEEPEST])
def test_tolerance_leaves_room_for_the_hardware_summation_order(line: ConfigLine, order: str) -> None:
    """The MMA units sum in their own order: the tolerances also hold when every product is added
    with its own f32 rounding, in k order or reverse k order (simulator.md, Numerics)."""
    spec = GemmSpec.from_kv(line.kv)
    result = run_case(spec, line.arch, *edge_problem(spec), mma_order=order)
    assert result.ok, result.message


SMALL = {
    "gfx942": "a_dtype=f16 a_layout=col b_dtype=f16 b_layout=row bias=1 bk=32 bm=64 bn=64 c_dtype=f16 "
              "double_buffer=1 lds_pad=4 op_id=mfma_f32_32x32x8_f16 wm=2 wn=2",
    "gfx950": "a_dtype=bf16 a_layout=row b_dtype=bf16 b_layout=col bias=0 bk=32 bm=32 bn=32 c_dtype=f32 "
              "double_buffer=0 lds_pad=8 op_id=mfma_f32_16x16x32_bf16 wm=2 wn=2",
    "gfx1100": "a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=1 bk=16 bm=32 bn=32 c_dtype=f32 "
               "double_buffer=1 lds_pad=8 op_id=wmma_f32_16x16x16_f16_gfx11 wm=2 wn=2",
    "gfx1201": "a_dtype=bf16 a_layout=col b_dtype=bf16 b_layout=col bias=1 bk=16 bm=32 bn=32 c_dtype=bf16 "
               "double_buffer=1 lds_pad=0 op_id=wmma_f32_16x16x16_bf16_gfx12 wm=2 wn=2",
    "sm_90": "a_dtype=f16 a_layout=row b_dtype=f16 b_layout=col bias=1 bk=16 bm=32 bn=16 c_dtype=f32 "
             "double_buffer=1 lds_pad=8 op_id=mma_sync_f32_16x8x16_f16 wm=2 wn=2",
}


@pytest.mark.parametrize("arch", sorted(SMALL))
@pytest.mark.parametrize(("m", "n", "k"), [(1, 1, 1), (5, 3, 7), (17, 31, 9)])
def test_problems_smaller_than_a_tile(arch: str, m: int, n: int, k: int) -> None:
    result = run_case(GemmSpec.from_kv(SMALL[arch]), arch, m, n, k)
    assert result.ok, result.message


# Square atoms (m == k), so a transposed A fragment stays inside the tile and only the numbers go wrong.
SQUARE = {
    "gfx942": SMALL["gfx942"].replace("mfma_f32_32x32x8_f16", "mfma_f32_16x16x16_f16"),
    "gfx1100": SMALL["gfx1100"],
    "gfx1201": SMALL["gfx1201"],
    "sm_90": SMALL["sm_90"],  # mma.sync's A is 16 x 16
}


@pytest.mark.parametrize("arch", sorted(SQUARE))
def test_negative_control_transposed_a_fragment(arch: str) -> None:
    spec = GemmSpec.from_kv(SQUARE[arch])
    assert spec.atom().m == spec.atom().k
    result = run_case(spec, arch, *edge_problem(spec), fault="transpose_a_frag")
    assert not result.ok
    assert result.mismatches > result.count // 2


@pytest.mark.parametrize("arch", ["gfx942", "gfx1201", "sm_90"])
def test_negative_control_dropped_column_mask(arch: str) -> None:
    """Columns past N land in the next row's first columns, which only the edge tiles write."""
    spec = GemmSpec.from_kv(SMALL[arch])
    result = run_case(spec, arch, *edge_problem(spec), fault="drop_col_mask")
    assert not result.ok
    assert result.worst_index is not None and result.worst_index[1] < spec.bn


@pytest.mark.parametrize("arch", ["gfx950", "gfx1100", "sm_90"])
def test_negative_control_wrong_scale(arch: str) -> None:
    spec = GemmSpec.from_kv(SMALL[arch])
    result = run_case(spec, arch, *edge_problem(spec), fault="alpha_squared")
    assert not result.ok
    assert result.mismatches > result.count // 2
