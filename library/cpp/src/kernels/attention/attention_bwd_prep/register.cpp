// Python twin: rocke_library/kernels/attention/attention_bwd_prep/family.py (FAMILY)
#include "rocke_library/kernels/attention/attention_bwd_prep/register.hpp"

#include "rocke_library/kernels/attention/attention_bwd_prep/builder.hpp"

namespace rocke::library::kernels::attention::attention_bwd_prep {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "attention_bwd_prep",
      .owner = "rocke-library",
      .fields = AttentionBwdPrepSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return AttentionBwdPrepSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::attention::attention_bwd_prep
