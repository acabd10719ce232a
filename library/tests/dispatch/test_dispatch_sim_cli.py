"""`rocke sim KIND --problem KV --arch A`: a problem of every kind planned by dispatch and run on
the simulator as a host would run its plan, each output checked against the float64 reference;
bad requests are one line and exit 2. The negative controls: the same command on a problem whose
plan the simulator runs with a broken kernel must print FAIL (through the planner's simulate,
with a fault injected below the CLI)."""

from __future__ import annotations

import pytest

from rocke.cli import app
from rocke_library.dispatch import simulate
from rocke_library.kernels.attention import backward_sim

pytestmark = pytest.mark.numeric

GQA = "batch=1 seqlen_q=21 seqlen_k=18 heads_q=4 heads_kv=2 head_dim=32 dtype=f16 mask=causal_br"
VARLEN = ("batch=3 seqlen_q=9 seqlen_k=8 total_q=14 total_k=8 seq_mode=varlen heads_q=2 heads_kv=1 head_dim=32 "
          "dtype=bf16")


def _run(argv, capsys):
    code = app.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(("arch", "problem"), [("gfx942", GQA), ("gfx1201", VARLEN)])
def test_sim_problem_prints_each_gradient_and_passes(arch, problem, capsys):
    code, out, err = _run(["sim", "attention_bwd", "--problem", problem, "--arch", arch], capsys)
    assert (code, err) == (0, ""), out
    first, verdict = out.splitlines()
    assert first.startswith(f"attention_bwd [{problem}] on {arch}, seed 0: ")
    assert all(f"{t} max err" in first for t in ("dq", "dk", "dv")), first
    assert verdict == "PASS"


def test_sim_problem_with_a_broken_kernel_fails(capsys, monkeypatch):
    run_case = backward_sim.run_case

    def broken(*args, **kwargs):
        return run_case(*args, **kwargs, faults={"attention_bwd_main": "scale_twice"})

    monkeypatch.setattr(simulate, "run_case", broken)
    code, out, _ = _run(["sim", "attention_bwd", "--problem", GQA, "--arch", "gfx942"], capsys)
    assert code == 1 and out.splitlines()[-1] == "FAIL", out


def test_varlen_lengths_fill_in_order():
    assert simulate.varlen_lengths(3, 14, 9) == (9, 5, 0)
    assert simulate.varlen_lengths(2, 0, 4) == (0, 0)
    with pytest.raises(ValueError, match="total 19 exceeds batch 2 sequences of at most 9 tokens"):
        simulate.varlen_lengths(2, 19, 9)


@pytest.mark.parametrize(("argv", "message"), [
    (["sim", "attention_bwd", "--problem", GQA], "--problem needs --arch"),
    (["sim", "conv_fwd", "--problem", "n=0 h=4 w=4 c=8 k=8 filter_y=1 filter_x=1 dtype=f16", "--arch", "gfx942"],
     "dead: its outputs are empty"),
    (["sim", "conv_dgrad", "--problem", "n=1 h=4 w=4 c=8 k=8 filter_y=1 filter_x=1 dtype=f32", "--arch", "gfx942"],
     "has no launch to simulate"),
    (["sim", "attention_bwd", "--problem", GQA.replace("head_dim=32", "head_dim=96"), "--arch", "gfx942"],
     "has no launch to simulate"),
    (["sim", "attention_bwd", "--problem", "batch=1 seqlen_q=0 seqlen_k=4 heads_q=1 heads_kv=1 head_dim=32 "
      "dtype=f16", "--arch", "gfx942"], "dead: its outputs are empty"),
    (["sim", "attention_bwd", "--problem", "batch=x", "--arch", "gfx942"], "batch"),
    (["sim", "no_such_kind", "--problem", GQA, "--arch", "gfx942"], "unknown problem kind 'no_such_kind'"),
])
def test_sim_problem_refuses_bad_requests_in_one_line(argv, message, capsys):
    code, out, err = _run(argv, capsys)
    assert code == 2 and out == "", (out, err)
    assert message in err and err.count("\n") == 1, err


# (kind, arch, problem, family, fault of the negative control); each kind through `execute`
EXECUTED = [
    ("conv_fwd", "gfx942", "n=1 h=5 w=6 c=8 k=12 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16 bias=1 relu=1",
     "conv_igemm_fwd", "swap_taps"),
    ("conv_fwd", "gfx1201", "n=1 h=9 w=8 c=12 k=12 g=12 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_h=2 dtype=f32 "
     "align=8", "conv_direct_fwd", "no_pad_mask"),
    ("conv_dgrad", "gfx1100", "n=1 h=5 w=5 c=8 k=8 g=2 filter_y=3 filter_x=3 pad_h=1 pad_w=1 stride_w=2 dtype=f16",
     "conv_igemm_dgrad", "inexact_stride"),
    ("conv_wgrad", "gfx950", "n=2 h=16 w=17 c=8 k=16 g=2 filter_y=1 filter_x=1 dtype=f16", "conv_igemm_wgrad",
     "drop_partial"),
    ("attention_fwd", "gfx942", "batch=2 seqlen_q=37 seqlen_k=45 heads_q=4 heads_kv=2 head_dim=32 dtype=f16 "
     "mask=causal_br", "attention_fwd", "wrong_kv_head"),
    ("attention_fwd", "gfx950", "batch=3 seqlen_q=20 seqlen_k=17 total_q=35 total_k=30 seq_mode=varlen heads_q=2 "
     "heads_kv=2 head_dim=32 dtype=f16", "attention_fwd", "scale_twice"),
]


@pytest.mark.parametrize(("kind", "arch", "problem", "family", "fault"), EXECUTED,
                         ids=[f"{k}-{a}-{f}" for k, a, _, f, _ in EXECUTED])
def test_sim_problem_of_every_kind_passes_and_its_broken_kernel_fails(kind, arch, problem, family, fault, capsys,
                                                                       monkeypatch):
    code, out, err = _run(["sim", kind, "--problem", problem, "--arch", arch], capsys)
    assert (code, err) == (0, ""), out
    first, verdict = out.splitlines()
    assert first.startswith(f"{kind} [{problem}] on {arch}, seed 0: "), first
    assert f"({family})" in first or kind == "attention_fwd", first
    assert verdict == "PASS"
    execute = simulate.execute

    def broken(plan, given, **kwargs):
        def build(fam, spec, arch):
            return fam.build(spec, arch, _fault="" if getattr(spec, "convert", False) else fault)

        return execute(plan, given, build=build, **kwargs)

    monkeypatch.setattr(simulate, "execute", broken)
    code, out, _ = _run(["sim", kind, "--problem", problem, "--arch", arch], capsys)
    assert code == 1 and out.splitlines()[-1] == "FAIL", out


@pytest.mark.parametrize("kind", ["attention_fwd", "attention_bwd"])
def test_sim_problem_with_no_key_passes(kind, capsys):
    """seqlen_k = 0 (batched): O = 0 and LSE = -inf for every row, zero dQ, empty dK and dV."""
    problem = "batch=2 seqlen_q=5 seqlen_k=0 heads_q=4 heads_kv=2 head_dim=64 dtype=f16"
    code, out, err = _run(["sim", kind, "--problem", problem, "--arch", "gfx942"], capsys)
    assert (code, err) == (0, "") and out.splitlines()[-1] == "PASS", out
