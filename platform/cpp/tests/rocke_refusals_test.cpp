// ctest: the resource-refusal check in build_family (a planted row refuses its spec before the
// builder runs, with refusal_message's text; other specs and other archs build), and the
// generated tables registered with platform's families.
// Python twins: platform/tests/test_family_refusals.py (the byte-for-byte comparison of the
// message with Python's is there, through rocke_engine.refusal_message and refusal_listing).
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/errors.hpp"
#include "rocke/families/elementwise/builder.hpp"
#include "rocke/families/elementwise/register.hpp"
#include "rocke/families/gemm/register.hpp"
#include "rocke/families/refusals.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/util/sha256.hpp"

using rocke::families::Family;
using rocke::families::Measured;
using rocke::families::RefusalRow;
using rocke::families::RefusalTable;
using rocke_test::check;
using rocke_test::check_eq;
using rocke_test::check_throws;

namespace {

constexpr const char* kKv = "block=256 dtype=f16 op=add vec=8";

void planted_row_refuses() {
  const std::string digest = rocke::util::sha256_hex(std::string("elementwise:") + kKv);
  const Measured measured[] = {{"llvm22", "spills", {256, 0, 36, 343, 0, 1248, 6144, 5}}};
  const RefusalRow rows[] = {{"gfx942", digest, kKv, measured}};
  const RefusalTable table{"elementwise", rows};
  Family family{.name = "elementwise",
                .owner = "rocke",
                .fields = {},
                .build = [](std::string_view kv, std::string_view arch) {
                  return rocke::families::elementwise::build_kv(kv, arch);
                },
                .normalize = [](std::string_view kv) {
                  return rocke::families::elementwise::ElementwiseSpec::from_kv(kv).to_kv();
                },
                .refusals = &table};
  const std::string want =
      "elementwise: refused on gfx942 by its resources at the real LLVM (elementwise.refusals.json): llvm22 spills "
      "(vgprs=256 agprs=0 sgprs=36 vgpr_spill=343 sgpr_spill=0 scratch_bytes=1248 lds_bytes=6144 occupancy=5)";
  check_eq(rocke::families::refusal_message("elementwise", rows[0]), want, "refusal_message");
  check_throws<rocke::ValueError>([&] { rocke::families::build_family(family, kKv, "gfx942"); }, want,
                                  "a listed spec is refused");
  // Another arch, and a spec error before the table (its text, not the table's).
  check(!rocke::ir::print_kernel(rocke::families::build_family(family, kKv, "gfx1100")).empty(),
        "the same spec on another arch builds");
  check_throws<rocke::ValueError>([&] { rocke::families::build_family(family, "block=256 dtype=f16 op=add", "gfx942"); },
                                  "elementwise: missing key 'vec'", "spec errors come first");
  check(table.find("gfx942", digest) == &rows[0] && table.find("gfx950", digest) == nullptr, "find");
  check(table.lists("gfx942") && !table.lists("gfx1100"), "lists: the archs with rows");
  // On an arch without rows the spec is not normalised: a spec error is the build's own, the same text.
  check_throws<rocke::ValueError>(
      [&] { rocke::families::build_family(family, "block=256 dtype=f16 op=add", "gfx1100"); },
      "elementwise: missing key 'vec'", "spec errors on an unlisted arch");
  auto listing = rocke::families::table_listing(table);
  check(listing.size() == 1 && listing[0][0] == "gfx942" && listing[0][1] == digest && listing[0][2] == want,
        "table_listing");
}

void registered_tables() {
  const Family& gemm = rocke::families::registry().get("gemm");
  const Family& elementwise = rocke::families::registry().get("elementwise");
  check(gemm.refusals == &rocke::families::gemm::kRefusals, "gemm registers its generated table");
  check(elementwise.refusals == &rocke::families::elementwise::kRefusals,
        "elementwise registers its generated table");
  check(gemm.refusals->family == "gemm" && elementwise.refusals->family == "elementwise", "table family names");
}

}  // namespace

int main() {
  planted_row_refuses();
  registered_tables();
  return rocke_test::finish("rocke_refusals_test");
}
