"""Library installs on top of platform: same version, its engine links rocke::core, discovery works."""

import rocke_engine
import rocke_library_engine

import rocke
import rocke_library
from rocke.families import providers


def test_versions_agree():
    assert rocke_library.__version__ == rocke.__version__
    assert rocke_library_engine.version() == rocke_library.__version__


def test_library_engine_links_the_installed_core():
    assert rocke_library_engine.platform_version() == rocke_engine.version()


def test_platform_discovers_library_through_entry_points():
    assert {"rocke", "rocke_library"} <= set(providers())


def test_every_cpp_file_sits_in_its_python_twins_package_folder():
    from pathlib import Path

    from rocke.gates.conformance import cpp_layout_problems

    assert cpp_layout_problems(Path(__file__).resolve().parents[1] / "cpp", "rocke_library") == []
