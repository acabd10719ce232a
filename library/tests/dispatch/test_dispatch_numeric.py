"""Plans executed end to end on the simulator: problem -> dispatch -> plan -> simulated launches
(through the plans' launch contracts, rocke_library.dispatch.execute) -> the family's numpy
reference, for the product families dispatch serves (attention_fwd for attention_fwd problems;
conv_igemm_fwd and conv_direct_fwd for conv_fwd, conv_igemm_dgrad for conv_dgrad, conv_igemm_wgrad
with split_k = 1 and > 1 for conv_wgrad; the attention backward's launch set for attention_bwd).
Each case has a negative control: the same plan run with the family's deliberately broken builder
fails the same comparison; a split-K plan run without its zero_init fails too; the backward's drops
the plan's prep launch (LSE2 and D never written)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from rocke.families.spec import SpecError
from rocke.sim import compare
from rocke_library.dispatch import plan
from rocke_library.dispatch.execute import execute
from rocke_library.kernels.attention.attention_fwd import numerics as attn_numerics
from rocke_library.kernels.attention.attention_fwd.builder import build as attention_build
from rocke_library.kernels.attention.attention_fwd.reference import NUMPY_DTYPES as ATTN_DTYPES
from rocke_library.kernels.attention.attention_fwd.reference import reference as attention_reference
from rocke_library.kernels.attention.attention_fwd.spec import AttentionFwdSpec
from rocke_library.kernels.conv.conv_direct_fwd.builder import build as conv_build
from rocke_library.kernels.conv.conv_direct_fwd.numerics import TOL as CONV_TOL
from rocke_library.kernels.conv.conv_direct_fwd.reference import NUMPY_DTYPES as CONV_DTYPES
from rocke_library.kernels.conv.conv_direct_fwd.reference import reference as conv_reference
from rocke_library.kernels.conv.conv_direct_fwd.spec import ConvDirectFwdSpec
from rocke_library.kernels.conv.conv_igemm_dgrad.family import FAMILY as CONV_IGEMM_DGRAD
from rocke_library.kernels.conv.conv_igemm_dgrad.numerics import TOL as DGRAD_TOL
from rocke_library.kernels.conv.conv_igemm_fwd.family import FAMILY as CONV_IGEMM_FWD
from rocke_library.kernels.conv.conv_igemm_fwd.numerics import TOL as FWD_TOL
from rocke_library.kernels.conv.conv_igemm_wgrad.family import FAMILY as CONV_IGEMM_WGRAD
from rocke_library.kernels.conv.conv_igemm_wgrad.numerics import TOL as WGRAD_TOL
from rocke_library.kernels.conv.geometry import output_hw

pytestmark = pytest.mark.numeric

IGEMM_FAMILIES = {family.name: family for family in (CONV_IGEMM_FWD, CONV_IGEMM_DGRAD, CONV_IGEMM_WGRAD)}
IGEMM_TOL = {"conv_igemm_fwd": FWD_TOL, "conv_igemm_dgrad": DGRAD_TOL, "conv_igemm_wgrad": WGRAD_TOL}


def _broken(build, fault):
    return lambda family, spec, arch: build(spec, arch, _fault=fault)


# ---- attention_fwd -------------------------------------------------------------------------------

ATTENTION = [
    # (arch, problem, the broken variant of the negative control)
    ("gfx942", "batch=2 seqlen_q=37 seqlen_k=45 heads_q=4 heads_kv=2 head_dim=32 dtype=f16 mask=causal_br",
     "wrong_kv_head"),
    ("gfx1100", "batch=1 seqlen_q=21 seqlen_k=19 heads_q=2 heads_kv=1 head_dim=32 dtype=bf16 mask=causal_tl "
     "q_stride_s=32 q_stride_h=672 o_stride_s=32 o_stride_h=672", "no_causal"),
    ("gfx950", "batch=3 seqlen_q=20 seqlen_k=17 total_q=35 total_k=30 seq_mode=varlen heads_q=2 heads_kv=2 "
     "head_dim=32 dtype=f16", "scale_twice"),
    ("sm_90", "batch=2 seqlen_q=37 seqlen_k=45 heads_q=4 heads_kv=2 head_dim=64 dtype=bf16 mask=causal_br",
     "no_causal"),  # mma.sync: two queries per lane and atom
]
VARLEN_LENGTHS = {"gfx950": ((20, 0, 15), (17, 13, 0))}


def _attention_case(arch: str, text: str, fault: str):
    result = plan("attention_fwd", text, arch)
    assert result.status == "planned", result.to_text()
    contract = result.launches[0].contract
    sizes = dict(contract.problem)
    spec_kv = dict(pair.split("=") for pair in result.launches[0].spec.split(" "))
    batch = sizes["batch"]
    if spec_kv["seq_mode"] == "varlen":
        seqlens_q, seqlens_k = VARLEN_LENGTHS[arch]
    else:
        seqlens_q, seqlens_k = (sizes["seqlen_q"],) * batch, (sizes["seqlen_k"],) * batch
    case = attn_numerics.Case(seqlens_q, seqlens_k, sizes["heads_q"], sizes["heads_kv"])
    dtype = ATTN_DTYPES[spec_kv["dtype"]]
    d = int(spec_kv["head_dim"])
    def run_once(build):
        buffers, views = {}, {}
        for tensor in ("q", "k", "v", "o"):
            kv = tensor in ("k", "v")
            elems = contract.arg(tensor).bytes // dtype.itemsize
            rows, heads = (seqlens_k, case.heads_kv) if kv else (seqlens_q, case.heads_q)
            flat = (np.full(elems + attn_numerics.CANARY, attn_numerics.SENTINEL, dtype) if tensor == "o"
                    else np.random.default_rng(7 + "qkv".find(tensor)).standard_normal(elems).astype(dtype))
            buffers[tensor] = flat
            views[tensor] = attn_numerics._view(flat, spec_kv["seq_mode"], sizes, tensor, rows, heads, d)
        lse_elems = contract.arg("lse").bytes // 4
        lse = np.full(lse_elems + attn_numerics.CANARY, attn_numerics.SENTINEL, np.float32)
        scale = 1.0 / math.sqrt(d)
        given = {**buffers, "lse": lse, "scale": scale}
        if spec_kv["seq_mode"] == "varlen":
            given["cu_seqlens_q"] = np.concatenate([[0], np.cumsum(seqlens_q)]).astype(np.int32)
            given["cu_seqlens_k"] = np.concatenate([[0], np.cumsum(seqlens_k)]).astype(np.int32)
        execute(result, given, build=build, check_races=False)
        fam_spec = AttentionFwdSpec.from_kv(result.launches[0].spec)
        want = attention_reference(fam_spec, {"q": [np.array(x) for x in views["q"]],
                                              "k": [np.array(x) for x in views["k"]],
                                              "v": [np.array(x) for x in views["v"]],
                                              "scale": float(np.float32(scale))})
        got_lse, start = [], 0
        for b, s in enumerate(seqlens_q):
            if spec_kv["seq_mode"] == "batched":
                got_lse.append(lse[b * case.heads_q * s:(b + 1) * case.heads_q * s].reshape(case.heads_q, s))
            else:
                got_lse.append(lse[:lse_elems].reshape(case.heads_q, sizes["total_q"])[:, start:start + s])
            start += s
        return attn_numerics.compare_outputs("dispatch attention_fwd", fam_spec, views["o"], got_lse, want["o"],
                                             want["lse"], case, buffers["o"], lse,
                                             contract.arg("o").bytes // dtype.itemsize, lse_elems)

    return run_once(None), run_once(_broken(attention_build, fault))


@pytest.mark.parametrize(("arch", "text", "fault"), ATTENTION, ids=[f"{a}-{f}" for a, _, f in ATTENTION])
def test_dispatch_attention_fwd_plan_on_the_simulator(arch, text, fault):
    good, broken = _attention_case(arch, text, fault)
    assert good.ok, good.message
    assert not broken.ok, f"negative control ({fault}) passed: {broken.message}"


# ---- conv_direct_fwd -----------------------------------------------------------------------------

CONV = [
    # conv_direct_fwd serves what conv_igemm_fwd refuses: f32 / f64, and depthwise in every dtype
    ("gfx942", "n=2 h=7 w=6 c=8 k=10 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f32 bias=1 relu=1", "skip_last_tap"),
    ("gfx1201", "n=1 h=9 w=8 c=12 k=12 g=12 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_h=2 dtype=f32 align=8",
     "no_pad_mask"),
    ("gfx950", "n=1 h=6 w=7 c=6 k=6 g=6 filter_y=2 filter_x=3 pad_w=1 dil_h=2 dtype=bf16 align=4", "skip_last_tap"),
]


def _conv_case(arch: str, text: str, fault: str):
    result = plan("conv_fwd", text, arch)
    assert result.status == "planned", result.to_text()
    launch = result.launches[0]
    spec = ConvDirectFwdSpec.from_kv(launch.spec)
    sizes = dict(launch.contract.problem)
    n, h, w, c = sizes["n"], sizes["h"], sizes["w"], sizes["c"]
    k, g = (c, c) if spec.depthwise else (sizes["k"], sizes["g"])
    dtype = CONV_DTYPES[spec.dtype]
    rng = np.random.default_rng(n * 101 + h + c)
    x = rng.uniform(-1.0, 1.0, (n, h, w, c)).astype(dtype)
    wt = rng.uniform(-1.0, 1.0, (k, spec.filter_y, spec.filter_x, c // g)).astype(dtype)
    bias = rng.uniform(-1.0, 1.0, k).astype(dtype)
    want = conv_reference(spec, {"input": x, "weight": wt, "bias": bias, "g": g})["output"]
    rtol, atol = CONV_TOL[spec.dtype]

    def run_once(build):
        y = np.full(launch.contract.arg("output").bytes // dtype.itemsize, 1000.0, dtype)
        execute(result, {"input": x.reshape(-1), "weight": wt.reshape(-1), "bias": bias, "output": y}, build=build,
                check_races=False)
        return compare(y.reshape(want.shape), want, rtol=rtol, atol=atol, name=f"dispatch conv_fwd {spec.dtype}")

    return spec, run_once(None), run_once(_broken(conv_build, fault))


@pytest.mark.parametrize(("arch", "text", "fault"), CONV, ids=[f"{a}-{f}" for a, _, f in CONV])
def test_dispatch_conv_fwd_plan_on_the_simulator(arch, text, fault):
    spec, good, broken = _conv_case(arch, text, fault)
    assert good.ok, good.message
    assert not broken.ok, f"negative control ({fault}) passed: {broken.message}"
    if "g=12" in text:
        assert spec.depthwise and spec.vec == 2  # c = 12 f32 at 8-byte alignment: 2-element vectors


# ---- attention_bwd (launch sets: prep -> main -> [dq] -> [convert]) ------------------------------

ATTENTION_BWD = [
    # (arch, problem, per-sequence lengths (q, k) for varlen): wave64 GQA, wave32 MHA, varlen MQA;
    # wave32 head_dim 128 (main in chunks of 32; gfx1100 stages dq's Q and dO in LDS, gfx1201's
    # causal split set is resource-refused and the atomic one planned)
    ("gfx942", "batch=1 seqlen_q=29 seqlen_k=23 heads_q=4 heads_kv=2 head_dim=64 dtype=f16 mask=causal_br", None),
    ("gfx1100", "batch=1 seqlen_q=19 seqlen_k=26 heads_q=2 heads_kv=2 head_dim=64 dtype=f16 mask=causal_tl", None),
    ("gfx1100", "batch=1 seqlen_q=21 seqlen_k=18 heads_q=2 heads_kv=2 head_dim=128 dtype=bf16", None),
    ("gfx1201", "batch=1 seqlen_q=17 seqlen_k=22 heads_q=4 heads_kv=2 head_dim=128 dtype=f16 mask=causal_tl", None),
    ("gfx950", "batch=2 seqlen_q=13 seqlen_k=11 total_q=17 total_k=11 seq_mode=varlen heads_q=2 heads_kv=1 "
     "head_dim=32 dtype=bf16", ((13, 4), (11, 0))),
    # sm_90 (mma.sync): GQA at head_dim 64 (main over 4 warps), MHA at head_dim 128 (main over 2 warps in
    # chunks of 64, dq over 4 warps)
    ("sm_90", "batch=1 seqlen_q=29 seqlen_k=23 heads_q=4 heads_kv=2 head_dim=64 dtype=f16 mask=causal_br", None),
    ("sm_90", "batch=1 seqlen_q=21 seqlen_k=18 heads_q=2 heads_kv=2 head_dim=128 dtype=bf16", None),
]


def _attention_bwd_case(arch: str, text: str, lengths, hosts=None):
    from rocke_library.dispatch.attention_bwd import FAMILIES
    from rocke_library.kernels.attention.backward_plan import plan_attention_bwd
    from rocke_library.kernels.attention.backward_sim import Case, problem_of, run_case

    result = plan("attention_bwd", text, arch)
    assert result.status == "planned", result.to_text()
    specs = {launch.family: FAMILIES[launch.family].spec.from_kv(launch.spec) for launch in result.launches}
    prep = specs["attention_bwd_prep"]
    sizes = dict(result.launches[1].contract.problem)
    if lengths is None:
        case = Case((sizes["seqlen_q"],) * sizes["batch"], (sizes["seqlen_k"],) * sizes["batch"], sizes["heads_q"],
                    sizes["heads_kv"])
    else:
        case = Case(lengths[0], lengths[1], sizes["heads_q"], sizes["heads_kv"])
    # The backward simulator runs the plan plan_attention_bwd assembles for the case: the same
    # launches, contracts and workspace slices as the dispatch plan (checked here).
    assembled = plan_attention_bwd(problem_of(prep.seq_mode, prep.head_dim, arch, case), specs)
    assert [(launch.family, launch.contract) for launch in assembled.launches] == \
        [(launch.family, launch.contract) for launch in result.launches]
    assert [(s.name, s.offset, s.bytes) for s in assembled.slices] == \
        [(s.name, s.offset, s.bytes) for s in result.workspace[0] if s.name != "zero_ws"]
    mask = specs["attention_bwd_main"].mask
    return result, run_case(specs, arch, case, mask=mask, hosts=hosts)


@pytest.mark.parametrize(("arch", "text", "lengths"), ATTENTION_BWD, ids=[a for a, _, _ in ATTENTION_BWD])
def test_dispatch_attention_bwd_plan_on_the_simulator(arch, text, lengths):
    result, good = _attention_bwd_case(arch, text, lengths)
    assert good.ok, good.message
    if "heads_q=4 heads_kv=2" in text:  # GQA: dK, dV summed by atomics, then converted
        assert [launch.family for launch in result.launches][-1] == "attention_bwd_convert"


def test_dispatch_attention_bwd_without_its_prep_launch_fails():
    """Negative control through the plan: the prep launch dropped (a host that skips it) leaves
    LSE2 and D as the workspace's NaN, and the gradients fail the same comparison."""
    arch, text, lengths = ATTENTION_BWD[0]
    _, bad = _attention_bwd_case(arch, text, lengths, hosts={"attention_bwd_prep": lambda *args: None})
    assert not bad.ok, f"negative control (prep dropped) passed: {bad.message}"


