// Python twin: rocke/arch/flavors.py
// The Python loader checks flavors.toml strictly; the generated tree is that same file, so this
// reader only maps its rows onto the structs.
#include "rocke/arch/flavors.hpp"

#include "rocke/data/document.hpp"
#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::arch {

namespace {

struct FlavorData {
  LlvmFacts llvm;
  std::vector<Flavor> flavors;
  std::vector<std::string> names;
};

std::vector<std::string> strings(const data::NodeRef& array) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < array.size(); ++i) out.emplace_back(array.at(i).str());
  return out;
}

Flavor parse_flavor(const data::NodeRef& row) {
  Flavor flavor;
  flavor.name = std::string(row["name"].str());
  flavor.llvm_major = row["llvm_major"].integer();
  flavor.llvmlite_min = std::string(row["llvmlite_min"].str());
  flavor.llvmlite_max = std::string(row["llvmlite_max"].str());
  flavor.nocapture = std::string(row["nocapture"].str());
  data::NodeRef overrides = row["intrinsic_overrides"];
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    data::NodeRef item = overrides.at(i);
    flavor.intrinsic_overrides.push_back(
        IntrinsicOverride{std::string(item["name"].str()), std::string(item["ret"].str()), strings(item["params"])});
  }
  return flavor;
}

const FlavorData& flavor_data() {
  static const FlavorData data = [] {
    FlavorData d;
    data::NodeRef root = data::document("rocke/arch/data/flavors.toml");
    data::NodeRef llvm = root["llvm"];
    data::NodeRef scalars = llvm["scalar_types"];
    for (std::size_t i = 0; i < scalars.size(); ++i) {
      d.llvm.scalar_types.emplace_back(std::string(scalars.at(i)["ir"].str()),
                                       std::string(scalars.at(i)["llvm"].str()));
    }
    data::NodeRef rows = root["flavor"];
    for (std::size_t i = 0; i < rows.size(); ++i) {
      d.flavors.push_back(parse_flavor(rows.at(i)));
      d.names.push_back(d.flavors.back().name);
    }
    return d;
  }();
  return data;
}

}  // namespace

const IntrinsicOverride* Flavor::override_for(std::string_view intrinsic) const {
  for (const IntrinsicOverride& item : intrinsic_overrides) {
    if (item.name == intrinsic) return &item;
  }
  return nullptr;
}

const std::string& LlvmFacts::llvm_scalar(std::string_view ir_name) const {
  for (const auto& [ir, llvm] : scalar_types) {
    if (ir == ir_name) return llvm;
  }
  throw ValueError(util::cat("no LLVM spelling for scalar type '", ir_name, "'"));
}

const std::vector<Flavor>& flavors() { return flavor_data().flavors; }
const std::vector<std::string>& flavor_names() { return flavor_data().names; }
const LlvmFacts& llvm_facts() { return flavor_data().llvm; }

const Flavor& get_flavor(std::string_view name) {
  for (const Flavor& flavor : flavors()) {
    if (flavor.name == name) return flavor;
  }
  throw ValueError(util::cat("unknown flavor '", name, "'; known flavors: ", util::join(flavor_names(), ", ")));
}

}  // namespace rocke::arch
