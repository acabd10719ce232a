// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/family.py (FAMILY)
#include "rocke_library/kernels/conv/conv_igemm_fwd/register.hpp"

#include "rocke_library/kernels/conv/conv_igemm_fwd/builder.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "conv_igemm_fwd",
      .owner = "rocke-library",
      .fields = ConvIgemmFwdSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return ConvIgemmFwdSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
