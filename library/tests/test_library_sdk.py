"""The library wheel's C++ SDK: headers, librocke_library.a and the CMake package
(find_package(rocke_library CONFIG) -> rocke_library::library, which brings rocke::core), and the
example host of library/examples/host built against the installed wheels only: it builds a conv
kernel from a spec string, lowers it and writes the .ll and the launch template, byte for byte
what the Python engine writes."""

from __future__ import annotations

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
