// Python twin: rocke/arch/targets.py
// The Python loader checks targets.toml strictly; the generated tree is that same file, so this
// reader only maps its rows onto the structs.
#include "rocke/arch/targets.hpp"

#include "rocke/data/document.hpp"
#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::arch {

namespace {

struct TargetData {
  std::vector<Target> targets;
  std::vector<std::string> names;
};

const TargetData& target_data() {
  static const TargetData data = [] {
    TargetData d;
    data::NodeRef rows = data::document("rocke/arch/data/targets.toml")["target"];
    for (std::size_t i = 0; i < rows.size(); ++i) {
      data::NodeRef row = rows.at(i);
      Target target;
      target.index = i;
      target.name = std::string(row["name"].str());
      target.vendor = std::string(row["vendor"].str());
      target.triple = std::string(row["triple"].str());
      target.kernel_cc = std::string(row["kernel_cc"].str());
      target.toolchain = std::string(row["toolchain"].str());
      target.rsrc_type = std::string(row["rsrc_type"].str());
      target.lds_pool = std::string(row["lds_pool"].str());
      target.static_lds_bytes = row["static_lds_bytes"].integer();
      data::NodeRef spaces = row["address_spaces"];
      for (std::size_t j = 0; j < spaces.size(); ++j) {
        target.address_spaces.emplace_back(std::string(spaces.at(j)["ir"].str()), spaces.at(j)["llvm"].integer());
      }
      data::NodeRef layouts = row["datalayouts"];
      for (std::size_t j = 0; j < layouts.size(); ++j) {
        target.datalayouts.emplace_back(std::string(layouts.at(j)["flavor"].str()),
                                        std::string(layouts.at(j)["value"].str()));
      }
      d.names.push_back(target.name);
      d.targets.push_back(std::move(target));
    }
    return d;
  }();
  return data;
}

}  // namespace

std::int64_t Target::address_space(std::string_view ir_space) const {
  for (const auto& [ir, number] : address_spaces) {
    if (ir == ir_space) return number;
  }
  throw ValueError(util::cat("no LLVM address space for '", ir_space, "'"));
}

const std::string& Target::datalayout(std::string_view flavor) const {
  for (const auto& [name, layout] : datalayouts) {
    if (name == flavor) return layout;
  }
  throw ValueError(util::cat("target '", name, "' has no datalayout for flavor '", flavor, "'"));
}

const std::vector<Target>& targets() { return target_data().targets; }
const std::vector<std::string>& target_names() { return target_data().names; }

const Target& get_target(std::string_view name) {
  for (const Target& target : targets()) {
    if (target.name == name) return target;
  }
  throw ValueError(util::cat("unknown target '", name, "'; known targets: ", util::join(target_names(), ", ")));
}

}  // namespace rocke::arch
