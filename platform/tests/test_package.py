"""The installed platform package: version, native SDK, `python -m rocke --cmake-dir`."""

import subprocess
import sys

import rocke_engine

import rocke


def test_version_is_semantic():
    parts = rocke.__version__.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts)


def test_engine_is_the_compiled_extension():
    assert rocke_engine.__file__.endswith(".so")
    assert rocke_engine.build_id().startswith(f"rocke {rocke.__version__} ")


def test_cmake_dir_holds_the_config_package():
    path = rocke.cmake_dir()
    assert (path / "rockeConfig.cmake").is_file()
    assert (path / "rockeTargets.cmake").is_file()
    assert (rocke.native_dir() / "lib" / "librocke_core.a").is_file()
    assert (rocke.native_dir() / "include" / "rocke" / "version.hpp").is_file()


def test_python_m_rocke_prints_cmake_dir():
    out = subprocess.run([sys.executable, "-m", "rocke", "--cmake-dir"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(rocke.cmake_dir())
