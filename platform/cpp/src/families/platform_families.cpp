// Python twin: rocke/families/platform_families.py (provide)
// Platform's families, each adding its C++ builder twin with its spec's fields (for the config
// reader) and its normalizer (Spec.from_kv(kv).to_kv()), in name order like provide(); and each
// family's launch contract by name (platform_launch_contract).
#include "rocke/errors.hpp"
#include "rocke/families/elementwise/contract.hpp"
#include "rocke/families/elementwise/register.hpp"
#include "rocke/families/gemm/contract.hpp"
#include "rocke/families/gemm/register.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families {

void register_platform_families(FamilyRegistry& registry) {
  elementwise::register_family(registry);
  gemm::register_family(registry);
}

LaunchContract platform_launch_contract(std::string_view family, std::string_view kv, const ProblemSizes& problem) {
  if (family == "elementwise") return elementwise::launch(elementwise::ElementwiseSpec::from_kv(kv), problem);
  if (family == "gemm") return gemm::launch(gemm::GemmSpec::from_kv(kv), problem);
  throw KeyError(util::cat("no C++ launch contract for family '", family, "'"));
}

}  // namespace rocke::families
