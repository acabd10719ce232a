"""One nox session per lane (docs/architecture.md §7). `nox` runs every lane but `bench` and `demo`.

Builds are shared across lanes: each package is built once per source digest into
.nox/_rocke/wheelhouse, from a copy of its directory with nothing beside it, and every
lane installs those wheels (never editable installs).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
WORK = ROOT / ".nox" / "_rocke"
BUILD_REQS = ["hatchling>=1.26", "cmake>=3.24", "ninja", "pybind11>=2.13"]
TEST_REQS = ["pytest>=8", "hypothesis>=6", "pytest-xdist>=3.5"]
LLVM22 = "llvmlite>=0.48,<0.51"
LLVM20 = "llvmlite>=0.45,<0.48"
LANE_MARKERS = ("parity", "golden", "validity", "validity_llvm20", "numeric")  # = rocke.gates.pytest_lanes
UNMARKED = "not (" + " or ".join(LANE_MARKERS) + ")"
SKIP_NAMES = ("build", "__pycache__", ".pytest_cache", ".hypothesis", "*.egg-info", ".ruff_cache")

nox.options.sessions = ["lint", "install", "platform", "library", "parity", "golden", "validity", "validity_llvm20",
                        "numeric"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True


def _tree_digest(*dirs: Path) -> str:
    """sha256 over relative paths and bytes of every source file under dirs."""
    h = hashlib.sha256()
    for top in dirs:
        for path in sorted(top.rglob("*")):
            rel = path.relative_to(ROOT)
            if any(part in ("build", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache")
                   or part.endswith(".egg-info") for part in rel.parts):
                continue
            if path.is_file():
                h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _isolated_copy(package: str) -> Path:
    """Copy `package/` alone into .nox/_rocke/src-<package>/ (no sibling package beside it).

    copy2 keeps mtimes, so the persistent CMake build dir rebuilds only what changed.
    """
    dest_root = WORK / f"src-{package}"
    dest = dest_root / package
    shutil.rmtree(dest_root, ignore_errors=True)
    shutil.copytree(ROOT / package, dest, ignore=shutil.ignore_patterns(*SKIP_NAMES))
    assert sorted(p.name for p in dest_root.iterdir()) == [package], "isolated copy has siblings"
    return dest


def _build_wheel(session: nox.Session, package: str, digest: str) -> Path:
    out = WORK / "wheelhouse" / f"{package}-{digest}"
    wheels = sorted(out.glob("*.whl")) if out.is_dir() else []
    if wheels:
        session.log(f"reusing {wheels[0].name} (source digest {digest})")
        return wheels[0]
    src = _isolated_copy(package)
    build_dir = WORK / "cmake" / package
    tmp_out = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp_out, ignore_errors=True)
    session.install(*BUILD_REQS)
    session.run(
        "python", "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_out), str(src),
        env={"ROCKE_CMAKE_BUILD_DIR": str(build_dir)},
    )
    session.run("ctest", "--test-dir", str(build_dir), "--output-on-failure", external=True)
    tmp_out.rename(out)
    return sorted(out.glob("*.whl"))[0]


def platform_wheel(session: nox.Session) -> Path:
    return _build_wheel(session, "platform", _tree_digest(ROOT / "platform"))


def library_wheel(session: nox.Session) -> Path:
    """Library builds against the platform wheel installed in the session."""
    return _build_wheel(session, "library", _tree_digest(ROOT / "platform", ROOT / "library"))


def install_stack(session: nox.Session, *, library: bool = True, llvmlite: str = LLVM22) -> None:
    session.install(*BUILD_REQS, *TEST_REQS, llvmlite)
    session.install("--force-reinstall", "--no-deps", str(platform_wheel(session)))
    session.install(str(platform_wheel(session)))  # its runtime dependencies
    if library:
        session.install("--force-reinstall", "--no-deps", str(library_wheel(session)))
    session.install(llvmlite)  # the lane's LLVM wins over any other pin


XDIST_LANES = ("library", "numeric")  # lanes whose suites are proven to run on several workers


def pytest(session: nox.Session, *paths: str, marker: str) -> None:
    """The lane's tests; in XDIST_LANES on one pytest-xdist worker per core (CPU-bound builds and
    simulations); `-n 0` in the posargs runs them in one process."""
    parallel = session.name in XDIST_LANES and not any(a.startswith("-n") for a in session.posargs)
    workers = ["-n", str(os.cpu_count() or 1)] if parallel else []
    args = ["--strict-markers", "-p", "no:cacheprovider", *workers, "-m", marker, *paths, *session.posargs]
    session.run("python", "-m", "pytest", *args)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff, import-linter, the shrink-only ratchet, code ownership, the twins' constant spelling, and the
    tools' own tests."""
    session.install("ruff>=0.6", "import-linter>=2.1", *TEST_REQS)
    session.run("ruff", "check", ".")
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT / "platform" / "src"), str(ROOT / "library" / "src")])}
    session.run("lint-imports", env=env)
    session.run("python", "tools/ratchet.py", "check")
    session.run("python", "tools/owners.py", "check")
    session.run("python", "tools/cpp_constants.py", "check")
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", "tools/tests", *session.posargs, env=env)


