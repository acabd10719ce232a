"""Dispatch of the convolution kinds through the implicit-GEMM hooks (Python engine;
test_dispatch_parity.py proves the C++ twin gives the same bytes): the hook order per kind, the
candidate rule (largest MMA atom, tiles large first, vector width, split-K), each hook reason with
its detail, the split-K plan's two launches sharing one zeroed workspace slice, and that every
candidate the rule can produce passes its family's main-loop plan on every arch."""

from __future__ import annotations

import importlib
import json

import pytest

from rocke.arch import ARCH_NAMES, get_arch, mma_ops
from rocke.families.refusals import ResourceRefusal
from rocke_library.dispatch import HOOKS, parse_problem, plan
from rocke_library.kernels.conv.conv_igemm_dgrad import candidates as dgrad_hook
from rocke_library.kernels.conv.conv_igemm_dgrad.plan import plan_dgrad
from rocke_library.kernels.conv.conv_igemm_dgrad.spec import ConvIgemmDgradSpec
from rocke_library.kernels.conv.conv_igemm_fwd import candidates as fwd_hook
from rocke_library.kernels.conv.conv_igemm_fwd.plan import plan_conv
from rocke_library.kernels.conv.conv_igemm_fwd.spec import ConvIgemmFwdSpec
from rocke_library.kernels.conv.conv_igemm_wgrad import candidates as wgrad_hook
from rocke_library.kernels.conv.conv_igemm_wgrad.plan import plan_wgrad
from rocke_library.kernels.conv.conv_igemm_wgrad.spec import ConvIgemmWgradSpec
from rocke_library.kernels.conv.igemm_candidates import TILES

DISPATCH = importlib.import_module("rocke_library.dispatch.dispatch")  # the module (the package exports the function)
CONV = "n=2 h=9 w=9 c=16 k=32 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"
SPLIT = "n=8 h=32 w=32 c=16 k=32 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"


def _spec(result, i=0) -> dict[str, str]:
    return dict(pair.split("=") for pair in result.launches[i].spec.split(" "))


def test_conv_hooks_are_tried_mma_first():
    assert [family.name for family, _ in HOOKS["conv_fwd"]] == ["conv_igemm_fwd", "conv_direct_fwd"]
    assert [family.name for family, _ in HOOKS["conv_dgrad"]] == ["conv_igemm_dgrad"]
    assert [family.name for family, _ in HOOKS["conv_wgrad"]] == ["conv_igemm_wgrad"]


@pytest.mark.parametrize("arch", ARCH_NAMES)
@pytest.mark.parametrize("kind", ["conv_fwd", "conv_dgrad", "conv_wgrad"])
def test_the_largest_atom_and_the_large_tile_come_first(kind, arch):
    target = get_arch(arch)
    result = plan(kind, CONV.replace("f16", "bf16"), arch)
    assert result.status == "planned" and result.rejected == ()
    largest = max(mma_ops(target, "bf16", "bf16", "f32"), key=lambda op: op.m * op.n * op.k)
    spec = _spec(result)
    assert spec["op_id"] == largest.id
    # CONV is too small to fill any arch: the first tile is the first one without the fill condition
    bm, bn, bk, wm, wn, double_buffer, _ = next(tile for tile in TILES[target.mma_kind] if not tile[6])
    assert (spec["bm"], spec["bn"], spec["bk"], spec["wm"], spec["wn"], spec["double_buffer"]) == \
        (str(bm), str(bn), str(bk), str(wm), str(wn), "1" if double_buffer else "0")


H100_FWD = "n=8 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"


@pytest.mark.parametrize(("kind", "text", "tile"), [
    ("conv_fwd", H100_FWD, "128x64"),  # M = 25088: 196 tiles of 128 x 64 fill the 132 SMs
    ("conv_fwd", H100_FWD.replace("h=56 w=56", "h=28 w=28"), "64x64"),  # M = 6272: 49 tiles of 128 x 64
    ("conv_dgrad", H100_FWD, "128x64"),
    ("conv_dgrad", H100_FWD.replace("n=8", "n=1"), "64x64"),  # M = 3136: 25 tiles
    ("conv_wgrad", H100_FWD.replace("k=64", "k=256"), "128x64"),  # split_k = 8: 2 x 9 x 8 tiles
    ("conv_wgrad", H100_FWD, "64x64"),  # M = k = 64: the GEMM does not hold a 128-row tile
    ("conv_wgrad", "n=1 h=14 w=14 c=256 k=256 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=bf16", "64x64"),
])
def test_sm_90_takes_the_eight_warp_tile_where_it_fills_the_132_sms(kind, text, tile):
    """sm_90 (mma.sync, 16 x 8 atom): the 128 x 64 tile of eight warps only where the GEMM holds it
    and its workgroups number at least cu_count = 132; a smaller problem starts at 64 x 64."""
    result = plan(kind, text, "sm_90")
    assert result.status == "planned" and result.rejected == ()
    spec = _spec(result)
    assert f"{spec['bm']}x{spec['bn']}" == tile
    assert spec["op_id"].startswith("mma_sync_f32_16x8x16_")
    assert (spec["wm"], spec["wn"]) == (("4", "2") if tile == "128x64" else ("2", "2"))


