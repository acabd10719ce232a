// rocKE C++ engine: ArchTarget, the facts rocKE needs about one AMD GPU target, read from the
// generated twin of data/archs.toml.
// Python twin: rocke/arch/target.py
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/arch/targets.hpp"
#include "rocke/ir/archlike.hpp"

namespace rocke::arch {

// One target's facts; field order is the order of [[fact]] in archs.toml.
struct ArchTarget : ir::ArchLike {
  std::string name;
  std::string generation;
  std::string llvm_cpu;
  std::string target;  // the targets.toml row: triple, calling convention, address spaces, toolchain
  std::int64_t wave_size = 0;
  std::int64_t max_workgroup_size = 0;
  std::int64_t lds_bytes = 0;         // most LDS one workgroup may allocate
  std::int64_t lds_bytes_per_cu = 0;  // LDS shared by the workgroups resident on one CU/WGP
  std::int64_t lds_reserved_bytes = 0;  // LDS the system reserves per resident workgroup (NVIDIA: 1 KiB)
  std::string compute_unit;           // "cu" or "wgp"
  std::int64_t simds_per_cu = 0;
  std::int64_t max_waves_per_simd = 0;
  std::int64_t max_workgroups_per_cu = 0;
  std::int64_t cu_count = 0;  // CUs of the arch's largest part (CUs, also where compute_unit is the WGP)
  std::int64_t arch_vgprs_per_wave = 0;
  std::int64_t agprs_per_wave = 0;
  bool unified_vgpr_file = false;
  std::int64_t accum_offset_granule = 0;
  std::int64_t vgpr_file_per_simd = 0;
  std::int64_t vgpr_alloc_granule = 0;
  std::int64_t sgprs_per_wave = 0;
  std::int64_t sgpr_count_max = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> sgpr_occupancy;  // ascending (max SGPRs, waves)
  std::string mma_kind;
  std::int64_t buffer_rsrc_word3 = 0;
  std::string waitcnt_model;
  std::vector<std::pair<std::string, std::int64_t>> waitcnt_counters;  // (counter, largest count)
  std::vector<std::string> features;

  const std::string& arch_name() const override { return name; }
  // The targets.toml row of this arch (Python's vendor_target).
  const Target& vendor_target() const;
  // Whether this arch has feature; an undeclared feature name is UnknownFeatureError.
  bool has_feature(std::string_view feature) const override;
  // rocke.ir types of the A, B and C/D fragments of op_id on this arch, else nullopt.
  std::optional<std::array<ir::Type, 3>> mma_signature(std::string_view op_id) const override;
};

// Every arch, in archs.toml order.
const std::vector<ArchTarget>& arch_targets();
const std::vector<std::string>& arch_names();
// [[fact]] names in order (the ArchTarget field order) and their citations.
const std::vector<std::pair<std::string, std::string>>& fact_sources();
// [[feature]] names in order.
const std::vector<std::string>& feature_names();

// The ArchTarget called name; UnknownArchError lists the known arches otherwise.
const ArchTarget& get_arch(std::string_view name);

}  // namespace rocke::arch
