// Python twin: rocke_library/kernels/attention/attention_bwd_convert/family.py (FAMILY)
#include "rocke_library/kernels/attention/attention_bwd_convert/register.hpp"

#include "rocke_library/kernels/attention/attention_bwd_convert/builder.hpp"

namespace rocke::library::kernels::attention::attention_bwd_convert {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "attention_bwd_convert",
      .owner = "rocke-library",
      .fields = AttentionBwdConvertSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return AttentionBwdConvertSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::attention::attention_bwd_convert
