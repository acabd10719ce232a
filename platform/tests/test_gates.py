"""The gates themselves: each planted fault (changed hash, truncated C++ output, extra config, missing
golden entry, CRLF, a refusal in one engine only) must fail; the clean toy family must pass."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import sys
import types
from pathlib import Path

import pytest

from rocke.families import Family, Spec, registry
from rocke.gates import emitters, golden, parity
from rocke.gates.frames import FrameError, read_records, write_end, write_record
from rocke.ir import Builder, f32, print_kernel, ptr
from rocke.lower import lower


@dataclasses.dataclass(frozen=True)
class ToySpec(Spec):
    FAMILY = "toy"
    scale: int

    def check(self) -> None:
        if not 1 <= self.scale <= 8:
            self.fail("scale", "must be in 1..8")


def build_toy(spec: ToySpec, arch: str):
    b = Builder(spec.kernel_name(), max_workgroup_size=64)
    x = b.param("x", ptr(f32, "global"), noalias=True)
    tid = b.thread_id_x(name="tid")
    v = b.load(x, tid, name="v")
    b.store(x, tid, b.mul(v, b.const(float(spec.scale), f32), name="scaled"))
    return b.finish()


CONFIGS = "# toy configs\ngfx942 scale=2\ngfx1100 scale=3\nrefuse gfx942 scale=9\n"


@pytest.fixture
def toy(tmp_path: Path, monkeypatch):
    """A registered toy family with a config file, a C++ stand-in and a native emitter stand-in."""
    pkg = tmp_path / "toydist" / "src" / "toyfam"  # the family's folder: record, config file, golden
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "toy.cfg").write_text(CONFIGS)
    monkeypatch.syspath_prepend(str(tmp_path / "toydist" / "src"))
    monkeypatch.delitem(sys.modules, "toyfam", raising=False)  # each test imports its own copy
    family = Family("toy", "toy-dist", ToySpec, build_toy, "toyfam", "toy_cpp", "toy-emit")
    monkeypatch.setattr(registry, "providers", lambda: {"toy": lambda: [family]})

    state = {"ir_tamper": None, "refusal_tamper": None}

    def build_family(name, kv, arch):
        try:
            text = print_kernel(build_toy(ToySpec.from_kv(kv), arch))
        except ValueError as exc:
            raise ValueError(state["refusal_tamper"] or str(exc)) from None
        return state["ir_tamper"](text) if state["ir_tamper"] else text

    monkeypatch.setitem(sys.modules, "toy_cpp", types.SimpleNamespace(build_family=build_family))
    from rocke.ir import parse_kernel

    core = types.SimpleNamespace(lower=lambda ir, arch, flavor: lower(parse_kernel(ir), arch=arch, flavor=flavor))
    monkeypatch.setattr(emitters, "native_engine", lambda: core)

    stream = tmp_path / "native.out"
    stream.write_bytes(_native_stream(CONFIGS))
    emitter = tmp_path / "bin" / "toy-emit"
    emitter.parent.mkdir()
    emitter.write_text(f"#!{sys.executable}\nimport sys\nsys.stdout.buffer.write(open({str(stream)!r}, 'rb').read())\n")
    emitter.chmod(0o755)
    monkeypatch.setenv("PATH", f"{emitter.parent}:{__import__('os').environ['PATH']}")
    return types.SimpleNamespace(family=family, pkg=pkg, root=tmp_path, stream=stream, state=state)


def _native_stream(configs: str) -> bytes:
    out = b""
    index = 0
    for line in configs.splitlines():
        if not line or line.startswith("#"):
            continue
        refuse = line.startswith("refuse ")
        arch, _, kv = line.removeprefix("refuse ").partition(" ")
        try:
            kernel = build_toy(ToySpec.from_kv(kv), arch)
        except ValueError as exc:
            out += write_record(index, "refusal", str(exc))
        else:
            out += write_record(index, "ir", print_kernel(kernel))
            for flavor in emitters.FLAVORS:
                out += write_record(index, f"ll:{flavor}", lower(kernel, arch=arch, flavor=flavor))
        index += 1
        del refuse
    return out + write_end(index)


def _parity():
    statuses, _ = parity.run_parity(quiet=True)
    (status,) = statuses
    return status


def test_clean_toy_family_passes_parity(toy):
    status = _parity()
    assert status.ok, parity.format_report([status])
    assert [v.verdict for v in status.verdicts] == ["identical", "identical", "refused-identical"]


def test_changed_cpp_ir_fails_parity(toy):
    toy.state["ir_tamper"] = lambda text: text.replace("scaled", "scaled2")
    status = _parity()
    assert not status.ok and status.verdicts[0].verdict == "ir-mismatch"


def test_refusal_text_difference_fails_parity(toy):
    toy.state["refusal_tamper"] = "toy: scale=9: too big"
    status = _parity()
    assert not status.ok and status.verdicts[2].verdict == "refusal-mismatch"


def test_truncated_native_stream_fails_parity(toy):
    data = toy.stream.read_bytes()
    toy.stream.write_bytes(data[: len(data) // 2])
    status = _parity()
    assert not status.ok
    assert any("native emitter" in p for p in status.problems)


def test_native_count_mismatch_fails_parity(toy):
    toy.stream.write_bytes(_native_stream("gfx942 scale=2\n"))
    status = _parity()
    assert not status.ok
    assert any("produced 1 configs, the config file has 3" in p for p in status.problems)


def test_unknown_verdict_fails_closed():
    status = parity.FamilyStatus("x", [parity.Verdict("x", None, "something-new")])
    assert not status.ok


def test_all_refused_family_fails(toy):
    configs = "refuse gfx942 scale=9\n"
    (toy.pkg / "toy.cfg").write_text(configs)
    toy.stream.write_bytes(_native_stream(configs))
    status = _parity()
    assert not status.ok and any("every config is refused" in p for p in status.problems)


def test_expected_refusal_that_builds_fails(toy):
    configs = "refuse gfx942 scale=2\n"
    (toy.pkg / "toy.cfg").write_text(configs)
    toy.stream.write_bytes(_native_stream(configs))
    assert _parity().verdicts[0].verdict == "unexpected-build"


def _bless_and_check(toy):
    golden.bless(root=toy.root)
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    return problems


def test_golden_bless_then_check_passes(toy):
    assert _bless_and_check(toy) == []
    data = json.loads((toy.pkg / "toy.golden.json").read_text())
    assert data["count"] == 3 and set(data["configs"]["refuse gfx942 scale=9"]) == {"refusal"}


def test_golden_changed_hash_fails(toy):
    golden.bless(root=toy.root)
    path = toy.pkg / "toy.golden.json"
    data = json.loads(path.read_text())
    data["configs"]["gfx942 scale=2"]["llvm22"] = "0" * 64
    path.write_text(json.dumps(data))
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    assert any("changed output [gfx942 scale=2]: llvm22" in p for p in problems)


def test_golden_extra_config_fails_until_reblessed(toy):
    golden.bless(root=toy.root)
    with (toy.pkg / "toy.cfg").open("a") as f:
        f.write("gfx950 scale=4\n")
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    assert any("unblessed config [gfx950 scale=4]" in p for p in problems)
    assert any("config file changed" in p for p in problems)
    assert _bless_and_check(toy) == []


def test_golden_missing_entry_fails(toy):
    golden.bless(root=toy.root)
    path = toy.pkg / "toy.golden.json"
    data = json.loads(path.read_text())
    del data["configs"]["gfx1100 scale=3"]
    path.write_text(json.dumps(data))
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    assert any("unblessed config [gfx1100 scale=3]" in p for p in problems)


def test_golden_crlf_fails(toy):
    golden.bless(root=toy.root)
    path = toy.pkg / "toy.golden.json"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    assert any("CR bytes" in p for p in problems)


def test_crlf_in_config_file_is_refused(toy):
    (toy.pkg / "toy.cfg").write_bytes(CONFIGS.replace("\n", "\r\n").encode())
    with pytest.raises(ValueError, match="carriage returns and tabs are not allowed"):
        golden.check_golden(root=toy.root, quiet=True)


def test_non_canonical_config_line_is_refused(toy):
    (toy.pkg / "toy.cfg").write_text("gfx942 scale=02\n")
    with pytest.raises(ValueError, match=r"toy\.cfg line 1: toy: scale=02: must be a decimal integer"):
        golden.check_golden(root=toy.root, quiet=True)
    (toy.pkg / "toy.cfg").write_text("refuse gfx942 scale=2 scale=2\n")
    with pytest.raises(ValueError, match="expected the toy spec as canonical key=value pairs"):
        golden.check_golden(root=toy.root, quiet=True)


def test_missing_golden_file_fails(toy):
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    assert problems == ["toy: no golden file; bless it with `rocke bless --only toy`"]


def test_orphan_golden_file_fails(toy):
    """A golden with no registered family (a removed or renamed family, an old-layout file) is reported."""
    golden.bless(root=toy.root)
    (toy.pkg / "gone").mkdir()
    (toy.pkg / "gone" / "gone.golden.json").write_text((toy.pkg / "toy.golden.json").read_text())
    (toy.pkg / "goldens").mkdir()
    (toy.pkg / "goldens" / "toy.json").write_text((toy.pkg / "toy.golden.json").read_text())
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    assert problems == [
        "orphan golden file toyfam/goldens/toy.json: no registered family owns it; register its family or delete "
        "the file",
        "orphan golden file toyfam/gone/gone.golden.json: no registered family owns it; register its family or "
        "delete the file",
    ]
    (toy.pkg / "gone" / "gone.golden.json").unlink()
    (toy.pkg / "goldens" / "toy.json").unlink()
    assert golden.check_golden(root=toy.root, quiet=True)[0] == []


def test_orphan_golden_is_reported_even_when_only_other_families_are_checked(toy, monkeypatch):
    other = dataclasses.replace(toy.family, name="other")
    monkeypatch.setattr(registry, "providers", lambda: {"toy": lambda: [toy.family, other]})
    (toy.pkg / "other.cfg").write_text(CONFIGS)
    golden.bless(["toy"], root=toy.root)
    (toy.pkg / "stale.golden.json").write_text("{}\n")
    problems, _ = golden.check_golden(["toy"], root=toy.root, quiet=True)
    assert problems == ["orphan golden file toyfam/stale.golden.json: no registered family owns it; register its "
                        "family or delete the file"]


def test_frames_reader_is_strict():
    good = write_record(0, "refusal", "no") + write_end(1)
    assert read_records(good)[0].payload == "no"
    for bad in [good[:-3], good + b"x", write_record(0, "ir", "abc")[:-2] + write_end(1),
                write_record(0, "ir", "abc") + write_end(2)]:
        with pytest.raises(FrameError):
            read_records(bad)


def test_timing_table_lists_families(toy):
    _, progress = parity.run_parity(quiet=True)
    assert "toy" in progress.timing_table() and "total (wall)" in progress.timing_table()


def test_parity_golden_and_validity_count_the_built_kernels_ir_lines(toy):
    """Each gate that holds the built kernels' IR text counts its lines per family (the timing
    table's measure of a family's size); a refused config adds none."""
    from rocke.gates import validity

    built = [("gfx942", "scale=2"), ("gfx1100", "scale=3")]
    expected = sum(print_kernel(build_toy(ToySpec.from_kv(kv), arch)).count("\n") for arch, kv in built)
    assert expected > 0
    _, parity_progress = parity.run_parity(quiet=True)
    _, golden_progress = golden.check_golden(root=toy.root, quiet=True)
    _, _, validity_progress = validity.run_validity(quiet=True)
    for progress in (parity_progress, golden_progress, validity_progress):
        assert progress.family_ir_lines == {"toy": expected}
        assert "IR lines" in progress.timing_table()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _verdicts(statuses):
    return [(s.name, s.ok, [(v.config.key, v.verdict, v.detail) for v in s.verdicts], s.problems) for s in statuses]


def test_gates_draw_a_bar_on_a_terminal_and_plain_lines_elsewhere_with_the_same_verdicts(toy, monkeypatch):
    quiet_parity, _ = parity.run_parity(quiet=True)
    quiet_golden, _ = golden.check_golden(root=toy.root, quiet=True)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    tty_parity, progress = parity.run_parity()
    assert progress.tty and "[parity]" in terminal.getvalue() and "3/3" in terminal.getvalue()
    assert "config/s" in terminal.getvalue()  # the bar's rate, not a plain line
    tty_golden, progress = golden.check_golden(root=toy.root)
    assert progress.tty and "[golden]" in terminal.getvalue()
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    plain_parity, progress = parity.run_parity()
    assert not progress.tty and "config/s" not in log.getvalue()
    assert log.getvalue().splitlines()[-1].startswith("[parity] 3/3 configs, toy done in ")
    assert _verdicts(quiet_parity) == _verdicts(tty_parity) == _verdicts(plain_parity)
    assert quiet_golden == tty_golden


# --- gate holes: each planted fault fails loudly -------------------------------------------------


def test_cpp_engine_crash_is_a_crash_verdict(toy, capsys):
    def crashing(name, kv, arch):
        raise RuntimeError("planted crash in the C++ twin")

    sys.modules["toy_cpp"].build_family = crashing
    status = _parity()
    assert not status.ok
    assert [v.verdict for v in status.verdicts] == ["crash", "crash", "crash"]
    assert "cpp: RuntimeError: planted crash in the C++ twin" in status.verdicts[0].detail
    from rocke.cli import main

    assert main(["check", "parity", "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "toy                      FAILED  3 crash" in out and "parity: FAILED toy" in out


def test_python_builder_crash_fails_parity_and_golden(toy, monkeypatch):
    def crashing(spec, arch):
        if spec.scale == 3:
            raise ZeroDivisionError("planted crash in the Python builder")
        return build_toy(spec, arch)

    golden.bless(root=toy.root)
    monkeypatch.setattr(registry, "providers",
                        lambda: {"toy": lambda: [dataclasses.replace(toy.family, build=crashing)]})
    status = _parity()
    assert [v.verdict for v in status.verdicts] == ["identical", "crash", "refused-identical"]
    assert "python: ZeroDivisionError: planted crash" in status.verdicts[1].detail and not status.ok
    problems, _ = golden.check_golden(root=toy.root, quiet=True)
    assert problems[0] == "toy: [gfx1100 scale=3] crash: ZeroDivisionError: planted crash in the Python builder"
    with pytest.raises(RuntimeError, match="cannot bless toy"):
        golden.bless(root=toy.root)


def test_native_crash_record_is_a_crash_verdict(toy):
    """A native stream that ends early leaves the last configs without a record: a crash, not a pass."""
    toy.stream.write_bytes(_native_stream("gfx942 scale=2\n"))
    status = _parity()
    assert [v.verdict for v in status.verdicts][1:] == ["crash", "crash"]
    assert status.verdicts[1].detail == "native: no native record for this config"


def test_all_refused_family_fails_under_every_shard(toy):
    configs = "refuse gfx942 scale=9\nrefuse gfx950 scale=10\n"
    (toy.pkg / "toy.cfg").write_text(configs)
    toy.stream.write_bytes(_native_stream(configs))
    for index in range(3):
        statuses, _ = parity.run_parity(shard=parity.Shard(index, 3), quiet=True)
        (status,) = statuses
        assert not status.ok, index
        assert "every config is refused: the family builds nothing" in status.problems


def test_shard_holding_none_of_a_familys_configs_passes_it(toy):
    statuses, _ = parity.run_parity(shard=parity.Shard(4, 5), quiet=True)
    (status,) = statuses
    assert status.outside_shard and status.verdicts == [] and status.ok
    assert "toy                      ok      no configs in this shard" in parity.format_report(statuses)
    statuses, _ = parity.run_parity(shard=parity.Shard(1, 5), quiet=True)
    assert [v.verdict for v in statuses[0].verdicts] == ["identical"] and statuses[0].ok


def test_empty_config_file_is_an_error_of_every_gate(toy):
    (toy.pkg / "toy.cfg").write_text("# nothing\n")
    for gate in (lambda: parity.run_parity(quiet=True), lambda: golden.check_golden(root=toy.root, quiet=True),
                 lambda: parity.run_parity(shard=parity.Shard(1, 2), quiet=True)):
        with pytest.raises(ValueError, match=r"^toy\.cfg: no configs$"):
            gate()


@pytest.mark.parametrize("missing", ["spec", "build"])
def test_family_without_spec_or_build_fails_every_gate(toy, monkeypatch, capsys, missing):
    from rocke.cli import main
    from rocke.gates import validity
    from rocke.gates.runner import IncompleteFamilyError

    broken = dataclasses.replace(toy.family, name="broken", **{missing: None})
    monkeypatch.setattr(registry, "providers", lambda: {"toy": lambda: [toy.family, broken]})
    message = f"family 'broken' (owner toy-dist) is registered without {missing}: no gate can check it"
    for gate in (lambda: parity.run_parity(quiet=True), lambda: golden.check_golden(root=toy.root, quiet=True),
                 lambda: validity.run_validity(quiet=True), lambda: golden.bless(root=toy.root)):
        with pytest.raises(IncompleteFamilyError, match=re.escape(message)):
            gate()
    for gate in ("parity", "golden", "validity"):
        assert main(["check", gate, "--quiet"]) == 2
        assert capsys.readouterr().err == f"rocke check: error: {message}\n"
    statuses, _ = parity.run_parity(["toy"], quiet=True)  # --only the complete family still works
    assert statuses[0].ok


def test_golden_with_no_families_fails(monkeypatch, capsys):
    from rocke.cli import main

    monkeypatch.setattr(registry, "providers", lambda: {})
    problems, _ = golden.check_golden(quiet=True)
    assert problems == ["no families registered: nothing was checked"]
    assert main(["check", "golden", "--quiet"]) == 1
    assert "golden: FAILED (1 problems)" in capsys.readouterr().out


def test_golden_shards_split_the_configs_and_each_sees_the_whole_file_checks(toy, capsys):
    from rocke.cli import main

    golden.bless(root=toy.root)
    path = toy.pkg / "toy.golden.json"
    data = json.loads(path.read_text())
    data["configs"]["gfx1100 scale=3"]["ir"] = "0" * 64  # config 1 of 3
    path.write_text(json.dumps(data))
    first, _ = golden.check_golden(root=toy.root, shard=parity.Shard(0, 2), quiet=True)
    second, _ = golden.check_golden(root=toy.root, shard=parity.Shard(1, 2), quiet=True)
    assert first == [] and second == ["toy: changed output [gfx1100 scale=3]: ir"]
    data["configs"]["gfx1201 scale=5"] = {"ir": "0" * 64}  # in the golden, not in the config file
    path.write_text(json.dumps(data))
    for index in (0, 1):
        problems, _ = golden.check_golden(root=toy.root, shard=parity.Shard(index, 2), quiet=True)
        assert "toy: golden has a config the file lacks [gfx1201 scale=5]" in problems
    assert main(["check", "golden", "--root", str(toy.root), "--shard", "1/2", "--quiet"]) == 1
    assert "golden: toy: changed output [gfx1100 scale=3]: ir" in capsys.readouterr().out


def test_native_emitter_next_to_the_interpreter_wins_over_path(toy, tmp_path, monkeypatch):
    """`VENV/bin/rocke` with VENV not activated: the emitter is taken from the interpreter's scripts dir."""
    scripts = tmp_path / "venv-bin"
    scripts.mkdir()
    planted = scripts / "toy-emit"
    planted.write_text((tmp_path / "bin" / "toy-emit").read_text())
    planted.chmod(0o755)
    monkeypatch.setattr(emitters.sysconfig, "get_path", lambda name: str(scripts))
    assert emitters.find_native_emitter("toy-emit") == planted
    status = _parity()
    assert status.ok and status.native == str(planted)
    assert f"  native emitter: {planted}" in parity.format_report([status])
    planted.unlink()  # then the one on PATH
    assert emitters.find_native_emitter("toy-emit") == tmp_path / "bin" / "toy-emit"
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    monkeypatch.setattr(emitters.sys, "executable", str(tmp_path / "nowhere" / "python"))
    with pytest.raises(FrameError, match="native emitter 'toy-emit' not found in"):
        emitters.find_native_emitter("toy-emit")
    status = _parity()
    assert not status.ok and status.problems[0].startswith("native emitter: native emitter 'toy-emit' not found")
