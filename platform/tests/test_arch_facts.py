"""rocke.arch facts: lookup, errors, completeness of every fact and its source, data checks."""

from __future__ import annotations

import dataclasses

import pytest

from rocke.arch import (
    ARCH_NAMES,
    FACT_NAMES,
    FEATURE_NAMES,
    MMA_OPS,
    ArchDataError,
    ArchTarget,
    UnknownArchError,
    UnknownFeatureError,
    arch_data,
    fact_source,
    feature_info,
    get_arch,
    parse_arch_data,
    resolve_arch,
)
from rocke.arch.datafile import read_data_text

ARCHS_TEXT = read_data_text("archs.toml")


def test_arch_names_in_data_file_order() -> None:
    assert ARCH_NAMES == ("gfx942", "gfx950", "gfx1100", "gfx1201", "sm_90")
    assert tuple(get_arch(name).name for name in ARCH_NAMES) == ARCH_NAMES


@pytest.mark.parametrize("bad", ["gfx90a", "", "GFX942", "gfx942 "])
def test_unknown_arch_error(bad: str) -> None:
    with pytest.raises(UnknownArchError) as info:
        get_arch(bad)
    assert str(info.value) == f"unknown arch '{bad}'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90"
    assert isinstance(info.value, KeyError)
    assert isinstance(info.value, ValueError)


def test_unknown_arch_error_for_non_string() -> None:
    with pytest.raises(UnknownArchError) as info:
        get_arch(942)  # type: ignore[arg-type]
    assert str(info.value) == "unknown arch of a non-string name; known: gfx942, gfx950, gfx1100, gfx1201, sm_90"


def test_every_fact_present_for_every_arch_with_its_source() -> None:
    assert FACT_NAMES == tuple(f.name for f in dataclasses.fields(ArchTarget))
    assert tuple(name for name, _ in arch_data().fact_sources) == FACT_NAMES
    for name in ARCH_NAMES:
        arch = get_arch(name)
        for fact in FACT_NAMES:
            value = getattr(arch, fact)
            assert value is not None
            if isinstance(value, str):
                assert value, (name, fact)
            assert len(arch.source(fact)) > 20, (name, fact)
            assert arch.source(fact) == fact_source(fact)


@pytest.mark.parametrize("fact", FACT_NAMES)
def test_loader_refuses_an_arch_missing_any_fact(fact: str) -> None:
    lines = ARCHS_TEXT.split("\n")
    start = lines.index('name = "gfx1100"') - 1  # the [[arch]] header line
    assert lines[start] == "[[arch]]"
    end = lines.index("[[arch]]", start + 1)
    block = "\n".join(lines[start:end])
    key_line = next(line for line in block.split("\n") if line.startswith(f"{fact} = "))
    if key_line.endswith("["):  # a multi-line array: drop it through its closing bracket
        first = block.index(key_line)
        last = block.index("\n]", first) + 2
        trimmed = block[:first] + block[last:]
    else:
        trimmed = block.replace(key_line + "\n", "", 1)
    text = ARCHS_TEXT.replace(block, trimmed)
    with pytest.raises(ArchDataError) as info:
        parse_arch_data(text)
    label = "gfx1100" if fact != "name" else "2"
    assert str(info.value) == f"archs.toml: arch '{label}': '{fact}' is missing"