def test_a_refused_large_tile_falls_back_to_the_small_one(monkeypatch):
    """The second tile is tried when the first is refused (here by a resource-refusal table that
    lists every 64-row tile, as the validity gate would for a spilling spec)."""
    real = DISPATCH.check_resources

    def refuse_large(table, spec, arch):
        if getattr(spec, "bm", 0) == 64:
            raise ResourceRefusal(f"{spec.FAMILY}: refused on {arch} (spills)")
        real(table, spec, arch)

    monkeypatch.setattr(DISPATCH, "check_resources", refuse_large)
    result = plan("conv_dgrad", CONV, "gfx942")
    assert result.status == "planned" and _spec(result)["bm"] == "32" and _spec(result)["wm"] == "1"
    assert [(r.family, r.reasons) for r in result.rejected] == [("conv_igemm_dgrad", ("RESOURCE_REFUSED",))]


@pytest.mark.parametrize(("kind", "c", "k", "align", "dtype", "vec"), [
    ("conv_fwd", 16, 12, 16, "f16", 8),  # fwd: only the input-channel run c/g counts
    ("conv_dgrad", 16, 12, 16, "f16", 4),  # gradients: gcd(c/g, k/g)
    ("conv_wgrad", 24, 40, 16, "bf16", 8),
    ("conv_wgrad", 24, 40, 8, "bf16", 4),  # 8-byte alignment: 4 bf16
    ("conv_dgrad", 6, 9, 16, "f16", 1),
])
def test_vector_width_follows_the_channel_runs_and_alignment(kind, c, k, align, dtype, vec):
    result = plan(kind, f"n=1 h=6 w=6 c={c} k={k} filter_y=3 filter_x=3 dtype={dtype} align={align}", "gfx950")
    assert result.status == "planned" and _spec(result)["vec"] == str(vec)


@pytest.mark.parametrize(("kind", "text", "codes", "detail"), [
    ("conv_dgrad", CONV.replace("f16", "f32"), ("DTYPE_UNSUPPORTED",), "dtype=f32; conv_igemm_dgrad has f16, bf16"),
    ("conv_wgrad", CONV + " layout=nchw", ("LAYOUT_UNSUPPORTED",), "layout=nchw; conv_igemm_wgrad has nhwc"),
    ("conv_dgrad", CONV.replace("k=32", "k=0"), ("EMPTY",), "k=0"),
    ("conv_wgrad", CONV.replace("n=2", "n=0"), ("EMPTY",), "n=0"),
    ("conv_wgrad", CONV.replace("h=9 w=9", "h=1 w=1").replace(" pad_h=1 pad_w=1", ""), ("EMPTY",),
     "Ho x Wo = 0 x 0: the filter window does not fit the padded input"),
    ("conv_dgrad", CONV.replace("f16", "f64") + " layout=nchw", ("DTYPE_UNSUPPORTED", "LAYOUT_UNSUPPORTED"),
     "dtype=f64; conv_igemm_dgrad has f16, bf16; layout=nchw; conv_igemm_dgrad has nhwc"),
])
def test_hook_reasons_name_the_field_and_the_allowed_values(kind, text, codes, detail):
    result = plan(kind, text, "gfx1100")
    assert result.status == "refused"
    assert [(r.family, r.spec, r.reasons, r.detail) for r in result.rejected] == [
        (f"conv_igemm_{kind[5:]}", "", codes, detail)]


def test_conv_fwd_leaves_depthwise_and_f32_to_the_direct_family():
    depthwise = plan("conv_fwd", "n=1 h=8 w=8 c=16 k=16 g=16 filter_y=3 filter_x=3 dtype=f16", "gfx942")
    assert depthwise.launches[0].family == "conv_direct_fwd"
    assert [(r.family, r.reasons, r.detail) for r in depthwise.rejected] == [
        ("conv_igemm_fwd", ("SHAPE_DEFERRED",), "g=c=k=16 (depthwise): one output channel per group")]
    f32 = plan("conv_fwd", CONV.replace("f16", "f32"), "gfx1201")
    assert f32.launches[0].family == "conv_direct_fwd" and f32.rejected[0].reasons == ("DTYPE_UNSUPPORTED",)
    grouped = plan("conv_fwd", CONV.replace("c=16 k=32", "c=16 k=32 g=4") + " bias=1 relu=1", "gfx942")
    assert grouped.launches[0].family == "conv_igemm_fwd" and _spec(grouped)["bias"] == _spec(grouped)["relu"] == "1"


