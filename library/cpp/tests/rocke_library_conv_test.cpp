// ctest: the conv builder twins build a config of each family and refuse a bad spec with the
// Python engine's text (the full comparison is the parity tests' job).
#include <cstdio>
#include <string>

#include "rocke/errors.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke_library/families.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

std::string refusal(const std::string& family, const std::string& kv, const std::string& arch) {
  try {
    rocke::library::registry_with_library().build(family, kv, arch);
  } catch (const rocke::ValueError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

int main() {
  auto& registry = rocke::library::registry_with_library();
  const std::string conv =
      "bias=1 depthwise=0 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 relu=1 stride_h=1 "
      "stride_w=1 thread_k=4 thread_p=4 tile_k=64 tile_p=64 vec=8";
  const std::string img2col =
      "block=256 dil_h=1 dil_w=1 dtype=f16 filter_x=3 filter_y=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 vec=8";
  std::string text = rocke::ir::print_kernel(registry.build("conv_direct_fwd", conv, "gfx942"));
  expect(text.rfind("rocke.ir/1\nkernel @conv_direct_fwd_", 0) == 0, "conv_direct_fwd builds");
  text = rocke::ir::print_kernel(registry.build("img2col", img2col, "gfx1201"));
  expect(text.rfind("rocke.ir/1\nkernel @img2col_", 0) == 0, "img2col builds");
  expect(refusal("img2col", img2col, "gfx942").empty(), "img2col block=256 is fine on gfx942");
  expect(refusal("img2col", "block=96" + img2col.substr(9), "gfx942") ==
             "img2col: block=96: must be a multiple of the wave size 64 of gfx942",
         "img2col arch refusal text");
  expect(refusal("conv_direct_fwd", conv.substr(0, conv.size() - 5) + "vec=3", "gfx942") ==
             "conv_direct_fwd: vec=3: must be 1, 2, 4 or 8",
         "conv_direct_fwd spec refusal text");
  if (failures == 0) std::printf("conv twins ok\n");
  return failures == 0 ? 0 : 1;
}