@nox.session
def install(session: nox.Session) -> None:
    """The README verbatim: its install commands in a fresh venv, then each `rocke` command it shows
    (tools/readme.py reads them from README.md), in a copy of the checkout at a fixed path.

    The copy keeps the in-tree CMake build dirs its previous run left (`pip install ./platform`
    builds in `platform/build/cmake`, as in a developer's checkout), so a rerun rebuilds only
    what changed; the venv and every source file are fresh each time.
    """
    checkout = WORK / "readme" / "checkout"
    checkout.mkdir(parents=True, exist_ok=True)
    for stale in checkout.iterdir():
        if stale.name not in ("platform", "library"):
            shutil.rmtree(stale) if stale.is_dir() and not stale.is_symlink() else stale.unlink()
    for package in ("platform", "library"):
        dest = checkout / package
        if dest.is_dir():
            for child in dest.iterdir():
                if child.name != "build":
                    shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        shutil.copytree(ROOT / package, dest, ignore=shutil.ignore_patterns(*SKIP_NAMES), dirs_exist_ok=True)
    shutil.copy2(ROOT / "README.md", checkout / "README.md")
    session.run("python", "tools/readme.py", "run", "--checkout", str(checkout))


@nox.session
def platform(session: nox.Session) -> None:
    """platform/ alone (no library/ beside it): wheel build, fresh venv, platform's tests."""
    install_stack(session, library=False)
    alone = _isolated_copy("platform")
    session.chdir(alone.parent)
    session.run("python", "-c", "import importlib.util as u, sys; sys.exit(u.find_spec('rocke_library') is not None)")
    pytest(session, "platform/tests", marker=UNMARKED)


@nox.session
def library(session: nox.Session) -> None:
    """platform then library wheels; library's tests."""
    install_stack(session)
    pytest(session, "library/tests", marker=UNMARKED)


def _ensure_lld(session: nox.Session) -> None:
    """HSACO links need ld.lld (Debian lld-19); install it when we can, else those tests skip visibly."""
    if shutil.which("ld.lld") or shutil.which("ld.lld-19"):
        return
    if shutil.which("apt-get") and os.geteuid() == 0:
        session.run("bash", "-c", "apt-get update -qq && apt-get install -y -qq lld-19 >/dev/null",
                    external=True, success_codes=[0, 1, 100])
    if not (shutil.which("ld.lld") or shutil.which("ld.lld-19")):
        session.warn("ld.lld not available: HSACO link tests will be skipped (install Debian package lld-19)")


def _ensure_ptxas(session: nox.Session) -> None:
    """The NVIDIA tests need ptxas (the nvidia-cuda-nvcc-cu12 wheel); install it, else they skip visibly."""
    session.install("nvidia-cuda-nvcc-cu12", success_codes=[0, 1])
    found = session.run("python", "-c", "from rocke.isa import find_ptxas; print(find_ptxas() or '')",
                        silent=True)
    if not (found or "").strip():
        session.warn("ptxas not available: NVIDIA tests will be skipped (pip install nvidia-cuda-nvcc-cu12)")


