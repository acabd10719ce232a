"""Dispatch semantics (Python engine; test_dispatch_parity.py proves the C++ twin gives the same
bytes): problems validated on construction with a canonical kv text, candidate order and the
choices users expect, ordered reason codes with their fixed texts, dead problems, NO_INSTANCE for
the kinds no family serves yet, the plan JSON schema and workspace layout, the reason table's
single source, and how few lines a family's hook takes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rocke.arch import get_arch, mma_ops
from rocke.families.spec import SpecError
from rocke_library.dispatch import HOOKS, KINDS, REASON_CODES, parse_problem, plan, reason_text
from rocke_library.dispatch.attention_bwd import dkv_mode
from rocke_library.dispatch.conv_wgrad import MAX_SPLIT_K, split_k
from rocke_library.dispatch.plan import PLAN_FORMAT, WORKSPACE_ALIGN, layout_workspace
from rocke_library.dispatch.reasons import REASONS_FILE, ordered, parse_reasons

ATTN = "batch=2 seqlen_q=100 seqlen_k=70 heads_q=4 heads_kv=2 head_dim=64 dtype=f16"
CONV = "n=2 h=9 w=9 c=16 k=32 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"


def _spec(result, i=0) -> dict[str, str]:
    return dict(pair.split("=") for pair in result.launches[i].spec.split(" "))


def test_reason_codes_are_the_documented_table_in_order():
    assert REASON_CODES[:7] == ("ARCH_UNSUPPORTED", "DTYPE_UNSUPPORTED", "HEAD_DIM_UNSUPPORTED",
                                "LAYOUT_UNSUPPORTED", "EMPTY", "SPEC_REFUSED", "RESOURCE_REFUSED")
    assert REASON_CODES[-1] == "NO_INSTANCE"
    assert ordered(["NO_INSTANCE", "EMPTY", "DTYPE_UNSUPPORTED", "EMPTY"]) == ("DTYPE_UNSUPPORTED", "EMPTY",
                                                                                 "NO_INSTANCE")
    with pytest.raises(KeyError, match="unknown dispatch reason code 'NOPE'"):
        reason_text("NOPE")
    with pytest.raises(ValueError, match="listed twice"):
        parse_reasons(json.dumps({"format": "rocke.reasons/1", "reasons": [{"code": "A", "text": "a"}] * 2}))
    docs = (Path(__file__).resolve().parents[2] / "docs" / "dispatch.md").read_text(encoding="utf-8")
    for code in REASON_CODES:  # the doc lists every code with its text
        assert f"`{code}`" in docs and reason_text(code) in docs, code
    assert REASONS_FILE == "reasons.json"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_problems_have_one_canonical_text(kind):
    text = ATTN if kind.startswith("attention") else CONV.replace(" pad_h=1 pad_w=1", "")
    problem = parse_problem(kind, text)
    again = type(problem).from_kv(problem.to_kv())
    assert again == problem and again.to_kv() == problem.to_kv()
    assert parse_problem(kind, " ".join(reversed(text.split(" ")))) == problem  # key order is free
    assert problem.to_kv().split(" ") == sorted(problem.to_kv().split(" "))


@pytest.mark.parametrize(("kind", "text", "message"), [
    ("attention_fwd", ATTN.replace("heads_q=4", "heads_q=3"),
     "attention_fwd problem: heads_q=3: must be a multiple of heads_kv=2 (an integer GQA ratio)"),
    ("attention_fwd", ATTN + " mask=causal", "attention_fwd problem: mask=causal: must be one of none, causal_tl, "
     "causal_br"),
    ("attention_fwd", ATTN + " q_stride_s=8 q_stride_h=8", "attention_fwd problem: q_stride_s=8: and q_stride_h are "
     "both below head_dim=64: the rows overlap"),
    ("attention_fwd", ATTN + " align=1", "attention_fwd problem: align=1: must be a power of two in 2..256"),
    ("attention_fwd", ATTN + " seq_mode=varlen", "attention_fwd problem: missing key 'total_k'"),
    ("conv_fwd", CONV.replace("c=16", "c=15") + " g=3", "conv_fwd problem: k=32: must be a multiple of g=3"),
    ("conv_fwd", CONV + " shape=x", "conv_fwd problem: unknown key 'shape'; known keys: align, bias, c,"),
    ("conv_fwd", CONV.replace("dtype=f16", "dtype=i8"), "conv_fwd problem: dtype=i8: must be one of f16, bf16, "
     "f32, f64"),
    ("conv_wgrad", CONV + " bias=1", "conv_wgrad problem: bias=1: must be 0 (a gradient problem has no epilogue)"),
])
def test_a_malformed_problem_is_refused_on_construction(kind, text, message):
    with pytest.raises(SpecError) as info:
        parse_problem(kind, text)
    assert str(info.value).startswith(message)


def test_unknown_kind_and_arch_are_errors():
    with pytest.raises(ValueError, match="unknown problem kind 'conv'; known: attention_bwd, attention_fwd, "
                                         "conv_dgrad, conv_fwd, conv_wgrad"):
        plan("conv", CONV, "gfx942")
    with pytest.raises(ValueError, match="unknown arch 'gfx900'"):
        plan("conv_fwd", CONV, "gfx900")


@pytest.mark.parametrize("arch", ["gfx942", "gfx950", "gfx1100", "gfx1201"])
@pytest.mark.parametrize("dtype", ["f16", "bf16"])
def test_attention_takes_the_largest_mma_atom_of_the_arch(arch, dtype):
    result = plan("attention_fwd", ATTN.replace("dtype=f16", f"dtype={dtype}"), arch)
    assert result.status == "planned" and not result.rejected
    ops = mma_ops(arch, dtype, dtype, "f32")
    largest = max(op.m * op.n * op.k for op in ops)
    chosen = next(op for op in ops if op.id == _spec(result)["op_id"])
    assert chosen.m * chosen.n * chosen.k == largest
    assert int(_spec(result)["waves"]) * get_arch(arch).wave_size == result.launches[0].contract.block[0]


def test_attention_gqa_and_varlen_reach_the_contract():
    result = plan("attention_fwd", ATTN, "gfx942")
    contract = result.launches[0].contract
    assert contract.arg("group").value == 2 and contract.grid == (2, 4, 2)
    varlen = plan("attention_fwd", "batch=3 seqlen_q=40 seqlen_k=9 total_q=77 total_k=9 seq_mode=varlen heads_q=8 "
                  "heads_kv=1 head_dim=32 dtype=bf16 mask=causal_br", "gfx950")
    assert _spec(varlen)["seq_mode"] == "varlen" and _spec(varlen)["mask"] == "causal_br"
    assert varlen.launches[0].contract.arg("cu_seqlens_q").bytes == 16
    assert varlen.launches[0].contract.arg("group").value == 8


def test_reasons_are_listed_in_table_order_with_fixed_text():
    result = plan("attention_fwd", "batch=1 seqlen_q=7 seqlen_k=7 heads_q=1 heads_kv=1 head_dim=96 dtype=f32",
                  "gfx942")
    assert result.status == "refused"
    assert result.rejected[0].reasons == ("DTYPE_UNSUPPORTED", "HEAD_DIM_UNSUPPORTED")
    data = json.loads(result.to_json())
    assert [r["text"] for r in data["rejected"][0]["reasons"]] == [reason_text("DTYPE_UNSUPPORTED"),
                                                                  reason_text("HEAD_DIM_UNSUPPORTED")]
    conv = plan("conv_fwd", CONV.replace("dtype=f16", "dtype=f64") + " layout=nchw", "gfx1100")
    assert conv.rejected[0].reasons == ("DTYPE_UNSUPPORTED", "LAYOUT_UNSUPPORTED")


def test_spec_and_contract_refusals_name_the_family_text():
    padded = plan("conv_fwd", CONV.replace("pad_h=1", "pad_h=5"), "gfx942")
    assert [(r.family, r.reasons) for r in padded.rejected] == \
        [("conv_igemm_fwd", ("SPEC_REFUSED",))] * 2 + [("conv_direct_fwd", ("SPEC_REFUSED",))] * 2  # every tile
    assert padded.rejected[0].detail.startswith("conv_igemm_fwd: pad_h=5: must be in 0..2")
    assert padded.rejected[2].detail.startswith("conv_direct_fwd: pad_h=5: must be in 0..2")
    big = plan("conv_fwd", "n=64 h=1024 w=1024 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f32", "gfx942")
    assert big.status == "refused" and big.rejected[0].reasons == ("DTYPE_UNSUPPORTED",)  # igemm: f16, bf16
    assert big.rejected[1].reasons == ("TOO_LARGE",)
    assert "buffer input needs 17179869184 bytes" in big.rejected[1].detail


def test_resource_refused_candidates_fall_through_to_the_next(monkeypatch):
    """A spec the refusal table lists is rejected (RESOURCE_REFUSED) and the next candidate planned."""
    import importlib

    from rocke.families import refusals

    module = importlib.import_module("rocke_library.dispatch.dispatch")

    f32 = CONV.replace("dtype=f16", "dtype=f32")  # conv_direct_fwd's problem (the MMA family has f16, bf16)
    first = plan("conv_fwd", f32, "gfx942").launches[0].spec

    def check(table, spec, arch):
        if spec.to_kv() == first:
            raise refusals.ResourceRefusal("conv_direct_fwd: planted refusal")

    monkeypatch.setattr(module, "check_resources", check)
    result = plan("conv_fwd", f32, "gfx942")
    assert result.rejected[-1].reasons == ("RESOURCE_REFUSED",) and result.rejected[-1].spec == first
    assert result.status == "planned" and result.launches[0].spec != first
    assert _spec(result)["tile_k"] == "32"


@pytest.mark.parametrize(("c", "align", "dtype", "vec"), [(16, 16, "f16", 8), (16, 8, "f16", 4), (6, 16, "f16", 2),
                                                          (16, 16, "f32", 4), (3, 16, "bf16", 1), (16, 4, "f32", 1)])
def test_conv_vector_width_follows_channels_and_alignment(c, align, dtype, vec):
    result = plan("conv_fwd", f"n=1 h=6 w=6 c={c} k=8 filter_y=3 filter_x=3 dtype={dtype} align={align}", "gfx942")
    assert _spec(result)["vec"] == str(vec)


def test_depthwise_is_found_from_the_groups():
    result = plan("conv_fwd", "n=1 h=8 w=8 c=16 k=16 g=16 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16", "gfx942")
    assert _spec(result)["depthwise"] == "1"
    assert dict(result.launches[0].contract.problem) == {"c": 16, "h": 8, "n": 1, "w": 8}


@pytest.mark.parametrize(("kind", "text"), [
    ("conv_fwd", "n=0 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16"),
    ("conv_fwd", "n=1 h=2 w=2 c=16 k=16 filter_y=3 filter_x=3 dtype=f16"),
    ("conv_dgrad", "n=1 h=8 w=8 c=0 k=16 filter_y=3 filter_x=3 dtype=f16"),
    ("conv_wgrad", "n=1 h=8 w=8 c=16 k=0 filter_y=3 filter_x=3 dtype=f16"),
    ("attention_fwd", "batch=2 seqlen_q=0 seqlen_k=5 heads_q=2 heads_kv=1 head_dim=64 dtype=f16"),
    ("attention_bwd", "batch=0 seqlen_q=4 seqlen_k=5 heads_q=2 heads_kv=1 head_dim=64 dtype=f16"),
])
def test_a_dead_problem_is_planned_as_nothing(kind, text):
    result = plan(kind, text, "gfx942")
    data = json.loads(result.to_json())
    assert data["status"] == "dead" and data["launches"] == [] and data["rejected"] == []
    assert data["workspace"] == {"bytes": 0, "slices": []} and data["zero_init"] == []


def test_an_empty_reduction_with_an_output_is_refused_empty():
    result = plan("conv_fwd", "n=1 h=8 w=8 c=0 k=16 filter_y=3 filter_x=3 dtype=f16", "gfx942")
    assert result.status == "refused" and result.rejected[0].reasons == ("EMPTY",)


@pytest.mark.parametrize("kind", sorted(HOOKS))
def test_kinds_without_a_family_are_refused_no_instance(kind, monkeypatch):
    """Every kind has a family on this build; one without (a build that drops it) is NO_INSTANCE."""
    monkeypatch.setitem(HOOKS, kind, ())
    text = ATTN if kind.startswith("attention") else "n=1 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 dtype=f16"
    result = plan(kind, text, "gfx950")
    assert result.status == "refused"
    assert [(r.family, r.reasons) for r in result.rejected] == [("", ("NO_INSTANCE",))]
    assert f"rejected {kind}: NO_INSTANCE: {reason_text('NO_INSTANCE')}" in result.to_text()


def test_dkv_mode_is_atomic_iff_heads_differ():
    gqa = parse_problem("attention_bwd", ATTN)
    mha = parse_problem("attention_bwd", ATTN.replace("heads_kv=2", "heads_kv=4"))
    assert (dkv_mode(gqa), dkv_mode(mha)) == ("atomic", "direct")


def test_split_k_grows_with_the_reduction_and_the_cu_count():
    small = parse_problem("conv_wgrad", "n=1 h=8 w=8 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16")
    long = parse_problem("conv_wgrad", "n=64 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16")
    wide = parse_problem("conv_wgrad", "n=64 h=56 w=56 c=512 k=512 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16")
    assert split_k(small, get_arch("gfx942")) == 1  # 64 reduction elements: nothing to split
    # 9 tiles of 64 x 64 on 304 CUs: ceil(608 / 9) = 68, capped at MAX_SPLIT_K
    assert split_k(long, get_arch("gfx942")) == MAX_SPLIT_K
    assert split_k(long, get_arch("gfx1201")) == 15  # ceil(128 / 9): fewer CUs, fewer splits
    assert split_k(wide, get_arch("gfx942")) == 2  # 8 x 72 = 576 tiles: ceil(608 / 576)
    assert get_arch("gfx942").cu_count == 304 and get_arch("gfx1100").cu_count == 96


def test_workspace_slices_are_256_byte_aligned():
    slices, total = layout_workspace([("0.a", 10), ("1.b", 0), ("2.c", 256), ("3.d", 257)])
    assert [(s.name, s.offset, s.bytes) for s in slices] == [("0.a", 0, 10), ("2.c", 256, 256), ("3.d", 512, 257)]
    assert total == 1024 and all(s.offset % WORKSPACE_ALIGN == 0 for s in slices)


def test_plan_json_schema():
    data = json.loads(plan("attention_fwd", ATTN, "gfx942").to_json())
    assert sorted(data) == ["arch", "format", "kind", "launches", "problem", "rejected", "status", "workspace",
                            "zero_init"]
    assert data["format"] == PLAN_FORMAT and data["problem"] == parse_problem("attention_fwd", ATTN).to_kv()
    launch = data["launches"][0]
    assert sorted(launch) == ["contract", "family", "spec"]
    assert launch["contract"]["format"] == "rocke.launch/1" and launch["contract"]["spec"] == launch["spec"]


def test_a_family_hook_is_one_line_in_dispatch():
    source = (Path(__file__).resolve().parents[2] / "src" / "rocke_library" / "dispatch" / "dispatch.py").read_text()
    for families in HOOKS.values():
        for family, hook in families:
            assert hook.__module__.endswith(f"{family.name}.candidates")
            assert f'({family.name.upper()}, {family.name}_hook.candidates)' in source


# ---- attention_bwd: launch sets ------------------------------------------------------------------

MHA = ATTN.replace("heads_kv=2", "heads_kv=4")


def _families(result) -> list[str]:
    return [launch.family for launch in result.launches]


def _part(result, family: str) -> dict[str, str]:
    launch = next(launch for launch in result.launches if launch.family == family)
    return dict(pair.split("=") for pair in launch.spec.split(" "))


def test_attention_bwd_mha_plans_prep_main_dq_with_direct_dkv():
    result = plan("attention_bwd", MHA, "gfx942")
    assert result.status == "planned" and not result.rejected
    assert _families(result) == ["attention_bwd_prep", "attention_bwd_main", "attention_bwd_dq"]
    main = _part(result, "attention_bwd_main")
    assert (main["dq_mode"], main["dkv_mode"], main["op_id"]) == ("split", "direct", "mfma_f32_32x32x8_f16")
    assert (main["block_m"], main["block_n"], main["waves"]) == ("32", "64", "2")
    assert _part(result, "attention_bwd_dq")["op_id"] == main["op_id"]
    data = json.loads(result.to_json())
    assert [s["name"] for s in data["workspace"]["slices"]] == ["lse2", "delta", "zero_ws"]
    assert data["workspace"]["slices"][-1] == {"bytes": 0, "name": "zero_ws", "offset": 0}
    assert data["zero_init"] == []  # prep zero-fills the accumulators: a host zeroes nothing


def test_attention_bwd_gqa_sums_dkv_by_atomics_and_converts():
    result = plan("attention_bwd", ATTN, "gfx950")
    assert _families(result) == ["attention_bwd_prep", "attention_bwd_main", "attention_bwd_dq",
                                 "attention_bwd_convert"]
    assert _part(result, "attention_bwd_main")["dkv_mode"] == "atomic"
    assert _part(result, "attention_bwd_main")["op_id"] == "mfma_f32_32x32x16_f16"  # gfx950's largest atom
    convert = _part(result, "attention_bwd_convert")
    assert (convert["dq_mode"], convert["dkv_mode"], convert["vec"]) == ("split", "atomic", "4")
    slices = {s.name: s for s in result.workspace[0]}
    assert list(slices) == ["lse2", "delta", "dk_acc", "dv_acc", "zero_ws"]
    assert all(s.offset % WORKSPACE_ALIGN == 0 for s in slices.values())
    assert slices["dk_acc"].bytes == 2 * 70 * 2 * 64 * 4  # [B, S_k, H_kv, D] f32
    zero = slices["zero_ws"]
    assert (zero.offset, zero.offset + zero.bytes) == (slices["dk_acc"].offset,
                                                       slices["dv_acc"].offset + slices["dv_acc"].bytes)
    prep = result.launches[0].contract
    assert prep.arg("zero_count").value == zero.bytes // 4 and result.zero_init == ()


@pytest.mark.parametrize(("arch", "text"), [
    ("gfx942", ATTN), ("gfx1201", MHA.replace("dtype=f16", "dtype=bf16") + " mask=causal_tl"),
    ("gfx950", "batch=3 seqlen_q=40 seqlen_k=9 total_q=77 total_k=9 seq_mode=varlen heads_q=8 heads_kv=1 head_dim=32 "
               "dtype=bf16 mask=causal_br"),
])
def test_attention_bwd_plan_is_what_plan_attention_bwd_assembles(arch, text):
    from rocke_library.dispatch.attention_bwd import FAMILIES
    from rocke_library.kernels.attention.attention_bwd_main.candidates import plan_sizes
    from rocke_library.kernels.attention.backward_plan import plan_attention_bwd

    result = plan("attention_bwd", text, arch)
    specs = {launch.family: FAMILIES[launch.family].spec.from_kv(launch.spec) for launch in result.launches}
    assembled = plan_attention_bwd({**dict(plan_sizes(parse_problem("attention_bwd", text))), "arch": arch}, specs)
    assert [(launch.family, launch.spec, launch.contract) for launch in assembled.launches] == \
        [(launch.family, launch.spec, launch.contract) for launch in result.launches]
    for launch, ours in zip(assembled.launches, result.launches, strict=True):
        assert (launch.grid, launch.block) == (ours.contract.grid, ours.contract.block)
        assert [arg["name"] for arg in launch.args] == [arg.name for arg in ours.contract.args]
        for arg in launch.args:  # every workspace binding is the plan's slice of that name
            if arg["kind"] == "workspace":
                piece = next(s for s in result.workspace[0] if s.name == arg["name"])
                assert (arg["offset"], arg["bytes"]) == (piece.offset, piece.bytes)
    assert [(s.name, s.offset, s.bytes) for s in assembled.slices] == \
        [(s.name, s.offset, s.bytes) for s in result.workspace[0] if s.name != "zero_ws"]
    assert result.workspace[1] == assembled.workspace_bytes and assembled.zero_init == ()


def test_attention_bwd_candidates_try_split_first_then_atomic_largest_atom_first(monkeypatch):
    """Every main part refused by a planted table: the rejections list the order of the hook."""
    import importlib

    from rocke.families import refusals

    module = importlib.import_module("rocke_library.dispatch.dispatch")

    def check(table, spec, arch):
        if spec.FAMILY == "attention_bwd_main":
            raise refusals.ResourceRefusal(f"attention_bwd_main: planted refusal of {spec.dq_mode} {spec.op_id}")

    monkeypatch.setattr(module, "check_resources", check)
    result = plan("attention_bwd", MHA, "gfx950")
    assert result.status == "refused"
    assert [(r.family, r.reasons) for r in result.rejected] == [("attention_bwd_main", ("RESOURCE_REFUSED",))] * 8
    assert [r.detail.split(" of ")[1] for r in result.rejected] == [
        f"{mode} {op}" for mode in ("split", "atomic") for op in
        ("mfma_f32_32x32x16_f16", "mfma_f32_32x32x8_f16", "mfma_f32_16x16x32_f16", "mfma_f32_16x16x16_f16")]


def test_attention_bwd_falls_through_to_dq_mode_atomic_when_dq_is_refused(monkeypatch):
    import importlib

    from rocke.families import refusals

    module = importlib.import_module("rocke_library.dispatch.dispatch")

    def check(table, spec, arch):
        if spec.FAMILY == "attention_bwd_dq":
            raise refusals.ResourceRefusal("attention_bwd_dq: planted refusal")

    monkeypatch.setattr(module, "check_resources", check)
    result = plan("attention_bwd", MHA, "gfx942")
    assert [r.family for r in result.rejected] == ["attention_bwd_dq"] * 2  # both atoms of split
    assert _families(result) == ["attention_bwd_prep", "attention_bwd_main", "attention_bwd_convert"]
    assert _part(result, "attention_bwd_main")["dq_mode"] == "atomic"
    assert [s.name for s in result.workspace[0]] == ["lse2", "delta", "dq_acc", "zero_ws"]


def test_attention_bwd_hook_reasons_name_the_allowed_values():
    result = plan("attention_bwd", ATTN.replace("head_dim=64", "head_dim=96").replace("f16", "f32"), "gfx942")
    assert result.status == "refused" and len(result.rejected) == 1
    rejection = result.rejected[0]
    assert (rejection.family, rejection.spec) == ("attention_bwd_main", "")
    assert rejection.reasons == ("DTYPE_UNSUPPORTED", "HEAD_DIM_UNSUPPORTED")
    assert rejection.detail == ("dtype=f32; the attention backward has f16, bf16; head_dim=96; the attention backward "
                                "has 32, 64, 128")


def test_attention_bwd_component_refusals_name_the_component():
    # 2-byte aligned rows: prep reads one element per lane, 128 lanes a row exceed a wave of 64
    narrow = plan("attention_bwd", MHA.replace("head_dim=64", "head_dim=128") + " align=2", "gfx942")
    assert narrow.status == "refused" and {r.family for r in narrow.rejected} == {"attention_bwd_prep"}
    assert all(r.reasons == ("SPEC_REFUSED",) for r in narrow.rejected)
    assert "lanes per row exceed the wave size 64 of gfx942" in narrow.rejected[0].detail
    big = plan("attention_bwd", "batch=64 seqlen_q=8192 seqlen_k=8192 heads_q=64 heads_kv=8 head_dim=128 dtype=bf16",
               "gfx942")
    assert big.status == "refused" and big.rejected[0].reasons == ("TOO_LARGE",)
    assert big.rejected[0].family == "attention_bwd_prep"
    assert big.rejected[0].detail.startswith("attention_bwd_prep: buffer o needs 8589934592 bytes")


def test_attention_bwd_varlen_with_rows_that_see_no_key_is_planned():
    result = plan("attention_bwd", "batch=2 seqlen_q=9 seqlen_k=0 total_q=12 total_k=0 seq_mode=varlen heads_q=2 "
                  "heads_kv=2 head_dim=64 dtype=f16", "gfx1100")
    assert result.status == "planned"
    assert result.launches[1].contract.arg("cu_seqlens_k").bytes == 12


@pytest.mark.parametrize("arch", ["gfx1100", "gfx1201"])
def test_attention_bwd_head_dim_128_on_wave32_is_chunked(arch):
    """main's dK / dV of head_dim 128 in one chunk spill on wave32: dispatch splits head_dim in
    chunks of 32 there (head_dim on wave64), and stages dq's Q and dO in LDS where their registers
    would exceed the budget (gfx11's replicated WMMA operands)."""
    result = plan("attention_bwd", MHA.replace("head_dim=64", "head_dim=128"), arch)
    assert result.status == "planned" and not result.rejected
    main, dq = result.launches[1], result.launches[2]
    assert "d_chunk=32 " in main.spec and "dq_mode=split" in main.spec
    assert main.contract.grid[0] == 3 * 4  # 70 keys: three key blocks of 32, four chunks each
    assert f"qdo_lds={1 if arch == 'gfx1100' else 0} " in dq.spec
    wave64 = plan("attention_bwd", MHA.replace("head_dim=64", "head_dim=128"), "gfx942")
    assert wave64.status == "planned" and "d_chunk=128 " in wave64.launches[1].spec


def test_attention_bwd_resource_refusal_falls_through_to_the_next_set():
    """On gfx1201 the split-dQ main of head_dim 128 with a causal mask spills at LLVM 20 (its table
    row): dispatch reports it RESOURCE_REFUSED and plans the atomic-dQ set instead."""
    result = plan("attention_bwd", MHA.replace("head_dim=64", "head_dim=128") + " mask=causal_tl", "gfx1201")
    assert result.status == "planned" and "dq_mode=atomic" in result.launches[1].spec
    assert [r.reasons for r in result.rejected] == [("RESOURCE_REFUSED",)]
    assert "llvm20 spills" in result.rejected[0].detail


def test_attention_bwd_batch_strides():
    """A batch stride that addresses nothing (one batch, or no rows) takes the contiguous default;
    one that makes batches alias is refused LAYOUT_UNSUPPORTED (the gradients would race). Batched
    with no key at all is planned: the default batch stride of a tensor of no rows is one row's
    (a contract takes it back), and the gradients are dQ = 0 with empty dK, dV."""
    empty = plan("attention_bwd", "batch=2 seqlen_q=7 seqlen_k=0 heads_q=2 heads_kv=1 head_dim=64 dtype=f16", "gfx942")
    assert empty.status == "planned" and not empty.rejected, empty.to_text()
    main = next(launch for launch in empty.launches if launch.family == "attention_bwd_main")
    assert dict(main.contract.problem)["k_stride_b"] == 64  # heads_kv * head_dim: one row
    aliased = plan("attention_bwd", ATTN + " k_stride_b=0", "gfx942")
    assert aliased.status == "refused" and aliased.rejected[0].reasons == ("LAYOUT_UNSUPPORTED",)
    assert aliased.rejected[0].detail.startswith("k_stride_b=0; the attention backward writes each batch's")
    assert plan("attention_bwd", ATTN.replace("batch=2", "batch=1") + " k_stride_b=0", "gfx942").status == "planned"
