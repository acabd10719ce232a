// Python twin: rocke/arch/arch_domain.py (arch_domain_table, arch_domain_status)
// The table is read once, on first use, into (flavor, declaration) -> status per arch, with the
// arch columns in archs.toml order as the Python reader requires them.
#include "rocke/arch/arch_domain.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/data/document.hpp"

namespace rocke::arch {

namespace {

using Section = std::unordered_map<std::string, std::vector<std::string>>;

const std::unordered_map<std::string, Section>& arch_domain_table() {
  static const std::unordered_map<std::string, Section> table = [] {
    std::unordered_map<std::string, Section> sections;
    data::NodeRef root = data::document("rocke/arch/data/arch_domain.toml");
    const std::vector<std::string>& archs = arch_names();
    for (std::size_t i = 0; i < root.size(); ++i) {
      data::NodeRef section = root.at(i);
      if (!section.is_table()) continue;  // the format string
      Section& entries = sections[std::string(root.key_at(i))];
      for (std::size_t j = 0; j < section.size(); ++j) {
        data::NodeRef row = section.at(j);
        std::vector<std::string> statuses;
        for (const std::string& arch : archs) statuses.emplace_back(row[arch].str());
        entries.emplace(std::string(section.key_at(j)), std::move(statuses));
      }
    }
    return sections;
  }();
  return table;
}

}  // namespace

std::optional<std::string> arch_domain_status(std::string_view name, std::string_view arch, std::string_view flavor) {
  const auto& table = arch_domain_table();
  auto section = table.find(std::string(flavor));
  const std::vector<std::string>& archs = arch_names();
  auto column = std::find(archs.begin(), archs.end(), arch);
  if (section == table.end() || column == archs.end()) return std::nullopt;
  auto entry = section->second.find(std::string(name));
  if (entry == section->second.end()) return std::nullopt;
  return entry->second[static_cast<std::size_t>(column - archs.begin())];
}

}  // namespace rocke::arch
