"""ArchTarget: the facts rocKE needs about one GPU arch, read from data/archs.toml.

Each arch names its vendor target (data/targets.toml: triple, calling convention, toolchain).
Facts one vendor lacks hold that vendor's neutral value (no AGPRs, no SGPRs, no waitcnt counters on
NVIDIA), so every consumer reads one record."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rocke.arch.datafile import (
    check_keys,
    parse_toml,
    read_data_text,
    want_bool,
    want_choice,
    want_int,
    want_list,
    want_str,
    want_unique,
)
from rocke.arch.errors import ArchDataError, UnknownArchError, UnknownFeatureError
from rocke.arch.targets import TARGET_NAMES, Target, get_target
from rocke.ir.archlike import set_arch_resolver

ARCHS_FILE = "archs.toml"
ARCHS_FORMAT = "rocke.arch/1"

GENERATIONS = ("cdna3", "cdna4", "rdna3", "rdna4", "hopper")
COMPUTE_UNITS = ("cu", "wgp", "sm")
MMA_KINDS = ("mfma", "wmma", "mma_sync")
WAITCNT_MODELS = ("vmcnt_lgkmcnt", "vmcnt_lgkmcnt_vscnt", "split_counters", "none")


@dataclass(frozen=True)
class ArchTarget:
    """One target's facts; field order is the order of [[fact]] in archs.toml.

    Register counts are per wave in the arch's wave size; "per CU" means the block a
    workgroup's waves share (the CU on gfx9, the WGP on gfx10+ in WGP mode).
    """

    name: str
    generation: str
    llvm_cpu: str
    target: str  # the targets.toml row: triple, calling convention, address spaces, toolchain
    wave_size: int
    max_workgroup_size: int
    lds_bytes: int  # most LDS one workgroup may allocate
    lds_bytes_per_cu: int  # LDS shared by the workgroups resident on one CU/WGP
    lds_reserved_bytes: int  # LDS the system reserves per resident workgroup (NVIDIA: 1 KiB)
    compute_unit: str  # "cu" or "wgp"
    simds_per_cu: int
    max_waves_per_simd: int
    max_workgroups_per_cu: int  # barrier-using workgroups resident per CU/WGP
    cu_count: int  # CUs of the arch's largest part (CUs, also where compute_unit is the WGP)
    arch_vgprs_per_wave: int
    agprs_per_wave: int
    unified_vgpr_file: bool  # AGPRs allocated from the same file, after the arch VGPRs
    accum_offset_granule: int  # alignment of the first AGPR in a unified file; 0 = no AGPRs
    vgpr_file_per_simd: int
    vgpr_alloc_granule: int
    sgprs_per_wave: int  # addressable SGPRs
    sgpr_count_max: int  # largest SGPR count a wave can allocate (with VCC and friends)
    sgpr_occupancy: tuple[tuple[int, int], ...]  # ascending (max SGPR count, waves per SIMD)
    mma_kind: str
    buffer_rsrc_word3: int
    waitcnt_model: str
    waitcnt_counters: tuple[tuple[str, int], ...]  # (counter, largest encodable count)
    features: tuple[str, ...]

    def has_feature(self, feature: str) -> bool:
        """Whether this arch has `feature`; an undeclared feature name is an error."""
        if feature not in FEATURE_NAMES:
            raise _unknown_feature(feature)
        return feature in self.features

    def mma_signature(self, op_id: str) -> tuple[Any, Any, Any] | None:
        """rocke.ir types of the A, B and C/D fragments of `op_id` on this arch, else None."""
        from rocke.arch.mma import find_mma_op  # mma imports this module at load time

        op = find_mma_op(op_id)
        if op is None or self.name not in op.archs:
            return None
        return op.fragment_types()

    @property
    def vendor_target(self) -> Target:
        """The targets.toml row of this arch."""
        return get_target(self.target)

    def source(self, fact: str) -> str:
        """The citation a fact of this target comes from."""
        return fact_source(fact)


@dataclass(frozen=True)
class ArchData:
    """Everything archs.toml holds, in file order."""

    fact_sources: tuple[tuple[str, str], ...]
    features: tuple[tuple[str, str, str], ...]  # (name, description, source)
    archs: tuple[ArchTarget, ...]

    @property
    def feature_names(self) -> tuple[str, ...]:
        return tuple(name for name, _, _ in self.features)


FACT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(ArchTarget))


def _parse_fact(name: str, value: Any, feature_names: tuple[str, ...], where: str) -> Any:
    where = f"{where}: fact '{name}'"
    if name in ("name", "llvm_cpu"):
        return want_str(value, where)
    if name == "target":
        return want_choice(value, TARGET_NAMES, where)
    if name == "generation":
        return want_choice(value, GENERATIONS, where)
    if name == "compute_unit":
        return want_choice(value, COMPUTE_UNITS, where)
    if name == "mma_kind":
        return want_choice(value, MMA_KINDS, where)
    if name == "waitcnt_model":
        return want_choice(value, WAITCNT_MODELS, where)
    if name == "unified_vgpr_file":
        return want_bool(value, where)
    if name == "sgpr_occupancy":
        steps = []
        for i, entry in enumerate(want_list(value, where)):
            step = check_keys(entry, ("max_sgprs", "waves"), f"{where}[{i}]")
            steps.append((want_int(step["max_sgprs"], f"{where}[{i}].max_sgprs"),
                          want_int(step["waves"], f"{where}[{i}].waves")))
        for i in range(1, len(steps)):
            if steps[i][0] <= steps[i - 1][0]:
                raise ArchDataError(f"{where}: max_sgprs must be ascending")
        return tuple(steps)
    if name == "waitcnt_counters":
        counters = []
        for i, entry in enumerate(want_list(value, where)):
            counter = check_keys(entry, ("name", "max"), f"{where}[{i}]")
            counters.append((want_str(counter["name"], f"{where}[{i}].name"),
                             want_int(counter["max"], f"{where}[{i}].max")))
        want_unique([c for c, _ in counters], where)
        return tuple(counters)
    if name == "features":
        names = want_list(value, where)
        for item in names:
            if item not in feature_names:
                raise ArchDataError(f"{where}: undeclared feature '{want_str(item, where)}'")
        want_unique(names, where)
        # Declaration order keeps every arch's list deterministic and comparable.
        if names != [f for f in feature_names if f in names]:
            raise ArchDataError(f"{where}: list features in [[feature]] order")
        return tuple(names)
    return want_int(value, where)


def _check_consistency(arch: ArchTarget, where: str) -> None:
    if arch.sgpr_occupancy and arch.sgpr_occupancy[-1][0] != arch.sgpr_count_max:
        raise ArchDataError(f"{where}: the last sgpr_occupancy step must end at sgpr_count_max")
    if arch.unified_vgpr_file != (arch.agprs_per_wave > 0) or (arch.accum_offset_granule > 0) != (
        arch.agprs_per_wave > 0
    ):
        raise ArchDataError(f"{where}: unified_vgpr_file, agprs_per_wave and accum_offset_granule disagree")
    if arch.wave_size not in (32, 64):
        raise ArchDataError(f"{where}: wave_size must be 32 or 64")
    if arch.vgpr_alloc_granule == 0 or arch.simds_per_cu == 0:
        raise ArchDataError(f"{where}: simds_per_cu and vgpr_alloc_granule must be positive")
    if arch.buffer_rsrc_word3 > 0xFFFFFFFF:
        raise ArchDataError(f"{where}: buffer_rsrc_word3 must fit in 32 bits")
    if arch.lds_bytes > arch.lds_bytes_per_cu:
        raise ArchDataError(f"{where}: lds_bytes exceeds lds_bytes_per_cu")


def parse_arch_data(text: str) -> ArchData:
    """Parse and check archs.toml text; raises ArchDataError with a fixed message."""
    doc = check_keys(parse_toml(text, ARCHS_FILE), ("format", "fact", "feature", "arch"), ARCHS_FILE)
    if doc["format"] != ARCHS_FORMAT:
        raise ArchDataError(f"{ARCHS_FILE}: format must be '{ARCHS_FORMAT}'")

    sources = []
    for i, entry in enumerate(want_list(doc["fact"], f"{ARCHS_FILE}: fact")):
        fact = check_keys(entry, ("name", "source"), f"{ARCHS_FILE}: fact[{i}]")
        sources.append((want_str(fact["name"], f"{ARCHS_FILE}: fact[{i}].name"),
                        want_str(fact["source"], f"{ARCHS_FILE}: fact[{i}].source")))
    if tuple(name for name, _ in sources) != FACT_NAMES:
        raise ArchDataError(
            f"{ARCHS_FILE}: [[fact]] must list exactly these facts in order: {', '.join(FACT_NAMES)}")

    features = []
    for i, entry in enumerate(want_list(doc["feature"], f"{ARCHS_FILE}: feature")):
        where = f"{ARCHS_FILE}: feature[{i}]"
        feat = check_keys(entry, ("name", "description", "source"), where)
        features.append((want_str(feat["name"], f"{where}.name"),
                         want_str(feat["description"], f"{where}.description"),
                         want_str(feat["source"], f"{where}.source")))
    feature_names = tuple(name for name, _, _ in features)
    want_unique(list(feature_names), f"{ARCHS_FILE}: feature")

    archs = []
    for i, entry in enumerate(want_list(doc["arch"], f"{ARCHS_FILE}: arch")):
        named = isinstance(entry, dict) and isinstance(entry.get("name"), str)
        where = f"{ARCHS_FILE}: arch '{entry['name'] if named else i}'"
        table = check_keys(entry, FACT_NAMES, where)
        values = {fact: _parse_fact(fact, table[fact], feature_names, where) for fact in FACT_NAMES}
        arch = ArchTarget(**values)
        _check_consistency(arch, where)
        archs.append(arch)
    if not archs:
        raise ArchDataError(f"{ARCHS_FILE}: no [[arch]] entries")
    want_unique([a.name for a in archs], f"{ARCHS_FILE}: arch")
    return ArchData(tuple(sources), tuple(features), tuple(archs))


_DATA = parse_arch_data(read_data_text(ARCHS_FILE))
_BY_NAME = {arch.name: arch for arch in _DATA.archs}

ARCH_NAMES: tuple[str, ...] = tuple(arch.name for arch in _DATA.archs)
FEATURE_NAMES: tuple[str, ...] = _DATA.feature_names


def arch_data() -> ArchData:
    """The parsed contents of the packaged archs.toml."""
    return _DATA


def get_arch(name: str) -> ArchTarget:
    """The ArchTarget called `name`; UnknownArchError lists the known arches otherwise."""
    arch = _BY_NAME.get(name) if isinstance(name, str) else None
    if arch is None:
        shown = f"'{name}'" if isinstance(name, str) else "of a non-string name"
        raise UnknownArchError(f"unknown arch {shown}; known: {', '.join(ARCH_NAMES)}")
    return arch


set_arch_resolver(get_arch)  # rocke.ir.verify(kernel, "gfx942") resolves names through this


def resolve_arch(arch: str | ArchTarget) -> ArchTarget:
    """Accept an arch name or an ArchTarget wherever the API takes an arch."""
    return arch if isinstance(arch, ArchTarget) else get_arch(arch)


def fact_source(fact: str) -> str:
    """The citation for one fact (the same source covers every arch)."""
    for name, source in _DATA.fact_sources:
        if name == fact:
            return source
    raise ValueError(f"unknown fact '{fact}'; known: {', '.join(FACT_NAMES)}")


def feature_info(feature: str) -> tuple[str, str]:
    """(description, source) of a declared feature."""
    for name, description, source in _DATA.features:
        if name == feature:
            return description, source
    raise _unknown_feature(feature)


def _unknown_feature(feature: str) -> UnknownFeatureError:
    return UnknownFeatureError(f"unknown feature '{feature}'; known: {', '.join(FEATURE_NAMES)}")
