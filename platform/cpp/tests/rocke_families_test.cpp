// ctest: the spec twin (kv parsing, SpecError texts, canonical text, digests), SHA-256, the host
// facts of the helper twins, and the elementwise builder twin.
// Python twins: platform/tests/families/*/test_*_specs.py, test_helpers_index.py, test_helpers_tiles.py
// (the byte-for-byte comparison with Python is platform/tests/families/elementwise/test_elementwise_cpp.py).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/arch/errors.hpp"
#include "rocke/families/elementwise/builder.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/helpers.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/util/sha256.hpp"

using rocke::families::SpecError;
using rocke::families::elementwise::build_kv;
using rocke::families::elementwise::ElementwiseSpec;
using rocke_test::check;
using rocke_test::check_eq;
using rocke_test::check_throws;

namespace {

// hashlib.sha256(text).hexdigest() of "abc...zab..." of each length, around the padding edges.
void sha256_vectors() {
  const std::vector<std::pair<std::size_t, std::string>> want = {
      {0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {55, "595615dbe4f0f407ae397d08b4c2cb870cb9b0e11937416f950c5160acf9c005"},
      {56, "784f623b787495078e93ff28a25b581df0584055a7e71d8cd90c454716b92f51"},
      {63, "5ca3e1ef5207490eac01a795e5cc94d59582a5118bf9534665c8668d87aa647c"},
      {64, "2fcd5a0d60e4c941381fcc4e00a4bf8be422c3ddfafb93c809e8d1e2bfffae8e"},
      {65, "1b3cd1877ab2f2f19f7be001722554f336cb799df0329de0bb4c118dc6abc06d"},
      {119, "faef67da856d6fd9c8d12f9ed0a4fefd3cf0ce085ab43e2907418d457e3c354b"},
      {120, "c9512b08619c19fbb503c7da6b46ef20301e5f7a7a5f43989182398536f5c5c8"},
      {1000, "915e53a44c18b19bb06ba5b3f5fcaf1dc4651e8404c63425cfc6174e74659d87"},
  };
  for (const auto& [length, digest] : want) {
    std::string text;
    for (std::size_t i = 0; i < length; ++i) text.push_back(static_cast<char>('a' + i % 26));
    check_eq(rocke::util::sha256_hex(text), digest, "sha256 of " + std::to_string(length) + " bytes");
    check_eq(rocke::util::sha256_hex_portable(text), digest, "portable sha256 of " + std::to_string(length) + " bytes");
  }
}

// sha256_hex (the CPU's SHA instructions where it has them) and the portable code agree on every
// length to 300 bytes (one to six blocks, every tail) of bytes that use all eight bits.
void sha256_paths_agree() {
  std::string text;
  std::uint32_t seed = 12345;
  for (std::size_t length = 0; length <= 300; ++length) {
    check_eq(rocke::util::sha256_hex(text), rocke::util::sha256_hex_portable(text),
             "sha256 paths at " + std::to_string(length) + " bytes");
    seed = seed * 1664525u + 1013904223u;
    text.push_back(static_cast<char>(seed >> 24));
  }
  std::printf("sha256: %s\n", rocke::util::sha256_uses_cpu_instructions() ? "SHA instructions" : "portable code");
}

void spec_texts() {
  ElementwiseSpec spec = ElementwiseSpec::from_kv("vec=8 op=add dtype=f16 block=256");
  check_eq(spec.to_kv(), "block=256 dtype=f16 op=add vec=8", "to_kv sorts the keys");
  check_eq(spec.digest(), "b7879598310a99a14b2e2e18347bb7de49836c8d9110ea9eca21a9433e9ede9d", "digest");
  check_eq(spec.kernel_name(), "elementwise_b787959831", "kernel name");
  check(spec.inputs() == std::vector<std::string>{"x", "y"}, "binary inputs");

  const std::vector<std::pair<std::string, std::string>> refusals = {
      {"", "elementwise: missing key 'block'"},
      {"block=256 dtype=f16 op=add vec=8 ", "elementwise: malformed pair '' (expected key=value)"},
      {"=1", "elementwise: malformed pair '=1' (expected key=value)"},
      {"lanes=4", "elementwise: unknown key 'lanes'; known keys: block, dtype, op, vec"},
      {"vec=8 vec=4", "elementwise: key 'vec' given twice"},
      {"block=256 dtype=f16 op=add", "elementwise: missing key 'vec'"},
      {"block=0256", "elementwise: block=0256: must be a decimal integer"},
      {"block=1234567890123456789", "elementwise: block=1234567890123456789: must be a decimal integer"},
      {"dtype=f/16", "elementwise: dtype=f/16: must be letters, digits, '_', '.' or '-'"},
      {"block=256 dtype=f16 op=tanh vec=3",
       "elementwise: op=tanh: must be one of add, sub, mul, max, relu, silu, gelu_tanh"},
      {"block=256 dtype=f64 op=add vec=1", "elementwise: dtype=f64: must be one of f16, bf16, f32"},
      {"block=256 dtype=f16 op=add vec=3", "elementwise: vec=3: must be 1, 2, 4 or 8"},
      {"block=256 dtype=f32 op=add vec=8", "elementwise: vec=8: one f32 access holds at most 4 elements (16 bytes)"},
      {"block=-0 dtype=f32 op=add vec=1", "elementwise: block=0: must be a multiple of 32 in 32..1024"},
      {"block=1056 dtype=f32 op=add vec=1", "elementwise: block=1056: must be a multiple of 32 in 32..1024"},
  };
  for (const auto& [kv, message] : refusals) {
    check_throws<SpecError>([&] { ElementwiseSpec::from_kv(kv); }, message, "from_kv '" + kv + "'");
  }
  check_throws<SpecError>([] { rocke::families::parse_value("gemm", "bias", "2", rocke::families::FieldKind::Bool); },
                          "gemm: bias=2: must be 0 or 1", "bool value");
}

void helper_facts() {
  using namespace rocke::helpers;
  check(ceil_div(0, 4) == 0 && ceil_div(7, 4) == 2 && ceil_div(8, 4) == 2, "ceil_div");
  check(pow2_factor(96) == 32 && pow2_factor(1) == 1, "pow2_factor");
  check(gcd_all({}) == 0 && gcd_all({0, 0}) == 0 && gcd_all({12, -18, 0}) == 6, "gcd_all");
  check(guaranteed_align(2, 16, {}) == 16 && guaranteed_align(2, 16, {0}) == 16, "guaranteed_align of no step");
  check(guaranteed_align(2, 16, {40, 24}) == 16 && guaranteed_align(4, 16, {3}) == 4, "guaranteed_align");
  check(guaranteed_align(2, 8, {64}) == 8, "guaranteed_align cap");
  check(split_tile(64, 32, 256, 2) == TileSplit{64, 32, 256, 8, 1}, "split_tile widest");
  check(split_tile(128, 32, 64, 4) == TileSplit{128, 32, 64, 4, 16}, "split_tile f32");
  check(!split_tile(16, 16, 512, 2) && !split_tile(3, 5, 7, 4), "split_tile refuses");
  check_throws<rocke::KeyError>([] { elem_bytes("i32"); }, "'i32'", "elem_bytes of a non-float dtype");
}

void elementwise_builds() {
  rocke::ir::KernelDef kernel = build_kv("block=256 dtype=f16 op=add vec=8", "gfx942");
  check_eq(kernel.name, "elementwise_b787959831", "kernel name");
  check(kernel.params.size() == 4, "x, y, out, n");
  check(rocke::ir::print_kernel(kernel).find("\"out_value\" : vec<f16x8> = arith.truncf") != std::string::npos,
        "rounds to f16");
  check_throws<SpecError>([] { build_kv("block=96 dtype=f16 op=add vec=8", "gfx942"); },
                          "elementwise: block=96: must be a multiple of the wave size 64 of gfx942", "arch rule");
  check_throws<rocke::arch::UnknownArchError>([] { build_kv("block=96 dtype=f16 op=add vec=8", "gfx90a"); },
                                              "unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90",
                                              "unknown arch");
}

}  // namespace

int main() {
  sha256_vectors();
  sha256_paths_agree();
  spec_texts();
  helper_facts();
  elementwise_builds();
  return rocke_test::finish("rocke_families_test");
}
