// Python twin: rocke_library/families.py (defined)
#include "rocke_library/families.hpp"

#include "rocke_library/kernels/conv/conv_direct_fwd/builder.hpp"
#include "rocke_library/kernels/conv/img2col/builder.hpp"

namespace rocke::library {

namespace direct = conv::conv_direct_fwd;
namespace im2col = conv::img2col;

void register_library_families(families::FamilyRegistry& registry) {
  registry.add(families::Family{
      .name = "conv_direct_fwd",
      .owner = OWNER,
      .fields = direct::ConvDirectFwdSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return direct::build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return direct::ConvDirectFwdSpec::from_kv(kv).to_kv(); },
  });
  registry.add(families::Family{
      .name = "img2col",
      .owner = OWNER,
      .fields = im2col::Img2colSpec::field_types(),
      .build = [](std::string_view kv, std::string_view arch) { return im2col::build_kv(kv, arch); },
      .normalize = [](std::string_view kv) { return im2col::Img2colSpec::from_kv(kv).to_kv(); },
  });
}

families::FamilyRegistry& registry_with_library() {
  static families::FamilyRegistry& registry = [] () -> families::FamilyRegistry& {
    families::FamilyRegistry& shared = families::registry();
    register_library_families(shared);
    return shared;
  }();
  return registry;
}

}  // namespace rocke::library
