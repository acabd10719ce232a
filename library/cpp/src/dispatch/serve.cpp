// Python twin: rocke_library/dispatch/serve.py
#include "rocke_library/dispatch/serve.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "rocke/errors.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/util/sha256.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/dispatch/dispatch.hpp"

namespace rocke::library::dispatch {

namespace catalog = gates::catalog;

std::vector<ServedLaunch> serve(const Plan& plan, const catalog::Catalog& catalog) {
  if (plan.status == "refused") {
    throw ValueError(util::cat(plan.kind, " on ", plan.arch, " is refused: no launch to serve"));
  }
  const std::string directory = catalog::path_text(catalog.directory);
  if (auto skipped = catalog.skipped.find(plan.arch); skipped != catalog.skipped.end()) {
    throw ValueError(util::cat("catalog ", directory, " skipped ", plan.arch, ": ", skipped->second));
  }
  std::vector<ServedLaunch> served;
  for (std::size_t i = 0; i < plan.launches.size(); ++i) {
    const Launch& launch = plan.launches[i];
    const std::string index = std::to_string(i);
    std::string digest = families::spec_digest(launch.family, launch.spec);
    const catalog::CatalogEntry* entry = catalog.find(plan.arch, digest);
    if (entry == nullptr) {
      throw ValueError(util::cat("catalog ", directory, " has no code object for launch ", index, " of ", plan.kind,
                                 " on ", plan.arch, ": ", launch.family, " [", launch.spec, "] (spec digest ", digest,
                                 "); rocke catalog build --problems FILE with this problem in FILE builds it"));
    }
    if (entry->family != launch.family || entry->spec != launch.spec || entry->kernel != launch.contract.kernel) {
      throw ValueError(util::cat("catalog ", directory, ": entry ", plan.arch, " ", digest, " holds ", entry->family,
                                 " [", entry->spec, "] (", entry->kernel, "), not launch ", index, "'s ",
                                 launch.family, " [", launch.spec, "] (", launch.contract.kernel, ")"));
    }
    const std::filesystem::path path = catalog.code_object(*entry);
    const std::string where = catalog::path_text(path);
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) {
      throw ValueError(util::cat(where, ": no such code object (launch ", index, "; listed in ", catalog::kIndex, ")"));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ValueError(util::cat(where, ": cannot be read (launch ", index, ")"));
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string actual = util::sha256_hex(data);
    if (actual != entry->hsaco_sha256) {
      throw ValueError(util::cat(where, ": sha256 ", actual, " is not ", entry->hsaco_sha256, " of ", catalog::kIndex,
                                 " (launch ", index, ")"));
    }
    served.push_back(ServedLaunch{i, std::move(digest), *entry});
  }
  return served;
}

std::string served_text(const Plan& plan, const catalog::Catalog& catalog, const std::vector<ServedLaunch>& served) {
  if (plan.status == "dead") return util::cat(plan.kind, " on ", plan.arch, ": dead, nothing to launch\n");
  auto [slices, total] = plan.workspace();
  const std::string index = catalog::path_text(catalog.directory / catalog::kIndex);
  std::vector<std::string> lines = {util::cat(plan.kind, " on ", plan.arch, ": ", std::to_string(served.size()),
                                              " launch(es) from ", index, " (", catalog.flavor, "), workspace ",
                                              std::to_string(total), " bytes")};
  for (const ServedLaunch& item : served) {
    const families::LaunchContract& contract = plan.launches[item.launch].contract;
    const auto& grid = contract.grid;
    const auto& block = contract.block;
    lines.push_back(util::cat("  launch ", std::to_string(item.launch), ": ", item.entry.kernel, " in ",
                              item.entry.hsaco, " (sha256 ", item.entry.hsaco_sha256, ")"));
    lines.push_back(util::cat("    spec digest ", item.spec_digest));
    lines.push_back(util::cat("    grid (", std::to_string(grid[0]), ", ", std::to_string(grid[1]), ", ",
                              std::to_string(grid[2]), ") block (", std::to_string(block[0]), ", ",
                              std::to_string(block[1]), ", ", std::to_string(block[2]), ")"));
    for (const families::KernelArg& arg : contract.args) {
      std::string what;
      if (arg.role != "scalar") {
        what = util::cat(" ", arg.role, ", ", std::to_string(arg.bytes), " bytes");
      } else if (arg.value.has_value()) {
        what = util::cat(" = ", std::to_string(*arg.value));
      } else {
        what = ", set by the caller";
      }
      lines.push_back(util::cat("    arg ", arg.name, ": ", arg.type, what));
    }
  }
  for (const WorkspaceSlice& piece : slices) {
    lines.push_back(util::cat("  workspace ", piece.name, ": offset ", std::to_string(piece.offset), ", ",
                              std::to_string(piece.bytes), " bytes"));
  }
  for (const auto& [i, arg] : plan.zero_init()) {
    lines.push_back(util::cat("  zero before launch ", std::to_string(i), ": ", arg));
  }
  return util::join(lines, "\n") + "\n";
}

std::string serve_problem(std::string_view kind, std::string_view text, std::string_view arch,
                          const std::filesystem::path& directory) {
  Plan result = plan(kind, text, arch);
  catalog::Catalog found = catalog::read_catalog(directory);
  return served_text(result, found, serve(result, found));
}

}  // namespace rocke::library::dispatch
