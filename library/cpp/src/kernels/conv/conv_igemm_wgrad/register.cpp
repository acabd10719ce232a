// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/family.py (FAMILY)
#include "rocke_library/kernels/conv/conv_igemm_wgrad/register.hpp"

#include "rocke_library/kernels/conv/conv_igemm_wgrad/builder.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "conv_igemm_wgrad",
      .owner = "rocke-library",
      .fields = ConvIgemmWgradSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return ConvIgemmWgradSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
