// Python twin: rocke/families/refusals.py (RefusalTable.find, table_name, refusal_message,
// check_resources, table_listing)
#include "rocke/families/refusals.hpp"

#include <vector>

#include "rocke/errors.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families {

const RefusalRow* RefusalTable::find(std::string_view arch, std::string_view digest) const {
  for (const RefusalRow& row : rows) {
    if (row.arch == arch && row.digest == digest) return &row;
  }
  return nullptr;
}

bool RefusalTable::lists(std::string_view arch) const {
  for (const RefusalRow& row : rows) {
    if (row.arch == arch) return true;
  }
  return false;
}

std::string table_name(std::string_view family) { return util::cat(family, ".refusals.json"); }

std::string refusal_message(std::string_view family, const RefusalRow& row) {
  std::vector<std::string> parts;
  for (const Measured& m : row.measured) {
    std::vector<std::string> figures;
    for (std::size_t i = 0; i < kFigures.size(); ++i) {
      figures.push_back(util::cat(kFigures[i], "=", util::int_text(m.figures[i])));
    }
    parts.push_back(util::cat(m.flavor, " ", m.reason, " (", util::join(figures, " "), ")"));
  }
  return util::cat(family, ": refused on ", row.arch, " by its resources at the real LLVM (", table_name(family),
                   "): ", util::join(parts, "; "));
}

void check_resources(const RefusalTable& table, std::string_view canonical_kv, std::string_view arch) {
  const RefusalRow* row = table.find(arch, spec_digest(table.family, canonical_kv));  // spec.digest()
  if (row != nullptr) throw ValueError(refusal_message(table.family, *row));
}

std::vector<std::array<std::string, 3>> table_listing(const RefusalTable& table) {
  std::vector<std::array<std::string, 3>> out;
  for (const RefusalRow& row : table.rows) {
    out.push_back({std::string(row.arch), std::string(row.digest), refusal_message(table.family, row)});
  }
  return out;
}

}  // namespace rocke::families
