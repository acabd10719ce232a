// Python twin: rocke/families/platform_families.py (provide)
// Platform's families, each adding its C++ builder twin with its spec's fields (for the config
// reader) and its normalizer (Spec.from_kv(kv).to_kv()), in name order like provide().
#include "rocke/families/elementwise/register.hpp"
#include "rocke/families/gemm/register.hpp"
#include "rocke/families/registry.hpp"

namespace rocke::families {

void register_platform_families(FamilyRegistry& registry) {
  elementwise::register_family(registry);
  gemm::register_family(registry);
}

}  // namespace rocke::families