def _marker_lane(session: nox.Session, marker: str, llvmlite: str = LLVM22, gate: str | None = None) -> None:
    """The lane's marked tests, then (if any) its gate over every registered family's configs."""
    install_stack(session, llvmlite=llvmlite)
    if marker.startswith("validity"):
        _ensure_lld(session)
        _ensure_ptxas(session)
    pytest(session, "platform/tests", "library/tests", marker=marker)
    if gate:
        session.run("rocke", "check", gate, "--jobs", str(os.cpu_count() or 1))


@nox.session
def parity(session: nox.Session) -> None:
    """Python engine == C++ engine, byte for byte."""
    _marker_lane(session, "parity", gate="parity")
    # The C++ parser, verifier, lowerer, config reader and spec parsers see untrusted text: fuzz them,
    # and run every family builder twin (platform's and library's), under ASan+UBSan.
    session.run("python", "platform/tools/sanitize_fuzz.py", "--build-dir", str(WORK / "sanitize"),
                "--project", "library")


@nox.session
def golden(session: nox.Session) -> None:
    """Strict golden store checks."""
    _marker_lane(session, "golden", gate="golden")


@nox.session
def validity(session: nox.Session) -> None:
    """Everything through the real LLVM 22 (llvmlite 0.48-0.50)."""
    _marker_lane(session, "validity", gate="validity")


@nox.session
def validity_llvm20(session: nox.Session) -> None:
    """The llvm20 flavor through the real LLVM 20 (llvmlite 0.45-0.47), in its own environment."""
    _marker_lane(session, "validity_llvm20", llvmlite=LLVM20, gate="validity")


@nox.session
def numeric(session: nox.Session) -> None:
    """Simulator numerics against independent numpy references, with negative controls."""
    _marker_lane(session, "numeric")


@nox.session
def bench(session: nox.Session) -> None:
    """Performance figures (not pass/fail on absolute times)."""
    install_stack(session)
    _ensure_lld(session)
    out = WORK / "bench.json"
    session.run("rocke", "bench", "--json", str(out), *session.posargs)


_FIRST_GPU_CONFIGS = """
from rocke.families import discover_families
from rocke.families.configs import family_configs
for family in discover_families():
    lines = [i for i, c in enumerate(family_configs(family)) if c.arch == "sm_90" and not c.refuse]
    if lines:
        print(family.name, lines[0])
"""


def _first_gpu_configs(session: nox.Session) -> list[tuple[str, str]]:
    """(family, config number of its first sm_90 line that builds) of every registered family."""
    out = session.run("python", "-c", _FIRST_GPU_CONFIGS, silent=True) or ""
    return [tuple(line.split()) for line in out.splitlines() if line.strip()]  # type: ignore[misc]


@nox.session
def gpu(session: nox.Session) -> None:
    """GPU machine only (never in CI): every family's sm_90 numeric tests on the GPU against the
    float64 references and, on identical inputs, the simulator (report: .nox/_rocke/gpu_report.json);
    then compute-sanitizer memcheck, racecheck and synccheck over one config of every family."""
    install_stack(session)
    session.install("cuda-bindings>=12.6.1", "nvidia-cuda-nvcc-cu12")
    report = WORK / "gpu_report.json"
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", "-m", "numeric", "-k", "sm_90",
                "--launch-on=gpu", f"--gpu-report={report}", "platform/tests/families", "library/tests/kernels",
                *session.posargs)
    for family, config in _first_gpu_configs(session):
        session.run("rocke", "run", family, "--config", config)  # compiles into the cache first
        for tool in ("memcheck", "racecheck", "synccheck"):
            session.run("compute-sanitizer", "--tool", tool, "--error-exitcode", "1", "rocke", "run", family,
                        "--config", config, external=True)


@nox.session
def gpu_bench(session: nox.Session) -> None:
    """GPU machine only (never in CI): rocKE against cuBLAS, FlashAttention-2, cuDNN and the copy
    bandwidth in one process (rocke_library.dispatch.gpu_bench; JSON: .nox/_rocke/gpu_bench.json)."""
    install_stack(session)
    session.install("cuda-bindings>=12.6.1", "nvidia-cuda-nvcc-cu12", "torch")
    session.run("python", "-m", "rocke_library.dispatch.gpu_bench", "--out", str(WORK / "gpu_bench.json"),
                *session.posargs)


@nox.session
def demo(session: nox.Session) -> None:
    """The main job: build both packages and run the showcase."""
    install_stack(session)
    session.run("rocke", "demo", *session.posargs)