def test_wgrad_split_k_is_two_launches_sharing_one_zeroed_slice():
    problem = parse_problem("conv_wgrad", SPLIT)
    target = get_arch("gfx942")
    split = problem.split_k(target)
    assert split == 32  # 3 tiles: ceil(2 * 304 / 3) = 203, but the reduction 8 * 32 * 32 // 256 = 32
    result = plan("conv_wgrad", SPLIT, "gfx942")
    main, convert = (_spec(result, 0), _spec(result, 1))
    assert (main["convert"], main["split_k"], convert["convert"], convert["split_k"]) == ("0", "32", "1", "32")
    assert {k: v for k, v in main.items() if k != "convert"} == {k: v for k, v in convert.items() if k != "convert"}
    data = json.loads(result.to_json())
    elements = 32 * 9 * 16
    assert data["workspace"] == {"bytes": elements * 4, "slices": [
        {"bytes": elements * 4, "name": "0.conv_igemm_wgrad", "offset": 0}]}
    assert data["zero_init"] == [{"arg": "workspace", "launch": 0}]
    assert result.workspace_slice(0) == result.workspace_slice(1) == result.workspace[0][0]
    assert [a["role"] for a in data["launches"][1]["contract"]["args"] if a["name"] == "workspace"] == ["input"]
    assert result.launches[0].contract.grid[2] == 32  # groups * split_k
    direct = plan("conv_wgrad", CONV, "gfx942")  # 2 * 9 * 9 = 162 reduction elements: nothing to split
    assert len(direct.launches) == 1 and _spec(direct)["split_k"] == "1" and direct.zero_init == ()
    assert [a.name for a in direct.launches[0].contract.args][:3] == ["input", "dy", "dw"]


@pytest.mark.parametrize("arch", ARCH_NAMES)
def test_every_candidate_passes_its_main_loop_plan(arch):
    """The rule's tiles build on every arch for every vector width it can pick (the builder's plan
    refuses what the spec rules do not see: copy splits, LDS), main and convert launches alike."""
    target = get_arch(arch)
    checks = ((fwd_hook, ConvIgemmFwdSpec, plan_conv, "conv_fwd"), (dgrad_hook, ConvIgemmDgradSpec, plan_dgrad,
              "conv_dgrad"), (wgrad_hook, ConvIgemmWgradSpec, plan_wgrad, "conv_wgrad"))
    seen = 0
    for dtype in ("f16", "bf16"):
        for c in (16, 4, 2, 1):
            for hook, spec_type, main_loop, kind in checks:
                problem = parse_problem(kind, f"n=64 h=8 w=8 c={c} k=16 filter_y=3 filter_x=3 dtype={dtype}")
                for candidate in hook.candidates(problem, target):
                    for part in (candidate, *candidate.then):
                        main_loop(spec_type.from_kv(part.spec), target)
                        seen += 1
    assert seen >= 48


def test_the_sm_90_eight_warp_tile_passes_its_main_loop_plan_at_every_vector_width():
    """Problems large enough for the 128 x 64 tile on sm_90, with channel counts that pick vec 8, 4, 2
    and 1: that tile comes first and builds (main and convert launches alike)."""
    target = get_arch("sm_90")
    checks = ((fwd_hook, ConvIgemmFwdSpec, plan_conv, "conv_fwd"), (dgrad_hook, ConvIgemmDgradSpec, plan_dgrad,
              "conv_dgrad"), (wgrad_hook, ConvIgemmWgradSpec, plan_wgrad, "conv_wgrad"))
    vecs = set()
    for dtype in ("f16", "bf16"):
        for c in (64, 68, 66, 65):
            for hook, spec_type, main_loop, kind in checks:
                problem = parse_problem(kind, f"n=32 h=32 w=32 c={c} k=256 filter_y=3 filter_x=3 pad_h=1 pad_w=1 "
                                              f"dtype={dtype}")
                first = hook.candidates(problem, target)[0]
                for part in (first, *first.then):
                    spec = spec_type.from_kv(part.spec)
                    assert (spec.bm, spec.bn, spec.wm, spec.wn) == (128, 64, 4, 2), (kind, part.spec)
                    main_loop(spec, target)
                    vecs.add(spec.vec)
    assert vecs == {8, 4, 2, 1}
