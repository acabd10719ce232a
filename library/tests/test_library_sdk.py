"""The library wheel's C++ SDK: headers, librocke_library.a and the CMake package
(find_package(rocke_library CONFIG) -> rocke_library::library, which brings rocke::core), and the
example hosts of library/examples/host built against the installed wheels only: rocke_host_example
builds a conv kernel from a spec string, lowers it and writes the .ll and the launch template, byte
for byte what the Python engine writes; rocke_serve_example plans a problem and serves the plan
from a code-object catalog by spec digest, printing what the Python engine's serve_problem prints
and refusing with its text; and the product path end to end (validity lane, needs ld.lld): `rocke
catalog build --problems` for the README's three problems, then the host serving each."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rocke
import rocke_library
from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.families.launch import launch_template, template_json
from rocke.lower import lower

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "host"


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} not found; install it with `pip install {name}`")
    return found


def _cmake_dir(module: str) -> Path:
    out = subprocess.run([sys.executable, "-m", module, "--cmake-dir"], check=True, capture_output=True, text=True)
    return Path(out.stdout.strip())


def test_python_m_rocke_library_prints_the_cmake_dir() -> None:
    path = _cmake_dir("rocke_library")
    assert path == rocke_library.cmake_dir()
    assert (path / "rocke_libraryConfig.cmake").is_file()
    assert (path / "rocke_libraryTargets.cmake").is_file()
    native = rocke_library.native_dir()
    assert (native / "lib" / "librocke_library.a").is_file()
    assert (native / "include" / "rocke_library" / "families.hpp").is_file()
    assert (native / "include" / "rocke_library" / "kernels" / "conv" / "conv_direct_fwd" / "builder.hpp").is_file()
    bad = subprocess.run([sys.executable, "-m", "rocke_library", "--bogus"], capture_output=True, text=True)
    assert bad.returncode == 2 and "usage: python -m rocke_library --cmake-dir" in bad.stderr


def test_config_package_brings_rocke_core_through_find_dependency() -> None:
    text = (rocke_library.cmake_dir() / "rocke_libraryConfig.cmake").read_text()
    assert f"find_dependency(rocke {rocke.__version__} EXACT CONFIG" in text
    targets = (rocke_library.cmake_dir() / "rocke_libraryTargets.cmake").read_text()
    assert "rocke_library::library" in targets and "rocke::core" in targets


@pytest.fixture(scope="module")
def example_host(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """library/examples/host configured with only the installed wheels' CMake packages on the prefix path."""
    build = tmp_path_factory.mktemp("example-host")
    prefixes = [_cmake_dir("rocke").parents[2], _cmake_dir("rocke_library").parents[2]]
    subprocess.run([_tool("cmake"), "-S", str(EXAMPLE), "-B", str(build), "-G", "Ninja",
                    f"-DCMAKE_MAKE_PROGRAM={_tool('ninja')}", "-DCMAKE_BUILD_TYPE=Release",
                    f"-DCMAKE_PREFIX_PATH={';'.join(str(p) for p in prefixes)}"],
                   check=True, capture_output=True)
    subprocess.run([_tool("cmake"), "--build", str(build)], check=True, capture_output=True)
    return build / "rocke_host_example"


@pytest.mark.parametrize("name", ["conv_direct_fwd", "img2col"])
def test_example_host_writes_the_python_engine_bytes(example_host: Path, tmp_path: Path, name: str) -> None:
    family = get_family(name)
    configs = [c for c in family_configs(family) if not c.refuse]
    for config in (configs[0], configs[-1]):
        kernel = family.build(family.spec.from_kv(config.kv), config.arch)
        for flavor in ("llvm20", "llvm22"):
            out = tmp_path / f"{config.lineno}-{flavor}"
            proc = subprocess.run([str(example_host), name, config.arch, flavor, config.kv, str(out)],
                                  capture_output=True, text=True, env={})  # no PYTHONPATH, no venv: no Python
            assert proc.returncode == 0, proc.stderr
            ll_path, manifest_path = out / f"{kernel.name}.ll", out / f"{kernel.name}.launch.json"
            assert proc.stdout == f"wrote {ll_path}\nwrote {manifest_path}\n"
            assert ll_path.read_bytes() == lower(kernel, arch=config.arch, flavor=flavor).encode()
            template = launch_template(kernel, family=name, spec=config.kv, arch=config.arch)
            assert manifest_path.read_bytes() == template_json(template).encode()
            assert sorted(p.name for p in out.iterdir()) == sorted([ll_path.name, manifest_path.name])