def test_dispatch_dead_and_refused_plans_execute_as_documented():
    dead = plan("conv_fwd", "n=0 h=7 w=6 c=8 k=10 filter_y=3 filter_x=3 dtype=f16", "gfx942")
    execute(dead, {})  # nothing to run
    refused = plan("conv_dgrad", "n=1 h=7 w=6 c=8 k=10 filter_y=3 filter_x=3 dtype=f32", "gfx942")
    with pytest.raises(ValueError, match="a refused plan has nothing to execute"):
        execute(refused, {})
    with pytest.raises(SpecError):
        plan("conv_fwd", "n=1 h=7 w=6 c=9 k=10 g=2 filter_y=3 filter_x=3 dtype=f16", "gfx942")


# ---- conv_igemm_fwd, conv_igemm_dgrad, conv_igemm_wgrad ------------------------------------------

IGEMM = [
    # (kind, arch, problem, the broken variant of the negative control); small shapes, tails in every
    # GEMM dimension, wave64 and wave32
    ("conv_fwd", "gfx942", "n=1 h=5 w=6 c=8 k=12 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16 bias=1 relu=1",
     "swap_taps"),
    ("conv_fwd", "gfx1201", "n=1 h=6 w=5 c=8 k=16 g=2 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_w=2 dtype=bf16",
     "drop_pad_mask"),
    ("conv_dgrad", "gfx950", "n=1 h=6 w=5 c=8 k=12 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_h=2 dtype=bf16",
     "flip_taps"),
    ("conv_dgrad", "gfx1100", "n=1 h=5 w=5 c=8 k=8 g=2 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_w=2 dtype=f16",
     "inexact_stride"),
    ("conv_wgrad", "gfx942", "n=1 h=6 w=5 c=8 k=12 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16", "flip_taps"),
    ("conv_wgrad", "gfx1201", "n=2 h=16 w=16 c=8 k=8 filter_y=1 filter_x=1 dtype=bf16", "drop_partial"),
    ("conv_wgrad", "gfx950", "n=2 h=16 w=17 c=8 k=16 g=2 filter_y=1 filter_x=1 dtype=f16", "drop_partial"),
]
IGEMM_SPLIT = {"conv_wgrad": {"gfx942": 1, "gfx1201": 2, "gfx950": 2}}  # the split_k each wgrad case plans