def test_loader_refuses_a_fact_without_source() -> None:
    text = ARCHS_TEXT.replace('[[fact]]\nname = "wave_size"\nsource = ', '[[fact]]\nname = "wave_size"\nsrc = ', 1)
    with pytest.raises(ArchDataError) as info:
        parse_arch_data(text)
    assert str(info.value) == "archs.toml: fact[4]: 'source' is missing"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('format = "rocke.arch/1"', 'format = "rocke.arch/2"', "archs.toml: format must be 'rocke.arch/1'"),
        ("wave_size = 64\nmax_workgroup_size = 1024\nlds_bytes = 65536",
         "wave_size = true\nmax_workgroup_size = 1024\nlds_bytes = 65536",
         "archs.toml: arch 'gfx942': fact 'wave_size': expected a non-negative integer"),
        ('generation = "cdna3"', 'generation = "cdna9"',
         "archs.toml: arch 'gfx942': fact 'generation': expected one of cdna3, cdna4, rdna3, rdna4, hopper"),
        ('name = "gfx950"\ngeneration', 'name = "gfx942"\ngeneration', "archs.toml: arch: 'gfx942' appears twice"),
        ('features = [\n  "mfma",\n  "packed_fp32",', 'features = [\n  "packed_fp32",\n  "mfma",',
         "archs.toml: arch 'gfx942': fact 'features': list features in [[feature]] order"),
        ('features = [\n  "wmma",', 'features = [\n  "wmma",\n  "tensor_cores",',
         "archs.toml: arch 'gfx1100': fact 'features': undeclared feature 'tensor_cores'"),
        ("sgpr_count_max = 112", "sgpr_count_max = 112\nsgpr_limit = 3",
         "archs.toml: arch 'gfx942': unknown key 'sgpr_limit'"),
        ("{ max_sgprs = 112, waves = 7 },", "{ max_sgprs = 110, waves = 7 },",
         "archs.toml: arch 'gfx942': the last sgpr_occupancy step must end at sgpr_count_max"),
        ("{ max_sgprs = 88, waves = 9 },", "{ max_sgprs = 70, waves = 9 },",
         "archs.toml: arch 'gfx942': fact 'sgpr_occupancy': max_sgprs must be ascending"),
        ("agprs_per_wave = 0\nunified_vgpr_file = false", "agprs_per_wave = 0\nunified_vgpr_file = true",
         "archs.toml: arch 'gfx1100': unified_vgpr_file, agprs_per_wave and accum_offset_granule disagree"),
        ("buffer_rsrc_word3 = 0x00027000", "buffer_rsrc_word3 = -1",
         "archs.toml: arch 'gfx942': fact 'buffer_rsrc_word3': expected a non-negative integer"),
        ("[[fact]]\nname = \"llvm_cpu\"", "[[fact]]\nname = \"cpu\"",
         "archs.toml: [[fact]] must list exactly these facts in order: " + ", ".join(FACT_NAMES)),
        ("wave_size = 32\nmax_workgroup_size = 1024\nlds_bytes = 65536\nlds_bytes_per_cu = 131072",
         "wave_size = 16\nmax_workgroup_size = 1024\nlds_bytes = 65536\nlds_bytes_per_cu = 131072",
         "archs.toml: arch 'gfx1100': wave_size must be 32 or 64"),
        ("buffer_rsrc_word3 = 0x31027000", "buffer_rsrc_word3 = 0x131027000",
         "archs.toml: arch 'gfx1100': buffer_rsrc_word3 must fit in 32 bits"),
        ("[[arch]]\nname = \"gfx942\"", "[[arch]\nname = \"gfx942\"", None),
    ],
)
def test_loader_error_messages(old: str, new: str, message: str | None) -> None:
    assert old in ARCHS_TEXT
    with pytest.raises(ArchDataError) as info:
        parse_arch_data(ARCHS_TEXT.replace(old, new, 1))
    if message is None:
        assert str(info.value).startswith("archs.toml: not valid TOML: ")
    else:
        assert str(info.value) == message


def test_packaged_data_round_trips_through_the_loader() -> None:
    assert parse_arch_data(ARCHS_TEXT) == arch_data()


SPOT_CHECKS = {
    # name: (generation, wave, lds/wg, lds/cu, max waves, vgpr file, granule, agprs, word3, mma, waitcnt model)
    "gfx942": ("cdna3", 64, 65536, 65536, 8, 512, 8, 256, 0x00027000, "mfma", "vmcnt_lgkmcnt"),
    "gfx950": ("cdna4", 64, 163840, 163840, 8, 512, 8, 256, 0x00027000, "mfma", "vmcnt_lgkmcnt"),
    "gfx1100": ("rdna3", 32, 65536, 131072, 16, 1536, 24, 0, 0x31027000, "wmma", "vmcnt_lgkmcnt_vscnt"),
    "gfx1201": ("rdna4", 32, 65536, 131072, 16, 1536, 24, 0, 0x31027000, "wmma", "split_counters"),
    # sm_90: 227 KiB per block, 228 KiB per SM, 16 warps per sub-partition, 16384 registers per
    # sub-partition (512 per lane of a warp) allocated 8 per thread (256 per warp).
    "sm_90": ("hopper", 32, 232448, 233472, 16, 512, 8, 0, 0, "mma_sync", "none"),
}
AMD_ARCHS = tuple(name for name in ARCH_NAMES if get_arch(name).vendor_target.vendor == "amd")


@pytest.mark.parametrize("name", ARCH_NAMES)
def test_spot_check_values(name: str) -> None:
    a = get_arch(name)
    got = (a.generation, a.wave_size, a.lds_bytes, a.lds_bytes_per_cu, a.max_waves_per_simd, a.vgpr_file_per_simd,
           a.vgpr_alloc_granule, a.agprs_per_wave, a.buffer_rsrc_word3, a.mma_kind, a.waitcnt_model)
    assert got == SPOT_CHECKS[name]
    assert a.llvm_cpu == name
    assert a.max_workgroup_size == 1024
    assert a.arch_vgprs_per_wave == (256 if name in AMD_ARCHS else 255)


def test_waitcnt_counters() -> None:
    assert dict(get_arch("gfx942").waitcnt_counters) == {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 15}
    assert dict(get_arch("gfx1100").waitcnt_counters) == {"vmcnt": 63, "expcnt": 7, "lgkmcnt": 63, "vscnt": 63}
    assert [c for c, _ in get_arch("gfx1201").waitcnt_counters] == [
        "loadcnt", "storecnt", "samplecnt", "bvhcnt", "dscnt", "kmcnt", "expcnt"]
    assert dict(get_arch("gfx1201").waitcnt_counters)["kmcnt"] == 31


