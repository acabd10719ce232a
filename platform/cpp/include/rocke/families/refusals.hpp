// rocKE C++ engine: resource-refusal tables, the specs a family refuses because of what the real
// LLVM made of them.
// Python twin: rocke/families/refusals.py (Measured, RefusalRow, RefusalTable, refusal_message,
// check_resources)
//
// A family's table is generated from its <family>.refusals.json (written by the validity gate)
// into a committed source of its owner package (platform/tools/gen_cpp_tables.py for platform's;
// a library package generates its own the same way); no hand copy. Rows are sorted by
// (arch, digest); the measured figures of each flavor are in kFigures order.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rocke::families {

// The measured figures a row records per flavor, in the order the refusal message names them.
inline constexpr std::array<std::string_view, 8> kFigures = {
    "vgprs", "agprs", "sgprs", "vgpr_spill", "sgpr_spill", "scratch_bytes", "lds_bytes", "occupancy",
};

// What one flavor's LLVM made of a refused spec's kernel.
struct Measured {
  std::string_view flavor;
  std::string_view reason;
  std::array<std::int64_t, kFigures.size()> figures;  // kFigures order
};

struct RefusalRow {
  std::string_view arch;
  std::string_view digest;  // sha256 of "family:kv"
  std::string_view kv;
  std::span<const Measured> measured;  // sorted by flavor
};

struct RefusalTable {
  std::string_view family;
  std::span<const RefusalRow> rows;  // sorted by (arch, digest)

  // The row of (arch, digest), or nullptr.
  const RefusalRow* find(std::string_view arch, std::string_view digest) const;
  // Whether a row is for arch: a table that lists none refuses no spec there, unhashed.
  bool lists(std::string_view arch) const;
};

// "<family>.refusals.json"
std::string table_name(std::string_view family);

// The one refusal text both engines give for a listed spec.
std::string refusal_message(std::string_view family, const RefusalRow& row);

// ValueError (refusal_message) when the table lists (arch, sha256 of "family:canonical_kv").
void check_resources(const RefusalTable& table, std::string_view canonical_kv, std::string_view arch);

// (arch, digest, refusal_message) of every row in table order (Python twin: table_listing): what
// the bindings expose, so a test compares the compiled table with the JSON it was generated from.
std::vector<std::array<std::string, 3>> table_listing(const RefusalTable& table);

}  // namespace rocke::families
