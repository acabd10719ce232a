// Python twin: rocke_library/families.py (defined)
// Library's families, each adding its C++ builder twin with its spec's fields (for the config
// reader) and its normalizer (Spec.from_kv(kv).to_kv()), in name order like defined().
#include "rocke_library/families.hpp"

#include "rocke_library/kernels/attention/attention_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/register.hpp"
#include "rocke_library/kernels/conv/img2col/register.hpp"

namespace rocke::library {

void register_library_families(families::FamilyRegistry& registry) {
  kernels::attention::attention_fwd::register_family(registry);
  kernels::conv::conv_direct_fwd::register_family(registry);
  kernels::conv::conv_igemm_dgrad::register_family(registry);
  kernels::conv::conv_igemm_fwd::register_family(registry);
  kernels::conv::conv_igemm_wgrad::register_family(registry);
  kernels::conv::img2col::register_family(registry);
}

families::FamilyRegistry& registry_with_library() {
  static families::FamilyRegistry& registry = [] () -> families::FamilyRegistry& {
    families::FamilyRegistry& shared = families::registry();
    register_library_families(shared);
    return shared;
  }();
  return registry;
}

}  // namespace rocke::library
