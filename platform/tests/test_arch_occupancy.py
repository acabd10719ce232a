"""Occupancy and LDS fit, against expectations computed by hand from the documented rules."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rocke.arch import ARCH_NAMES, fits_lds, get_arch, occupancy

# (arch, vgprs, agprs, sgprs, lds_bytes, workgroup_size, expected waves per SIMD, how)
CASES = [
    ("gfx942", 100, 0, 16, 0, 256, 4, "100 VGPRs -> 104 (granule 8); 512 // 104 = 4"),
    ("gfx942", 100, 30, 16, 0, 256, 3, "unified: align(100, 4) + 30 = 130 -> 136; 512 // 136 = 3"),
    ("gfx942", 121, 7, 16, 0, 256, 3, "align(121, 4) = 124, + 7 = 131 -> 136 -> 3 (unaligned 128 would give 4)"),
    ("gfx942", 10, 0, 106, 0, 256, 7, "VGPRs allow 8; 106 SGPRs is past 100 -> the 7-wave step"),
    ("gfx942", 10, 0, 100, 0, 256, 8, "100 SGPRs -> the 8-wave step; max waves 8"),
    ("gfx942", 10, 0, 113, 0, 256, 0, "113 SGPRs exceed sgpr_count_max 112"),
    ("gfx942", 257, 0, 16, 0, 64, 0, "more than 256 arch VGPRs"),
    ("gfx942", 10, 257, 16, 0, 64, 0, "more than 256 AGPRs"),
    ("gfx942", 64, 0, 16, 32768, 256, 2, "65536 // 32768 = 2 workgroups of 4 waves = 8 waves over 4 SIMDs"),
    ("gfx942", 64, 0, 16, 65537, 256, 0, "LDS above the 64 KiB a workgroup may allocate"),
    ("gfx942", 32, 0, 16, 40000, 64, 1, "one single-wave workgroup fits the LDS: 1 wave on the busiest SIMD"),
    ("gfx942", 32, 0, 16, 0, 64, 8, "single-wave workgroups: 32 slots, no barrier limit -> 8"),
    ("gfx942", 64, 0, 16, 0, 192, 8, "3-wave workgroups: 32 // 3 = 10 of them, 30 waves -> ceil(30 / 4) = 8"),
    ("gfx942", 96, 0, 16, 0, 512, 4, "5 waves/SIMD by VGPRs = 20 slots; 8-wave workgroups: 2 fit -> 16 waves -> 4"),
    ("gfx942", 32, 0, 16, 0, 1025, 0, "workgroup larger than 1024"),
    ("gfx950", 64, 64, 20, 163840, 256, 1, "all 160 KiB of LDS: one 4-wave workgroup -> 1 wave per SIMD"),
    ("gfx950", 64, 64, 20, 163841, 256, 0, "LDS above 160 KiB"),
    ("gfx950", 128, 128, 20, 0, 512, 2, "256 unified registers -> 2 waves; 8 slots hold one 8-wave workgroup"),
    ("gfx1100", 100, 0, 10, 0, 256, 12, "100 -> 120 (granule 24); 1536 // 120 = 12; 48 slots hold 6 x 8 waves"),
    ("gfx1100", 66, 0, 10, 16384, 256, 16, "66 -> 72 -> 21, capped at 16; LDS 131072 // 16384 = 8 workgroups"),
    ("gfx1100", 192, 0, 10, 0, 1024, 8, "192 -> 8 waves; 32 slots hold one 32-wave workgroup"),
    ("gfx1100", 256, 0, 100, 65536, 1024, 0, "256 -> 264 -> 5 waves; 20 slots cannot hold a 32-wave workgroup"),
    ("gfx1100", 16, 0, 108, 0, 32, 16, "SGPRs do not limit on gfx11; 108 is the most a wave can hold"),
    ("gfx1100", 16, 0, 109, 0, 32, 0, "109 SGPRs exceed sgpr_count_max 108"),
    ("gfx1100", 16, 1, 20, 0, 32, 0, "RDNA has no AGPRs"),
    ("gfx1201", 201, 0, 90, 40000, 128, 3, "201 -> 216 -> 7; LDS 131072 // 40000 = 3 workgroups x 4 waves -> 3"),
    ("gfx1201", 24, 0, 10, 0, 1024, 16, "24 -> 64 capped at 16; 64 slots hold two 32-wave workgroups"),
    ("gfx1201", 0, 0, 0, 0, 1, 16, "an empty kernel still allocates one granule"),
]


@pytest.mark.parametrize(("arch", "vgprs", "agprs", "sgprs", "lds", "wg", "expected", "how"), CASES)
def test_hand_computed(arch: str, vgprs: int, agprs: int, sgprs: int, lds: int, wg: int, expected: int,
                       how: str) -> None:
    got = occupancy(arch, vgprs=vgprs, agprs=agprs, sgprs=sgprs, lds_bytes=lds, workgroup_size=wg)
    assert got == expected, how


def test_barrier_limit_applies_to_multi_wave_workgroups_only() -> None:
    few_barriers = dataclasses.replace(get_arch("gfx942"), max_workgroups_per_cu=4)
    # 2-wave workgroups: 32 slots would hold 16, the barrier limit allows 4 -> 8 waves -> 2 per SIMD.
    assert occupancy(few_barriers, vgprs=32, sgprs=16, lds_bytes=0, workgroup_size=128) == 2
    # Single-wave workgroups use no barrier.
    assert occupancy(few_barriers, vgprs=32, sgprs=16, lds_bytes=0, workgroup_size=64) == 8


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vgprs": -1}, "occupancy: vgprs must be a non-negative int"),
        ({"agprs": True}, "occupancy: agprs must be a non-negative int"),
        ({"sgprs": 1.0}, "occupancy: sgprs must be a non-negative int"),
        ({"lds_bytes": -5}, "occupancy: lds_bytes must be a non-negative int"),
        ({"workgroup_size": 0}, "occupancy: workgroup_size must be at least 1"),
    ],
)
def test_argument_errors(kwargs: dict, message: str) -> None:
    args = {"vgprs": 32, "agprs": 0, "sgprs": 16, "lds_bytes": 0, "workgroup_size": 64} | kwargs
    with pytest.raises(ValueError) as info:
        occupancy("gfx942", **args)
    assert str(info.value) == message


def test_unknown_arch() -> None:
    with pytest.raises(KeyError):
        occupancy("gfx90a", vgprs=1, sgprs=1, lds_bytes=0, workgroup_size=64)


@pytest.mark.parametrize(
    ("arch", "nbytes", "fits"),
    [
        ("gfx942", 0, True),
        ("gfx942", 65536, True),
        ("gfx942", 65537, False),
        ("gfx950", 163840, True),
        ("gfx950", 163841, False),
        ("gfx1100", 65536, True),
        ("gfx1100", 65537, False),  # a WGP pools 128 KiB, one workgroup still gets at most 64 KiB
        ("gfx1201", 131072, False),
    ],
)
def test_fits_lds(arch: str, nbytes: int, fits: bool) -> None:
    assert fits_lds(arch, nbytes) is fits
    assert fits_lds(get_arch(arch), nbytes) is fits


def test_fits_lds_errors() -> None:
    with pytest.raises(ValueError, match=r"^fits_lds: nbytes must be a non-negative int$"):
        fits_lds("gfx942", -1)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(ARCH_NAMES),
    st.integers(0, 300),
    st.integers(0, 300),
    st.integers(0, 120),
    st.integers(0, 170000),
    st.integers(1, 1100),
    st.integers(1, 64),
)
def test_properties(arch: str, vgprs: int, agprs: int, sgprs: int, lds: int, wg: int, more: int) -> None:
    target = get_arch(arch)
    base = occupancy(arch, vgprs=vgprs, agprs=agprs, sgprs=sgprs, lds_bytes=lds, workgroup_size=wg)
    assert 0 <= base <= target.max_waves_per_simd
    # More of any resource never raises occupancy.
    assert occupancy(arch, vgprs=vgprs + more, agprs=agprs, sgprs=sgprs, lds_bytes=lds, workgroup_size=wg) <= base
    assert occupancy(arch, vgprs=vgprs, agprs=agprs + more, sgprs=sgprs, lds_bytes=lds, workgroup_size=wg) <= base
    assert occupancy(arch, vgprs=vgprs, agprs=agprs, sgprs=sgprs + more, lds_bytes=lds, workgroup_size=wg) <= base
    assert occupancy(arch, vgprs=vgprs, agprs=agprs, sgprs=sgprs, lds_bytes=lds + more, workgroup_size=wg) <= base
    if base > 0:
        # At least one whole workgroup is resident, and its LDS fits.
        assert base * target.simds_per_cu >= -(-wg // target.wave_size)
        assert fits_lds(arch, lds)
