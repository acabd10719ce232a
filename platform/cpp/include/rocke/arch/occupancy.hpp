// rocKE C++ engine: occupancy (resident waves per SIMD) and LDS fit, from the arch facts.
// Python twin: rocke/arch/occupancy.py (the rules are listed in its docstring).
#pragma once

#include <cstdint>

#include "rocke/arch/target.hpp"

namespace rocke::arch {

// Keyword arguments of occupancy(); every count must be non-negative, workgroup_size at least 1.
struct OccupancyArgs {
  std::int64_t vgprs = 0;
  std::int64_t agprs = 0;
  std::int64_t sgprs = 0;
  std::int64_t lds_bytes = 0;
  std::int64_t workgroup_size = 0;
};

// Whether one workgroup may allocate nbytes of LDS on the arch (ValueError for a negative count).
bool fits_lds(const ArchTarget& arch, std::int64_t nbytes);
bool fits_lds(std::string_view arch, std::int64_t nbytes);

// Resident waves per SIMD for a kernel with these per-wave registers, per-workgroup LDS and
// workgroup size; 0 if it cannot run.
std::int64_t occupancy(const ArchTarget& arch, const OccupancyArgs& args);
std::int64_t occupancy(std::string_view arch, const OccupancyArgs& args);

}  // namespace rocke::arch
