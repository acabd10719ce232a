// Python twin: rocke_library/kernels/attention/attention_bwd_main/family.py (FAMILY)
#include "rocke_library/kernels/attention/attention_bwd_main/register.hpp"

#include "rocke_library/kernels/attention/attention_bwd_main/builder.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "attention_bwd_main",
      .owner = "rocke-library",
      .fields = AttentionBwdMainSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return AttentionBwdMainSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::attention::attention_bwd_main
