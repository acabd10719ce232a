// Python twin: rocke_library/kernels/attention/attention_fwd/family.py (FAMILY)
#include "rocke_library/kernels/attention/attention_fwd/register.hpp"

#include "rocke_library/kernels/attention/attention_fwd/builder.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "attention_fwd",
      .owner = "rocke-library",
      .fields = AttentionFwdSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return AttentionFwdSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::attention::attention_fwd