def _igemm_case(kind: str, arch: str, text: str, fault: str, *, drop_zero_init: bool = False):
    """problem -> plan -> execute (optionally the plan with its zero_init dropped) -> the family's
    float64 reference; (good, broken) comparisons, broken run with the builder fault."""
    result = plan(kind, text, arch)
    assert result.status == "planned", result.to_text()
    if drop_zero_init:
        launches = tuple(dataclasses.replace(launch, contract=dataclasses.replace(launch.contract, zero_init=()))
                         for launch in result.launches)
        result = dataclasses.replace(result, launches=launches)
    first = result.launches[0]
    family = IGEMM_FAMILIES[first.family]
    spec = family.spec.from_kv(first.spec)
    sizes = dict(first.contract.problem)
    n, h, w, c, k, g = (sizes[key] for key in ("n", "h", "w", "c", "k", "g"))
    ho, wo = output_hw(spec, h, w)
    dtype = CONV_DTYPES[spec.dtype]
    rng = np.random.default_rng(n * 1009 + h * 101 + w * 11 + c * 7 + k)
    x = rng.uniform(-1.0, 1.0, (n, h, w, c)).astype(dtype)
    wt = rng.uniform(-1.0, 1.0, (k, spec.filter_y, spec.filter_x, c // g)).astype(dtype)
    dy = rng.uniform(-1.0, 1.0, (n, ho, wo, k)).astype(dtype)
    bias = rng.uniform(-1.0, 1.0, k).astype(dtype)
    inputs = {"input": x, "weight": wt, "dy": dy, "bias": bias, "g": g, "h": h, "w": w}
    out = {"conv_fwd": "output", "conv_dgrad": "dx", "conv_wgrad": "dw"}[kind]
    want = family.reference(spec, inputs)[out]
    rtol, atol = IGEMM_TOL[first.family][spec.dtype]

    def run_once(build):
        got = np.full(want.size, 1000.0, dtype)
        given = {"input": x.reshape(-1), "weight": wt.reshape(-1), "dy": dy.reshape(-1), "bias": bias, out: got}
        execute(result, given, build=build, check_races=False)
        return compare(got.reshape(want.shape), want, rtol=rtol, atol=atol, name=f"dispatch {kind} {spec.dtype}")

    broken = _broken_main(family.build, fault)
    return result, run_once(None), (None if drop_zero_init else run_once(broken))


def _broken_main(build, fault):
    """The builder with fault in the main kernel (a convert kernel has no faults)."""
    return lambda family, spec, arch: build(spec, arch, _fault="" if getattr(spec, "convert", False) else fault)


@pytest.mark.parametrize(("kind", "arch", "text", "fault"), IGEMM, ids=[f"{k}-{a}-{f}" for k, a, _, f in IGEMM])
def test_dispatch_igemm_plan_on_the_simulator(kind, arch, text, fault):
    result, good, broken = _igemm_case(kind, arch, text, fault)
    assert result.launches[0].family == f"conv_igemm_{kind[5:]}"
    if kind == "conv_wgrad":
        split = IGEMM_SPLIT[kind][arch]
        assert result.launches[0].spec.count(f"split_k={split} ") == 1
        assert len(result.launches) == (2 if split > 1 else 1)
    assert good.ok, good.message
    assert not broken.ok, f"negative control ({fault}) passed: {broken.message}"


def test_a_split_k_plan_without_its_zero_init_fails():
    """Negative control through the plan: the workspace starts as NaN bytes, so the split-K main
    kernel's atomics add into garbage unless the plan's zero_init is honoured."""
    kind, arch, text, _ = IGEMM[-1]
    result, good, _ = _igemm_case(kind, arch, text, "")
    assert result.zero_init == ((0, "workspace"),) and good.ok, good.message
    dropped, bad, _ = _igemm_case(kind, arch, text, "", drop_zero_init=True)
    assert dropped.zero_init == () and not bad.ok, bad.message