def test_buffer_word3_bits() -> None:
    # Nonzero data and num formats everywhere; RDNA adds bit 24 and OOB_SELECT = 3 (bits 28-29).
    for name in AMD_ARCHS:
        word3 = get_arch(name).buffer_rsrc_word3
        assert word3 & 0x7F000 == 0x27000
        rdna = get_arch(name).generation.startswith("rdna")
        assert (word3 >> 24 & 1, word3 >> 28 & 3) == ((1, 3) if rdna else (0, 0))


def test_has_feature() -> None:
    assert get_arch("gfx942").has_feature("mfma")
    assert not get_arch("gfx942").has_feature("wmma")
    assert get_arch("gfx1201").has_feature("global_atomic_pk_add_bf16")
    assert not get_arch("gfx1100").has_feature("global_atomic_pk_add_bf16")
    assert get_arch("gfx950").has_feature("cvt_pk_bf16_f32")
    assert not get_arch("gfx942").has_feature("cvt_pk_bf16_f32")
    for name in ARCH_NAMES:
        for feature in ("ds_bpermute", "ds_swizzle", "global_atomic_fadd_f32", "readfirstlane"):
            assert get_arch(name).has_feature(feature)


def test_unknown_feature_is_an_error_not_false() -> None:
    with pytest.raises(UnknownFeatureError) as info:
        get_arch("gfx942").has_feature("mfmaa")
    assert str(info.value) == f"unknown feature 'mfmaa'; known: {', '.join(FEATURE_NAMES)}"
    assert isinstance(info.value, KeyError) and isinstance(info.value, ValueError)


def test_feature_declarations() -> None:
    for feature in FEATURE_NAMES:
        description, source = feature_info(feature)
        assert description and source
    used = {f for name in ARCH_NAMES for f in get_arch(name).features}
    assert used == set(FEATURE_NAMES), "every declared feature is held by some arch"


@pytest.mark.parametrize("name", ARCH_NAMES)
def test_mma_kind_matches_features_and_catalog(name: str) -> None:
    arch = get_arch(name)
    assert arch.has_feature(arch.mma_kind)
    assert not arch.has_feature("wmma" if arch.mma_kind == "mfma" else "mfma")
    kinds = {op.kind for op in MMA_OPS if name in op.archs}
    assert kinds == {arch.mma_kind}


def test_register_budget_consistency() -> None:
    for name in ARCH_NAMES:
        a = get_arch(name)
        assert a.vgpr_file_per_simd % a.vgpr_alloc_granule == 0
        assert a.arch_vgprs_per_wave + a.agprs_per_wave <= a.vgpr_file_per_simd
        assert a.sgprs_per_wave < a.sgpr_count_max or (a.sgprs_per_wave, a.sgpr_count_max) == (0, 0)
        assert a.lds_bytes <= a.lds_bytes_per_cu
        waves = [w for _, w in a.sgpr_occupancy]
        assert waves == sorted(waves, reverse=True)


def test_arch_target_is_frozen_and_hashable() -> None:
    arch = get_arch("gfx942")
    with pytest.raises(dataclasses.FrozenInstanceError):
        arch.wave_size = 32  # type: ignore[misc]
    assert hash(arch) == hash(get_arch("gfx942"))
    assert resolve_arch(arch) is arch
    assert resolve_arch("gfx950") is get_arch("gfx950")


def test_fact_source_unknown() -> None:
    with pytest.raises(ValueError) as info:
        fact_source("clock_mhz")
    assert str(info.value) == f"unknown fact 'clock_mhz'; known: {', '.join(FACT_NAMES)}"


def test_mma_signature_protocol() -> None:
    from rocke.ir.types import parse_type

    gfx942 = get_arch("gfx942")
    assert gfx942.mma_signature("mfma_f32_32x32x8_bf16") == (
        parse_type("vec<bf16x4>"), parse_type("vec<bf16x4>"), parse_type("vec<f32x16>"))
    assert get_arch("gfx950").mma_signature("mfma_f32_16x16x32_bf16") == (
        parse_type("vec<bf16x8>"), parse_type("vec<bf16x8>"), parse_type("vec<f32x4>"))
    assert get_arch("gfx1100").mma_signature("wmma_f32_16x16x16_f16_gfx11") == (
        parse_type("vec<f16x16>"), parse_type("vec<f16x16>"), parse_type("vec<f32x8>"))
    assert get_arch("gfx1201").mma_signature("wmma_f32_16x16x16_bf16_gfx12") == (
        parse_type("vec<bf16x8>"), parse_type("vec<bf16x8>"), parse_type("vec<f32x8>"))
    assert gfx942.mma_signature("mfma_f32_16x16x32_f16") is None  # gfx950 only
    assert gfx942.mma_signature("wmma_f32_16x16x16_f16_gfx11") is None
    assert gfx942.mma_signature("no_such_op") is None
