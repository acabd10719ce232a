// Python twin: rocke/families/gemm/family.py (FAMILY)
#include "rocke/families/gemm/register.hpp"

#include "rocke/families/gemm/builder.hpp"

namespace rocke::families::gemm {

void register_family(FamilyRegistry& registry) {
  registry.add(Family{
      .name = "gemm",
      .owner = "rocke",
      .fields = GemmSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return GemmSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::families::gemm
