// Python twin: rocke_library/kernels/attention/attention_bwd_dq/family.py (FAMILY)
#include "rocke_library/kernels/attention/attention_bwd_dq/register.hpp"

#include "rocke_library/kernels/attention/attention_bwd_dq/builder.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "attention_bwd_dq",
      .owner = "rocke-library",
      .fields = AttentionBwdDqSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return AttentionBwdDqSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