def test_example_host_refuses_with_the_python_text(example_host: Path, tmp_path: Path) -> None:
    family = get_family("conv_direct_fwd")
    refused = next(c for c in family_configs(family) if c.refuse)
    with pytest.raises(ValueError) as info:
        family.build(family.spec.from_kv(refused.kv), refused.arch)
    proc = subprocess.run([str(example_host), family.name, refused.arch, "llvm22", refused.kv, str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr == f"rocke_host_example: {info.value}\n"
    assert not (tmp_path / "o").exists()
    usage = subprocess.run([str(example_host)], capture_output=True, text=True)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: rocke_host_example")


# ---- serving a plan from a code-object catalog (rocke_serve_example) -------------------------------

RESNET_3X3 = "n=32 h=56 w=56 c=64 k=64 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"
ATTENTION = "batch=2 seqlen_q=4096 seqlen_k=4096 heads_q=16 heads_kv=16 head_dim=128 dtype=bf16 mask=causal_br"
# The product path's problems (README): attention on gfx942, a ResNet-50 3x3 conv on gfx942 and gfx1100.
THE_PROBLEMS = (("attention_fwd", ATTENTION, "gfx942"), ("conv_fwd", RESNET_3X3, "gfx942"),
                ("conv_fwd", RESNET_3X3, "gfx1100"))
# Plans of several launches: a shared workspace and zero-fills (attention_bwd), a split-K reduction.
MORE_PROBLEMS = (("attention_bwd", "batch=1 seqlen_q=21 seqlen_k=18 heads_q=4 heads_kv=2 head_dim=32 dtype=f16",
                  "gfx942"),
                 ("conv_wgrad", RESNET_3X3, "gfx942"))


def _serve_tool(example_host: Path) -> Path:
    return example_host.parent / "rocke_serve_example"


def _fake_catalog(root: Path, problems, skipped: dict[str, str] | None = None) -> Path:
    """A rocke.catalog/2 directory whose entries are the problems' plans' launches, keyed by spec
    digest, each with stand-in code-object bytes (serving reads and hashes them, never runs them)."""
    from rocke.families.refusals import spec_digest
    from rocke.gates.catalog import FORMAT, INDEX, render
    from rocke_library.dispatch import plan

    entries: dict[str, dict[str, dict]] = {}
    for kind, text, arch in problems:
        for launch in plan(kind, text, arch).launches:
            rel = f"{arch}/{launch.family}/{launch.contract.kernel}.hsaco"
            data = f"\x7fELF stand-in for {launch.contract.kernel}\n".encode()
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
            entries.setdefault(arch, {})[spec_digest(launch.family, launch.spec)] = {
                "family": launch.family, "hsaco": rel, "hsaco_sha256": hashlib.sha256(data).hexdigest(),
                "kernel": launch.contract.kernel, "launch": {}, "resources": {}, "spec": launch.spec}
    index = {"entries": entries, "families": [], "flavor": "llvm22", "format": FORMAT, "problems": [],
             "rocke_version": rocke.__version__, "skipped": skipped or {}}
    root.mkdir(parents=True, exist_ok=True)
    (root / INDEX).write_text(render(index))
    return root


def _served(tool: Path, catalog: Path, kind: str, text: str, arch: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(tool), str(catalog), kind, arch, text], capture_output=True, text=True,
                          env={})  # no PYTHONPATH, no venv: no Python


def _python_and_cpp(catalog: Path, kind: str, text: str, arch: str) -> tuple[str, str]:
    """serve_problem's text (or ValueError text) in the Python engine and in the C++ one (the binding)."""
    import rocke_library_engine

    from rocke_library.dispatch import serve_problem

    def attempt(call) -> str:
        try:
            return call()
        except ValueError as exc:
            return f"error: {exc}"

    return (attempt(lambda: serve_problem(kind, text, arch, catalog)),
            attempt(lambda: rocke_library_engine.serve_problem(kind, text, arch, str(catalog))))


def test_serve_example_prints_what_it_would_launch_as_the_python_engine(example_host: Path, tmp_path: Path) -> None:
    from rocke.families.refusals import spec_digest
    from rocke_library.dispatch import plan

    problems = THE_PROBLEMS + MORE_PROBLEMS
    catalog = _fake_catalog(tmp_path / "catalog", problems)
    for kind, text, arch in problems:
        python, cpp = _python_and_cpp(catalog, kind, text, arch)
        proc = _served(_serve_tool(example_host), catalog, kind, text, arch)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == python == cpp
        result = plan(kind, text, arch)
        assert python.startswith(f"{kind} on {arch}: {len(result.launches)} launch(es) from {catalog / 'catalog.json'} "
                                 "(llvm22), workspace ")
        for i, launch in enumerate(result.launches):
            kernel = launch.contract.kernel
            assert f"  launch {i}: {kernel} in {arch}/{launch.family}/{kernel}.hsaco (sha256 " in python
            assert f"    spec digest {spec_digest(launch.family, launch.spec)}\n" in python
    backward, split_k = (_python_and_cpp(catalog, *problem)[0] for problem in MORE_PROBLEMS)
    assert "\n  workspace zero_ws: offset " in backward  # the launch set's shared slices
    assert split_k.endswith("\n  workspace 0.conv_igemm_wgrad: offset 0, 147456 bytes\n"
                            "  zero before launch 0: workspace\n")
    dead = _python_and_cpp(catalog, "conv_fwd", RESNET_3X3.replace("n=32", "n=0"), "gfx942")
    assert dead == ("conv_fwd on gfx942: dead, nothing to launch\n",) * 2


def test_serve_example_refuses_what_the_catalog_cannot_serve_with_the_python_text(example_host: Path,
                                                                                  tmp_path: Path) -> None:
    from rocke.gates.catalog import INDEX

    tool = _serve_tool(example_host)
    attention, conv942, conv1100 = THE_PROBLEMS
    catalog = _fake_catalog(tmp_path / "one", [conv942], skipped={"gfx1100": "a stand-in reason"})

    def refused(problem, folder: Path = catalog) -> str:
        python, cpp = _python_and_cpp(folder, *problem)
        proc = _served(tool, folder, problem[0], problem[1], problem[2])
        assert python == cpp and python.startswith("error: "), (python, cpp)
        assert proc.returncode == 1 and proc.stdout == ""
        assert proc.stderr == f"rocke_serve_example: {python.removeprefix('error: ')}\n"
        return python.removeprefix("error: ")

    missing = refused(attention)
    assert missing.startswith(f"catalog {catalog} has no code object for launch 0 of attention_fwd on gfx942: "
                              "attention_fwd [")
    assert missing.endswith("rocke catalog build --problems FILE with this problem in FILE builds it")
    assert refused(("conv_fwd", RESNET_3X3, "gfx950")).startswith(
        f"catalog {catalog} has no code object for launch 0 of conv_fwd on gfx950: conv_")
    assert refused(conv1100) == f"catalog {catalog} skipped gfx1100: a stand-in reason"
    code_object = next(catalog.rglob("*.hsaco"))
    code_object.write_bytes(code_object.read_bytes() + b"!")
    assert refused(conv942).startswith(f"{code_object}: sha256 ")
    code_object.unlink()
    assert refused(conv942) == f"{code_object}: no such code object (launch 0; listed in {INDEX})"
    index = json.loads((catalog / INDEX).read_text())
    index["format"] = "rocke.catalog/1"
    (catalog / INDEX).write_text(json.dumps(index))
    assert refused(conv942) == (f"{catalog / INDEX}: not a rocke.catalog/2 index (format 'rocke.catalog/1'; "
                                "rebuild it with rocke catalog build)")
    for broken in ("{", json.dumps({**index, "format": "rocke.catalog/2", "flavor": 22}),
                   json.dumps({**index, "format": "rocke.catalog/2", "entries": {"gfx942": {"d": {"hsaco": "/x"}}}})):
        (catalog / INDEX).write_text(broken)
        refused(conv942)
    absent = tmp_path / "absent"
    assert refused(conv942, absent) == f"{absent / INDEX}: no catalog index (rocke catalog build writes one)"
    # A refused plan: the host prints the plan's text with every candidate's reasons, as `rocke plan` does.
    proc = _served(tool, catalog, "conv_fwd", RESNET_3X3.replace("dtype=f16", "dtype=f16 layout=nchw"), "gfx942")
    from rocke_library.dispatch import plan

    result = plan("conv_fwd", RESNET_3X3.replace("dtype=f16", "dtype=f16 layout=nchw"), "gfx942")
    assert result.status == "refused" and proc.returncode == 1 and proc.stderr == result.to_text()
    usage = subprocess.run([str(tool)], capture_output=True, text=True)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: rocke_serve_example CATALOG_DIR KIND ARCH")


@pytest.fixture(scope="module")
def toolchain() -> str:
    """The running LLVM's flavor, when code objects can be built here (else the test skips, visibly)."""
    from rocke import isa

    flavor = isa.running_flavor()
    if flavor is None:
        pytest.skip("the running LLVM validates no rocke flavor")
    if isa.find_lld() is None:
        pytest.skip("ld.lld not found: install Debian package lld-19")
    return flavor


def _rocke(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rocke", *args], capture_output=True, text=True, timeout=1200)


@pytest.mark.validity
def test_plan_out_catalog_build_problems_and_the_host_serve_the_three_problems(example_host: Path, toolchain: str,
                                                                              tmp_path: Path) -> None:
    """The product path end to end: `rocke catalog build --problems FILE` (the three problems alone) builds
    the code objects dispatch picks; the C++ host plans each problem with no Python, finds every launch's
    code object by spec digest and prints what it would launch (the Python engine's text); each is the
    code object `rocke plan --out` writes for that launch, byte for byte."""
    from rocke.gates.catalog import read_catalog, read_problems
    from rocke_library.dispatch import serve_problem

    corpus = EXAMPLE / "problems.txt"  # the README's corpus
    assert [(p.kind, p.problem, p.arch) for p in read_problems(corpus)] == list(THE_PROBLEMS)
    catalog = tmp_path / "catalog"
    built = _rocke("catalog", "build", "--problems", str(corpus), "--problems-only", "--out", str(catalog), "--quiet")
    assert built.returncode == 0, built.stdout + built.stderr
    assert f"catalog: planned 3 problem(s) from {corpus}: 3 launch(es)\n" in built.stdout
    assert built.stdout.endswith(f"catalog: wrote 3 code objects for gfx942, gfx1100 ({toolchain}) and "
                                 f"{catalog / 'catalog.json'}\n")
    verified = _rocke("catalog", "verify", str(catalog))
    assert verified.returncode == 0 and verified.stdout == "catalog: ok (3 entries)\n", verified.stdout
    index = read_catalog(catalog)
    for i, (kind, text, arch) in enumerate(THE_PROBLEMS):
        out = tmp_path / f"plan-{i}"
        planned = _rocke("plan", kind, "--problem", text, "--arch", arch, "--out", str(out), "--flavor", toolchain)
        assert planned.returncode == 0, planned.stderr
        served = _served(_serve_tool(example_host), catalog, kind, text, arch)
        assert served.returncode == 0, served.stderr
        assert served.stdout == serve_problem(kind, text, arch, catalog)
        launches = json.loads((out / "artifacts.json").read_text())["launches"]
        assert len(launches) == 1
        for launch in launches:
            entry = index.find(arch, launch["spec_digest"])
            assert entry is not None and entry.kernel == launch["kernel"] and launch["hsaco"] is not None
            assert (catalog / entry.hsaco).read_bytes() == (out / launch["hsaco"]).read_bytes()
            assert (f"  launch {launch['launch']}: {entry.kernel} in {entry.hsaco} (sha256 {entry.hsaco_sha256})\n"
                    f"    spec digest {launch['spec_digest']}\n") in served.stdout


@pytest.mark.validity
def test_catalog_build_skips_an_nvidia_arch_says_so_and_the_host_names_it(example_host: Path, toolchain: str,
                                                                          tmp_path: Path) -> None:
    small = "n=2 h=8 w=8 c=16 k=16 filter_y=3 filter_x=3 pad_h=1 pad_w=1 dtype=f16"
    corpus = tmp_path / "problems.txt"
    corpus.write_text(f"conv_fwd --problem '{small}' --arch gfx1100\nconv_fwd --problem '{small}' --arch sm_90\n")
    catalog = tmp_path / "catalog"
    built = _rocke("catalog", "build", "--problems", str(corpus), "--problems-only", "--out", str(catalog), "--quiet")
    reason = "sm_90 is an NVIDIA arch; the catalog holds AMD code objects (HSACO) only"
    assert built.returncode == 0, built.stdout + built.stderr
    assert built.stdout.startswith(f"catalog: skipped sm_90 (1 problem(s)): {reason}\n"
                                   f"catalog: planned 1 problem(s) from {corpus}: 1 launch(es)\n")
    index = json.loads((catalog / "catalog.json").read_text())
    assert index["skipped"] == {"sm_90": reason} and list(index["entries"]) == ["gfx1100"]
    assert _served(_serve_tool(example_host), catalog, "conv_fwd", small, "gfx1100").returncode == 0
    nvidia = _served(_serve_tool(example_host), catalog, "conv_fwd", small, "sm_90")
    assert nvidia.returncode == 1
    assert nvidia.stderr == f"rocke_serve_example: catalog {catalog} skipped sm_90: {reason}\n"
