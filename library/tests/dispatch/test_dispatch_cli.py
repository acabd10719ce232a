"""The dispatch command lines with library installed: `rocke plan` (through the rocke.planners
entry point, every engine), `rocke emit --out DIR --problem KV` (the problem's launch contract as
KERNEL.launch.json, both engines) and the C++ planner `rocke-library-plan` (no Python), whose
bytes and exit codes equal the Python planner's."""

from __future__ import annotations

import json
import subprocess

import pytest

from rocke.cli import app
from rocke.gates.emitters import find_native_emitter
from rocke_library.dispatch import plan
from rocke_library.kernels.conv.conv_direct_fwd.contract import launch
from rocke_library.kernels.conv.conv_direct_fwd.spec import ConvDirectFwdSpec

CONV = "n=2 h=9 w=9 c=16 k=32 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"
CONV_F32 = CONV.replace("dtype=f16", "dtype=f32")
WGRAD_SPLIT = "n=8 h=32 w=32 c=16 k=32 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=bf16"  # split_k 32 on gfx942
REFUSED = "batch=1 seqlen_q=7 seqlen_k=7 heads_q=1 heads_kv=1 head_dim=96 dtype=f32"


def _run(argv, capsys):
    code = app.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("engine", ["python", "cpp", "both"])
def test_rocke_plan_through_the_entry_point(engine, capsys):
    agreed = "rocke plan: python and cpp planners agree: plan byte-identical\n" if engine == "both" else ""
    want = plan("conv_fwd", CONV, "gfx942")
    assert _run(["plan", "conv_fwd", "--problem", CONV, "--arch", "gfx942", "--engine", engine], capsys) == \
        (0, want.to_text(), agreed)
    assert _run(["plan", "conv_direct_fwd", "--problem", CONV, "--arch", "gfx942", "--json", "--engine", engine],
                capsys) == (0, want.to_json(), agreed)
    code, out, _ = _run(["plan", "attention_fwd", "--problem", REFUSED, "--arch", "gfx942", "--engine", engine],
                        capsys)
    assert code == 1 and "DTYPE_UNSUPPORTED" in out and "HEAD_DIM_UNSUPPORTED" in out
    code, out, err = _run(["plan", "attention_fwd", "--problem", REFUSED.replace("heads_q=1", "heads_q=3")
                           .replace("heads_kv=1", "heads_kv=2"), "--arch", "gfx942", "--engine", engine], capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith("rocke plan: error: attention_fwd problem: heads_q=3: must be a multiple of heads_kv=2")
    for kind, family in (("conv_dgrad", "conv_igemm_dgrad"), ("conv_wgrad", "conv_igemm_wgrad")):
        want = plan(kind, CONV, "gfx942")
        assert want.status == "planned" and want.launches[0].family == family
        assert _run(["plan", kind, "--problem", CONV, "--arch", "gfx942", "--engine", engine], capsys) == \
            (0, want.to_text(), agreed)
        assert _run(["plan", family, "--problem", CONV, "--arch", "gfx942", "--json", "--engine", engine],
                    capsys) == (0, want.to_json(), agreed)
    code, out, _ = _run(["plan", "conv_wgrad", "--problem", CONV.replace("f16", "f64"), "--arch", "gfx942",
                         "--engine", engine], capsys)
    assert code == 1 and "DTYPE_UNSUPPORTED" in out and "conv_igemm_wgrad has f16, bf16" in out


@pytest.mark.parametrize("engine", ["python", "both"])
def test_emit_out_with_a_problem_writes_its_contract(engine, tmp_path, capsys):
    result = plan("conv_fwd", CONV_F32, "gfx942")  # f32: conv_direct_fwd serves it
    spec = result.launches[0].spec
    sizes = dict(result.launches[0].contract.problem)
    problem = " ".join(f"{k}={v}" for k, v in sizes.items())
    code, out, err = _run(["emit", "conv_direct_fwd", "--spec", spec, "--arch", "gfx942", "--flavor", "llvm22",
                           "--out", str(tmp_path), "--problem", problem, "--engine", engine], capsys)
    assert code == 0, err
    kernel = ConvDirectFwdSpec.from_kv(spec).kernel_name()
    text = (tmp_path / f"{kernel}.launch.json").read_text()
    assert text == launch(ConvDirectFwdSpec.from_kv(spec), sizes).to_json() == result.launches[0].contract.to_json()
    assert json.loads(text)["format"] == "rocke.launch/1" and f"{kernel}.launch.json" in out
    code, _, _ = _run(["emit", "conv_direct_fwd", "--spec", spec, "--arch", "gfx942", "--flavor", "llvm22",
                       "--out", str(tmp_path / "t")], capsys)  # no problem: the template
    assert code == 0 and json.loads((tmp_path / "t" / f"{kernel}.launch.json").read_text())["format"] == \
        "rocke.launch-template/1"
    code, _, err = _run(["emit", "conv_direct_fwd", "--spec", spec, "--arch", "gfx942", "--flavor", "llvm22",
                         "--out", str(tmp_path), "--problem", problem.replace("c=16", "c=15")], capsys)
    assert code == 2 and "conv_direct_fwd: c/g=15 is not a multiple of vec=4" in err


def test_the_cpp_planner_needs_no_python():
    exe = find_native_emitter("rocke-library-plan")
    for kind, text, arch, status in [("conv_fwd", CONV, "gfx1100", 0), ("attention_fwd", REFUSED, "gfx950", 1),
                                     ("conv_dgrad", CONV, "gfx950", 0), ("conv_wgrad", CONV, "gfx1201", 0)]:
        want = plan(kind, text, arch)
        for flag, expected in (([], want.to_text()), (["--json"], want.to_json())):
            out = subprocess.run([str(exe), kind, "--problem", text, "--arch", arch, *flag], capture_output=True,
                                 text=True, env={}, timeout=60)
            assert (out.returncode, out.stdout) == (status, expected), out.stderr
    bad = subprocess.run([str(exe), "conv_fwd", "--problem", "n=1 n=2", "--arch", "gfx942"], capture_output=True,
                         text=True, env={}, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "key 'n' given twice" in bad.stderr
    for kind, text in (("conv_fwd", CONV), ("conv_fwd", CONV_F32), ("conv_wgrad", WGRAD_SPLIT)):
        for contract in plan(kind, text, "gfx942").launches:
            problem = " ".join(f"{k}={v}" for k, v in contract.contract.problem)
            out = subprocess.run([str(exe), "--launch", contract.family, "--spec", contract.spec, "--problem", problem],
                                 capture_output=True, text=True, env={}, timeout=60)
            assert (out.returncode, out.stdout) == (0, contract.contract.to_json()), out.stderr


ATTENTION = "batch=2 seqlen_q=40 seqlen_k=33 heads_q=4 heads_kv=2 head_dim=64 dtype=bf16 mask=causal_br"


@pytest.mark.parametrize("engine", ["python", "both"])
def test_plan_out_writes_the_plan_and_every_launch(engine, tmp_path, capsys, monkeypatch):
    """`rocke plan --out DIR`: plan.json (the bytes --json prints), artifacts.json naming each
    launch's files, and per launch its .ll, .rir and contract (the plan's, byte for byte)."""
    monkeypatch.setenv("ROCKE_LLD", str(tmp_path / "no-ld"))  # the code objects are skipped, visibly
    out = tmp_path / "plan"
    code, printed, err = _run(["plan", "conv_wgrad", "--problem", WGRAD_SPLIT, "--arch", "gfx942", "--json",
                               "--engine", engine, "--out", str(out), "--flavor", "llvm22"], capsys)
    assert code == 0, err
    want = plan("conv_wgrad", WGRAD_SPLIT, "gfx942")
    assert printed == want.to_json() == (out / "plan.json").read_text()
    index = json.loads((out / "artifacts.json").read_text())
    assert index["format"] == "rocke.plan-artifacts/1" and index["plan"] == "plan.json"
    assert [e["family"] for e in index["launches"]] == [launch.family for launch in want.launches]
    assert len(index["launches"]) == 2  # split-K: the main kernel and its convert
    for entry, planned in zip(index["launches"], want.launches, strict=True):
        assert entry["spec"] == planned.spec and entry["kernel"] == planned.contract.kernel
        assert (out / entry["contract"]).read_text() == planned.contract.to_json()
        assert (out / entry["ll"]).read_text().startswith("target datalayout")
        assert (out / entry["rir"]).read_text().startswith("rocke.ir/1\n")
        assert entry["hsaco"] is None and "ROCKE_LLD" in entry["hsaco_skipped"]
    assert f"wrote {out / 'artifacts.json'}" in err  # --json keeps stdout the plan's


def test_plan_out_of_a_refused_problem_writes_its_reasons(tmp_path, capsys):
    code, _, _ = _run(["plan", "attention_fwd", "--problem", REFUSED, "--arch", "gfx942", "--out", str(tmp_path),
                       "--flavor", "llvm22"], capsys)
    assert code == 1 and json.loads((tmp_path / "plan.json").read_text())["status"] == "refused"
    assert json.loads((tmp_path / "artifacts.json").read_text())["launches"] == []


def test_emit_takes_the_problem_plan_takes(tmp_path, capsys):
    """One --problem grammar: the attention problem `rocke plan` takes (head_dim, dtype, mask ...)
    sizes the planned family's contract in `rocke emit`; a key that contradicts the spec is refused."""
    result = plan("attention_fwd", ATTENTION, "gfx942")
    first = result.launches[0]
    code, _, err = _run(["emit", "attention_fwd", "--spec", first.spec, "--arch", "gfx942", "--flavor", "llvm22",
                         "--out", str(tmp_path), "--problem", ATTENTION], capsys)
    assert code == 0, err
    assert (tmp_path / f"{first.contract.kernel}.launch.json").read_text() == first.contract.to_json()
    code, out, err = _run(["emit", "attention_fwd", "--spec", first.spec, "--arch", "gfx942", "--flavor", "llvm22",
                           "--out", str(tmp_path), "--problem", ATTENTION.replace("head_dim=64", "head_dim=128")],
                          capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "--problem head_dim=128 does not match the spec's head_dim=64" in err
    code, _, err = _run(["emit", "conv_igemm_fwd", "--spec", plan("conv_fwd", CONV, "gfx942").launches[0].spec,
                         "--arch", "gfx942", "--flavor", "llvm22", "--out", str(tmp_path), "--problem",
                         CONV + " align=16 layout=nhwc"], capsys)
    assert code == 0, err


def test_demo_shows_a_library_problem_end_to_end(capsys):
    """`rocke demo`'s product path: a conv_fwd problem planned in both engines, its artifacts
    written, the plan run on the simulator: PASS."""
    from rocke.cli import demo_cmd

    assert demo_cmd._library_problem() == 0
    out = capsys.readouterr().out
    assert "plan (python == cpp, byte-identical)" in out and "conv_igemm_fwd" in out
    assert out.rstrip().endswith("PASS")


def test_catalog_build_plans_its_problem_corpus_before_compiling(tmp_path, capsys, monkeypatch):
    """`rocke catalog build --problems FILE`: every line planned by the library's planners first; a
    malformed problem is one usage line naming FILE:LINE, a refused one fails the build with its reason
    codes, and nothing compiles in either case."""
    from rocke.gates import catalog

    def trip(*_args, **_kwargs):
        raise AssertionError("compiled before the corpus was planned")

    monkeypatch.setattr(catalog, "build_catalog", trip)
    monkeypatch.setattr(catalog, "skip_reason", lambda arch, flavor: None)  # as where ld.lld is
    corpus = tmp_path / "problems.txt"
    out = str(tmp_path / "catalog")
    corpus.write_text(f"conv_fwd --problem '{CONV}' --arch gfx942\nattention_fwd --problem '{REFUSED}' --arch gfx942\n")
    code, stdout, _ = _run(["catalog", "build", "--problems", str(corpus), "--out", out], capsys)
    rejected = plan("attention_fwd", REFUSED, "gfx942").rejected
    codes = "; ".join(f"{r.family}: {', '.join(r.reasons)}" for r in rejected)
    assert code == 1 and stdout == (f"catalog: FAILED: 1 problem(s) refused: {corpus}:2: attention_fwd on gfx942 is "
                                    f"refused ({codes})\n")
    corpus.write_text(f"conv_fwd --problem '{CONV.replace('h=9', 'h=x')}' --arch gfx942\n")
    code, stdout, err = _run(["catalog", "build", "--problems", str(corpus), "--out", out], capsys)
    assert (code, stdout) == (2, "")
    assert err == f"rocke catalog: error: {corpus}:1: conv_fwd problem: h=x: must be a decimal integer\n"
    assert not (tmp_path / "catalog").exists()
