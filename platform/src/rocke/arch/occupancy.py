"""Occupancy (resident waves per SIMD) and LDS fit, from the arch facts.

The rules, all from archs.toml facts (sources there and in platform/docs/arch.md):

1. VGPRs. On a unified register file (gfx90a+) a wave holding AGPRs allocates
   align_up(vgprs, accum_offset_granule) + agprs registers, else just vgprs; the
   count is rounded up to vgpr_alloc_granule, and the SIMD's vgpr_file_per_simd
   registers give floor(file / allocation) waves (LLVM getNumWavesPerEUWithNumVGPRs).
2. SGPRs. The first sgpr_occupancy step whose max_sgprs >= sgprs caps the waves;
   no steps means SGPRs never limit (LLVM getOccupancyWithNumSGPRs).
3. Per-SIMD cap max_waves_per_simd (LLVM getMaxWavesPerEU).
4. Workgroups. A workgroup's ceil(workgroup_size / wave_size) waves are resident
   together on one CU (WGP on gfx10+). The CU holds as many workgroups as fit in
   its simds_per_cu * (waves per SIMD from 1-3) wave slots, in lds_bytes_per_cu
   of LDS (each using lds_reserved_bytes more: NVIDIA's 1 KiB per block), and under
   max_workgroups_per_cu (barrier-using, i.e. multi-wave,
   workgroups only).
5. The result is the waves on the busiest SIMD when the resident waves spread
   evenly: ceil(workgroups * waves_per_workgroup / simds_per_cu).

0 means the kernel cannot be resident at all: the workgroup is too large, its
LDS exceeds lds_bytes, its registers exceed the per-wave budgets, or its waves
do not fit in the CU's register-limited wave slots. Rule 4 counts whole
workgroups, so where LLVM's estimate (which caps per-EU waves separately)
differs, this is the lower and attainable figure. LDS allocation granularity
is not modeled, as in LLVM.
"""

from __future__ import annotations

from rocke.arch.target import ArchTarget, resolve_arch


def _align_up(value: int, granule: int) -> int:
    return (value + granule - 1) // granule * granule


def _ceil_div(num: int, den: int) -> int:
    return (num + den - 1) // den


def _want_count(value: int, name: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"occupancy: {name} must be a non-negative int")
    return value


def fits_lds(arch: str | ArchTarget, nbytes: int) -> bool:
    """Whether one workgroup may allocate `nbytes` of LDS on `arch`."""
    target = resolve_arch(arch)
    if type(nbytes) is not int or nbytes < 0:
        raise ValueError("fits_lds: nbytes must be a non-negative int")
    return nbytes <= target.lds_bytes


def _waves_by_registers(target: ArchTarget, vgprs: int, agprs: int, sgprs: int) -> int:
    if vgprs > target.arch_vgprs_per_wave or agprs > target.agprs_per_wave or sgprs > target.sgpr_count_max:
        return 0
    total = vgprs
    if agprs > 0:
        total = _align_up(vgprs, target.accum_offset_granule) + agprs
    allocated = _align_up(max(total, 1), target.vgpr_alloc_granule)
    waves = min(target.max_waves_per_simd, target.vgpr_file_per_simd // allocated)
    for max_sgprs, step_waves in target.sgpr_occupancy:
        if sgprs <= max_sgprs:
            waves = min(waves, step_waves)
            break
    return waves


def occupancy(
    arch: str | ArchTarget,
    *,
    vgprs: int,
    agprs: int = 0,
    sgprs: int,
    lds_bytes: int,
    workgroup_size: int,
) -> int:
    """Resident waves per SIMD for a kernel with these per-wave registers, per-workgroup
    LDS and workgroup size (rules in this module's docstring); 0 if it cannot run."""
    target = resolve_arch(arch)
    for name, value in (("vgprs", vgprs), ("agprs", agprs), ("sgprs", sgprs), ("lds_bytes", lds_bytes),
                        ("workgroup_size", workgroup_size)):
        _want_count(value, name)
    if workgroup_size == 0:
        raise ValueError("occupancy: workgroup_size must be at least 1")
    if workgroup_size > target.max_workgroup_size or lds_bytes > target.lds_bytes:
        return 0

    waves_per_simd = _waves_by_registers(target, vgprs, agprs, sgprs)
    waves_per_workgroup = _ceil_div(workgroup_size, target.wave_size)
    workgroups = waves_per_simd * target.simds_per_cu // waves_per_workgroup
    if lds_bytes > 0:
        workgroups = min(workgroups, target.lds_bytes_per_cu // (lds_bytes + target.lds_reserved_bytes))
    if waves_per_workgroup > 1:
        workgroups = min(workgroups, target.max_workgroups_per_cu)
    return _ceil_div(workgroups * waves_per_workgroup, target.simds_per_cu)
