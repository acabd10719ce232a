"""The config loader: shipped files load; malformed lines are refused with their line number."""

from __future__ import annotations

import pytest

from rocke.arch import ARCH_NAMES
from rocke.families.configs import ConfigError, ConfigLine, canonical_kv, config_text, load_configs, parse_configs
from rocke.families.elementwise import ElementwiseSpec
from rocke.families.gemm import GemmSpec
from rocke.families.platform_families import provide

GOOD = "gfx942 block=256 dtype=f16 op=add vec=8"
BAD_KV = "x.cfg line 2: expected the elementwise spec as canonical key=value pairs"


def test_shipped_config_files_load_with_moderate_counts() -> None:
    counts = {family.name: len(load_configs(family.name)) for family in provide()}
    # Each arch's share stays moderate: about 10 elementwise and 16 gemm lines per arch.
    assert 30 <= counts["elementwise"] <= 10 * len(ARCH_NAMES)
    assert 40 <= counts["gemm"] <= 16 * len(ARCH_NAMES)
    for family in provide():
        text = config_text(family.name)
        assert "\r" not in text and text.endswith("\n") and text.isascii()


def test_parse_lines() -> None:
    text = f"# comment\n\n{GOOD}\nrefuse gfx1100 block=0 dtype=f16 op=add vec=8\n"
    assert parse_configs(text, ElementwiseSpec, "x.cfg") == [
        ConfigLine(3, "gfx942", "block=256 dtype=f16 op=add vec=8", False),
        ConfigLine(4, "gfx1100", "block=0 dtype=f16 op=add vec=8", True),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("gfx90a block=256 dtype=f16 op=add vec=8",
         "x.cfg line 2: unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90"),
        ("gfx942 dtype=f16 block=256 op=add vec=8",
         "x.cfg line 2: not canonical; write 'block=256 dtype=f16 op=add vec=8'"),
        ("refuse gfx942 dtype=f16 block=0 op=add vec=8",
         "x.cfg line 2: not canonical; write 'block=0 dtype=f16 op=add vec=8'"),
        ("gfx942 block=0256 dtype=f16 op=add vec=8",
         "x.cfg line 2: elementwise: block=0256: must be a decimal integer (mark the line 'refuse' if that is "
         "intended)"),
        ("refuse gfx942 block=-0 dtype=f16 op=add vec=8",
         BAD_KV),
        ("refuse gfx942 block=256 dtype=f16 op=add", BAD_KV),
        ("refuse gfx942 block=256 dtype=f16 op=add vec=8 vec=8",
         BAD_KV),
        ("gfx942 block=256 dtype=f16 op=add vec=8 ", "x.cfg line 2: leading or trailing spaces"),
        (" gfx942 block=256 dtype=f16 op=add vec=8", "x.cfg line 2: leading or trailing spaces"),
        ("gfx942  block=256 dtype=f16 op=add vec=8",
         "x.cfg line 2: elementwise: malformed pair '' (expected key=value) (mark the line 'refuse' if that is "
         "intended)"),
        ("gfx942\tblock=256 dtype=f16 op=add vec=8", "x.cfg line 2: carriage returns and tabs are not allowed"),
        ("gfx942 block=256 dtype=f16 op=add vec=8\r", "x.cfg line 2: carriage returns and tabs are not allowed"),
        ("gfx942", "x.cfg line 2: expected 'ARCH KV' or 'refuse ARCH KV'"),
        ("refuse gfx942", "x.cfg line 2: expected 'ARCH KV' or 'refuse ARCH KV'"),
        ("gfx942 block=256 dtype=f64 op=add vec=8",
         "x.cfg line 2: elementwise: dtype=f64: must be one of f16, bf16, f32 (mark the line 'refuse' if that is "
         "intended)"),
    ],
)
def test_bad_lines(line: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_configs(f"# header\n{line}\n", ElementwiseSpec, "x.cfg")
    assert str(info.value) == message


def test_canonical_kv() -> None:
    kv = ("a_dtype=f16 a_layout=row b_dtype=f16 b_layout=row bias=0 bk=32 bm=64 bn=64 c_dtype=f32 double_buffer=0 "
          "lds_pad=0 op_id=x wm=2 wn=2")
    assert canonical_kv(GemmSpec, kv) == kv  # parses by field types only: an unknown op_id is still canonical
    assert canonical_kv(GemmSpec, kv.replace("bias=0", "bias=2")) is None
    assert canonical_kv(GemmSpec, kv.replace("op_id=x", "op_id=x/y")) is None
    assert canonical_kv(GemmSpec, kv.replace("bk=32", "bk=+32")) is None


def test_unknown_platform_family() -> None:
    with pytest.raises(KeyError, match="unknown platform family 'conv'; known: elementwise, gemm"):
        load_configs("conv")
