// Python twin: rocke/families/elementwise/family.py (FAMILY)
#include "rocke/families/elementwise/register.hpp"

#include "rocke/families/elementwise/builder.hpp"

namespace rocke::families::elementwise {

void register_family(FamilyRegistry& registry) {
  registry.add(Family{
      .name = "elementwise",
      .owner = "rocke",
      .fields = ElementwiseSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return ElementwiseSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::families::elementwise
