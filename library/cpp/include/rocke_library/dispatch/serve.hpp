// rocKE library: serving a plan from a code-object catalog (rocke.catalog/2).
// Python twin: rocke_library/dispatch/serve.py (same checks in the same order, same messages,
// the same text byte for byte).
//
// Each launch's code object is found by the spec digest of its family and spec, checked against
// the launch and its bytes against the catalog's sha256; served_text is what a host would launch
// (no GPU).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/gates/catalog.hpp"
#include "rocke_library/dispatch/plan.hpp"

namespace rocke::library::dispatch {

struct ServedLaunch {
  std::size_t launch = 0;  // the launch's index in the plan
  std::string spec_digest;
  gates::catalog::CatalogEntry entry;
};

// The catalog entry of every launch of plan, in launch order (none for a dead plan); ValueError
// for a refused plan, an arch the catalog skipped, a launch without an entry (saying how to build
// it), an entry holding another spec, a missing or altered code object.
std::vector<ServedLaunch> serve(const Plan& plan, const gates::catalog::Catalog& catalog);

// What a host would launch for plan from catalog (serve's launches), one line a fact.
std::string served_text(const Plan& plan, const gates::catalog::Catalog& catalog,
                        const std::vector<ServedLaunch>& served);

// Python: serve_problem -- plan a problem, read the catalog of directory and serve the plan from it
// (served_text); the errors of plan, read_catalog and serve.
std::string serve_problem(std::string_view kind, std::string_view text, std::string_view arch,
                          const std::filesystem::path& directory);

}  // namespace rocke::library::dispatch
