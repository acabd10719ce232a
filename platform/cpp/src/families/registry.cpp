// Python twin: rocke/families/registry.py (discover_families, build_family, get_family)
#include "rocke/families/registry.hpp"

#include "rocke/util/strings.hpp"

namespace rocke::families {

void FamilyRegistry::add(Family family) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = families_.find(family.name);
  if (found != families_.end()) {
    throw ValueError(util::cat("family '", family.name, "' is registered by both '", found->second.owner, "' and '",
                               family.owner, "'"));
  }
  std::string name = family.name;
  families_.emplace(std::move(name), std::move(family));
}

const Family* FamilyRegistry::find(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = families_.find(name);
  return found == families_.end() ? nullptr : &found->second;
}

const Family& FamilyRegistry::get(std::string_view name) const {
  const Family* family = find(name);
  if (family == nullptr) {
    std::vector<std::string> known = names();
    throw UnknownFamilyError(
        util::cat("unknown family '", name, "'; known: ", known.empty() ? std::string("none") : util::join(known, ", ")));
  }
  return *family;
}

std::vector<std::string> FamilyRegistry::names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [name, family] : families_) out.push_back(name);
  return out;
}

ir::KernelDef build_family(const Family& family, std::string_view kv, std::string_view arch) {
  // A table without rows for arch refuses no spec there: the spec is neither normalised nor hashed
  // (a malformed one is refused by the build's own parse, with the same message).
  if (family.refusals != nullptr && family.normalize && family.refusals->lists(arch)) {
    check_resources(*family.refusals, family.normalize(kv), arch);
  }
  return family.build(kv, arch);
}

ir::KernelDef FamilyRegistry::build(std::string_view name, std::string_view kv, std::string_view arch) const {
  return build_family(get(name), kv, arch);
}

FamilyRegistry& registry() {
  static FamilyRegistry* instance = [] {
    auto* created = new FamilyRegistry();  // never destroyed: families outlive every static user
    register_platform_families(*created);
    return created;
  }();
  return *instance;
}

}  // namespace rocke::families
