// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/family.py (FAMILY)
#include "rocke_library/kernels/conv/conv_igemm_dgrad/register.hpp"

#include "rocke_library/kernels/conv/conv_igemm_dgrad/builder.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "conv_igemm_dgrad",
      .owner = "rocke-library",
      .fields = ConvIgemmDgradSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return ConvIgemmDgradSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
