"""tools/readme.py reads the README's own commands (so the install lane runs what the README says)
and refuses a README it cannot read rather than checking nothing."""

from pathlib import Path

import pytest
import readme

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_install_commands_are_the_readme_block():
    commands = readme.install_commands(README)
    assert "pip install ./platform" in commands and "pip install ./library" in commands
    assert commands.index("pip install ./platform") < commands.index("pip install ./library")
    assert commands[0].startswith("python3 -m venv .venv")  # a fresh venv, activated by the block itself


def test_rocke_commands_are_every_code_line_of_the_section():
    commands = readme.rocke_commands(README)
    assert commands[0].startswith("rocke families")
    assert len(commands) >= 5 and all(c.startswith("rocke ") for c in commands)
    assert sum(c.startswith("rocke check ") for c in commands) == 3  # parity, golden and validity


def test_the_product_path_builds_a_catalog_and_serves_it_from_a_cpp_host():
    commands = readme.rocke_commands(README)
    catalog = [c for c in commands if c.startswith("rocke catalog build --problems ")]
    assert len(catalog) == 1 and "--out catalog" in catalog[0]
    corpus = catalog[0].split()[4]
    assert (ROOT / corpus).is_file()  # the commands run in the checkout's root
    host = readme.host_commands(README)
    assert host[0] == "pip install cmake ninja"
    assert any(c.startswith("cmake -S library/examples/host -B host-build ") for c in host)
    served = [c for c in host if c.startswith("host-build/rocke_serve_example catalog ")]
    assert {c.split()[3] for c in served} == {"gfx942", "gfx1100"}  # the archs of the corpus


def test_missing_or_empty_section_or_stray_line_is_an_error():
    with pytest.raises(readme.ReadmeError, match="has no section '## Install'"):
        readme.install_commands("# rocKE\n\n## Other\n\n    pip install x\n")
    with pytest.raises(readme.ReadmeError, match="has no command lines"):
        readme.install_commands("## Install\n\nprose only\n\n## Next\n\n    pip install ./platform\n")
    with pytest.raises(readme.ReadmeError, match="not a rocke command: ls -l"):
        readme.rocke_commands("## The `rocke` command\n\n    rocke families\n    ls -l\n")


def test_section_ends_at_the_next_heading():
    text = "## Install\n\n    pip install ./platform\n\n## Later\n\n    pip install other\n"
    assert readme.install_commands(text) == ["pip install ./platform"]


def test_families_table_is_parsed_and_its_count_checked():
    table = ("family                   owner            configs refusals\n"
             "elementwise              rocke                 30        4\n"
             "img2col                  rocke-library         12        2\n"
             "2 families\n")
    assert readme.listed_families(table) == ["elementwise", "img2col"]
    with pytest.raises(readme.ReadmeError, match="counts 3 families but lists 2"):
        readme.listed_families(table.replace("2 families", "3 families"))
    with pytest.raises(readme.ReadmeError, match="unexpected"):
        readme.listed_families("Traceback (most recent call last):\n")


def test_golden_families_reads_both_golden_layouts(tmp_path: Path):
    (tmp_path / "platform/src/rocke/families/goldens").mkdir(parents=True)
    (tmp_path / "platform/src/rocke/families/goldens/gemm.json").write_text("{}")
    (tmp_path / "library/src/rocke_library/kernels/conv/img2col").mkdir(parents=True)
    (tmp_path / "library/src/rocke_library/kernels/conv/img2col/img2col.golden.json").write_text("{}")
    (tmp_path / "library/src/rocke_library/kernels/conv/img2col/other.json").write_text("{}")
    assert readme.golden_families(tmp_path) == ["gemm", "img2col"]


def test_the_checkout_goldens_are_the_registered_families_of_main():
    assert {"elementwise", "gemm"} <= set(readme.golden_families(ROOT))


def test_clean_env_drops_the_callers_venv_and_build_overrides(monkeypatch, tmp_path: Path):
    caller, venv_bin = tmp_path / "caller-venv", tmp_path / "venv" / "bin"
    monkeypatch.setattr(readme.sys, "prefix", str(caller))
    monkeypatch.setattr(readme.sys, "base_prefix", "/usr")
    monkeypatch.setenv("PATH", f"{caller / 'bin'}:{venv_bin}:/usr/bin")
    monkeypatch.setenv("VIRTUAL_ENV", str(caller))
    monkeypatch.setenv("ROCKE_CMAKE_BUILD_DIR", "/elsewhere")
    env = readme.clean_env()
    assert env["PATH"] == f"{venv_bin}:/usr/bin"
    assert "VIRTUAL_ENV" not in env and "ROCKE_CMAKE_BUILD_DIR" not in env
    assert readme.clean_env(venv_bin)["PATH"] == "/usr/bin"
    monkeypatch.setattr(readme.sys, "base_prefix", str(caller))  # not in a venv: PATH is the user's
    assert readme.clean_env()["PATH"] == f"{caller / 'bin'}:{venv_bin}:/usr/bin"
