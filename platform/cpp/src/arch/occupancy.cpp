// Python twin: rocke/arch/occupancy.py
#include "rocke/arch/occupancy.hpp"

#include <algorithm>
#include <string>

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::arch {

namespace {

std::int64_t align_up(std::int64_t value, std::int64_t granule) { return (value + granule - 1) / granule * granule; }

std::int64_t ceil_div(std::int64_t num, std::int64_t den) { return (num + den - 1) / den; }

void want_count(std::int64_t value, const char* name) {
  if (value < 0) throw ValueError(util::cat("occupancy: ", name, " must be a non-negative int"));
}

std::int64_t waves_by_registers(const ArchTarget& target, std::int64_t vgprs, std::int64_t agprs,
                                std::int64_t sgprs) {
  if (vgprs > target.arch_vgprs_per_wave || agprs > target.agprs_per_wave || sgprs > target.sgpr_count_max) {
    return 0;
  }
  std::int64_t total = vgprs;
  if (agprs > 0) total = align_up(vgprs, target.accum_offset_granule) + agprs;
  std::int64_t allocated = align_up(std::max<std::int64_t>(total, 1), target.vgpr_alloc_granule);
  std::int64_t waves = std::min(target.max_waves_per_simd, target.vgpr_file_per_simd / allocated);
  for (const auto& [max_sgprs, step_waves] : target.sgpr_occupancy) {
    if (sgprs <= max_sgprs) {
      waves = std::min(waves, step_waves);
      break;
    }
  }
  return waves;
}

}  // namespace

bool fits_lds(const ArchTarget& arch, std::int64_t nbytes) {
  if (nbytes < 0) throw ValueError("fits_lds: nbytes must be a non-negative int");
  return nbytes <= arch.lds_bytes;
}

bool fits_lds(std::string_view arch, std::int64_t nbytes) { return fits_lds(get_arch(arch), nbytes); }

std::int64_t occupancy(const ArchTarget& arch, const OccupancyArgs& args) {
  want_count(args.vgprs, "vgprs");
  want_count(args.agprs, "agprs");
  want_count(args.sgprs, "sgprs");
  want_count(args.lds_bytes, "lds_bytes");
  want_count(args.workgroup_size, "workgroup_size");
  if (args.workgroup_size == 0) throw ValueError("occupancy: workgroup_size must be at least 1");
  if (args.workgroup_size > arch.max_workgroup_size || args.lds_bytes > arch.lds_bytes) return 0;

  std::int64_t waves_per_simd = waves_by_registers(arch, args.vgprs, args.agprs, args.sgprs);
  std::int64_t waves_per_workgroup = ceil_div(args.workgroup_size, arch.wave_size);
  std::int64_t workgroups = waves_per_simd * arch.simds_per_cu / waves_per_workgroup;
  if (args.lds_bytes > 0) workgroups = std::min(workgroups, arch.lds_bytes_per_cu / (args.lds_bytes + arch.lds_reserved_bytes));
  if (waves_per_workgroup > 1) workgroups = std::min(workgroups, arch.max_workgroups_per_cu);
  return ceil_div(workgroups * waves_per_workgroup, arch.simds_per_cu);
}

std::int64_t occupancy(std::string_view arch, const OccupancyArgs& args) { return occupancy(get_arch(arch), args); }

}  // namespace rocke::arch
