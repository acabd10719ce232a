// Python twin: rocke_library/kernels/conv/img2col/family.py (FAMILY)
#include "rocke_library/kernels/conv/img2col/register.hpp"

#include "rocke_library/kernels/conv/img2col/builder.hpp"

namespace rocke::library::kernels::conv::img2col {

void register_family(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "img2col",
      .owner = "rocke-library",
      .fields = Img2colSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return Img2colSpec::from_kv(kv).to_kv(); },
      .refusals = &kRefusals,
  });
}

}  // namespace rocke::library::kernels::conv::img2col
