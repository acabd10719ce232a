// Python twin: rocke/arch/target.py
// The Python loader checks archs.toml strictly; the generated tree is that same file, so this
// reader only maps each [[fact]] onto its field and refuses facts it does not know.
#include "rocke/arch/target.hpp"

#include <algorithm>

#include "rocke/arch/errors.hpp"
#include "rocke/arch/mma.hpp"
#include "rocke/data/document.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::arch {

namespace {

struct ArchData {
  std::vector<std::pair<std::string, std::string>> fact_sources;
  std::vector<std::string> feature_names;
  std::vector<ArchTarget> archs;
  std::vector<std::string> arch_names;
};

void set_fact(ArchTarget& arch, const std::string& fact, const data::NodeRef& value) {
  auto text = [&] { return std::string(value.str()); };
  if (fact == "name") arch.name = text();
  else if (fact == "generation") arch.generation = text();
  else if (fact == "llvm_cpu") arch.llvm_cpu = text();
  else if (fact == "target") arch.target = text();
  else if (fact == "wave_size") arch.wave_size = value.integer();
  else if (fact == "max_workgroup_size") arch.max_workgroup_size = value.integer();
  else if (fact == "lds_bytes") arch.lds_bytes = value.integer();
  else if (fact == "lds_bytes_per_cu") arch.lds_bytes_per_cu = value.integer();
  else if (fact == "lds_reserved_bytes") arch.lds_reserved_bytes = value.integer();
  else if (fact == "compute_unit") arch.compute_unit = text();
  else if (fact == "simds_per_cu") arch.simds_per_cu = value.integer();
  else if (fact == "max_waves_per_simd") arch.max_waves_per_simd = value.integer();
  else if (fact == "max_workgroups_per_cu") arch.max_workgroups_per_cu = value.integer();
  else if (fact == "cu_count") arch.cu_count = value.integer();
  else if (fact == "arch_vgprs_per_wave") arch.arch_vgprs_per_wave = value.integer();
  else if (fact == "agprs_per_wave") arch.agprs_per_wave = value.integer();
  else if (fact == "unified_vgpr_file") arch.unified_vgpr_file = value.boolean();
  else if (fact == "accum_offset_granule") arch.accum_offset_granule = value.integer();
  else if (fact == "vgpr_file_per_simd") arch.vgpr_file_per_simd = value.integer();
  else if (fact == "vgpr_alloc_granule") arch.vgpr_alloc_granule = value.integer();
  else if (fact == "sgprs_per_wave") arch.sgprs_per_wave = value.integer();
  else if (fact == "sgpr_count_max") arch.sgpr_count_max = value.integer();
  else if (fact == "sgpr_occupancy") {
    for (std::size_t i = 0; i < value.size(); ++i) {
      arch.sgpr_occupancy.emplace_back(value.at(i)["max_sgprs"].integer(), value.at(i)["waves"].integer());
    }
  } else if (fact == "mma_kind") arch.mma_kind = text();
  else if (fact == "buffer_rsrc_word3") arch.buffer_rsrc_word3 = value.integer();
  else if (fact == "waitcnt_model") arch.waitcnt_model = text();
  else if (fact == "waitcnt_counters") {
    for (std::size_t i = 0; i < value.size(); ++i) {
      arch.waitcnt_counters.emplace_back(std::string(value.at(i)["name"].str()), value.at(i)["max"].integer());
    }
  } else if (fact == "features") {
    for (std::size_t i = 0; i < value.size(); ++i) arch.features.emplace_back(value.at(i).str());
  } else {
    throw ArchDataError("archs.toml: fact '" + fact + "' is not known to the C++ engine");
  }
}

const ArchData& arch_data() {
  static const ArchData data = [] {
    ArchData d;
    data::NodeRef root = data::document("rocke/arch/data/archs.toml");
    data::NodeRef facts = root["fact"];
    for (std::size_t i = 0; i < facts.size(); ++i) {
      d.fact_sources.emplace_back(std::string(facts.at(i)["name"].str()), std::string(facts.at(i)["source"].str()));
    }
    data::NodeRef features = root["feature"];
    for (std::size_t i = 0; i < features.size(); ++i) d.feature_names.emplace_back(features.at(i)["name"].str());
    data::NodeRef archs = root["arch"];
    for (std::size_t i = 0; i < archs.size(); ++i) {
      data::NodeRef table = archs.at(i);
      if (table.size() != d.fact_sources.size()) throw ArchDataError("archs.toml: an arch must carry every fact");
      ArchTarget arch;
      for (const auto& [fact, source] : d.fact_sources) set_fact(arch, fact, table[fact]);
      d.arch_names.push_back(arch.name);
      d.archs.push_back(std::move(arch));
    }
    return d;
  }();
  return data;
}

}  // namespace

bool ArchTarget::has_feature(std::string_view feature) const {
  const std::vector<std::string>& known = feature_names();
  if (std::find(known.begin(), known.end(), feature) == known.end()) {
    throw UnknownFeatureError("unknown feature '" + std::string(feature) + "'; known: " + util::join(known, ", "));
  }
  return std::find(features.begin(), features.end(), feature) != features.end();
}

std::optional<std::array<ir::Type, 3>> ArchTarget::mma_signature(std::string_view op_id) const {
  const MmaOp* op = find_mma_op(op_id);
  if (op == nullptr || std::find(op->archs.begin(), op->archs.end(), name) == op->archs.end()) return std::nullopt;
  return op->fragment_types();
}

const std::vector<ArchTarget>& arch_targets() { return arch_data().archs; }
const std::vector<std::string>& arch_names() { return arch_data().arch_names; }
const std::vector<std::pair<std::string, std::string>>& fact_sources() { return arch_data().fact_sources; }
const std::vector<std::string>& feature_names() { return arch_data().feature_names; }

const ArchTarget& get_arch(std::string_view name) {
  for (const ArchTarget& arch : arch_targets()) {
    if (arch.name == name) return arch;
  }
  throw UnknownArchError("unknown arch '" + std::string(name) + "'; known: " + util::join(arch_names(), ", "));
}

const Target& ArchTarget::vendor_target() const { return get_target(target); }

}  // namespace rocke::arch
