// rocKE example host: serve a problem's plan from a code-object catalog, with the C++ engine only
// (no Python, no GPU): plan the problem with the C++ dispatcher, read the catalog (catalog.json,
// rocke.catalog/2, built by `rocke catalog build --problems FILE`), find each launch's code object
// by the spec digest of its family and spec, check its sha256, and print what would be launched:
// per launch the code object, kernel symbol, grid, block and arguments, then the workspace slices
// and the buffers to zero first.
// Python twin: rocke_library.dispatch.serve.serve_problem (the same text byte for byte).
//
//     rocke_serve_example CATALOG_DIR KIND ARCH "PROBLEM KV"
//
// Exit 0 and the launches (a dead plan: nothing to launch); 1 for a refused plan (its text, with
// every candidate's reasons, on stderr) or a catalog that cannot serve it (one line naming the
// missing or altered code object, or the launch the catalog lacks); 2 for a bad command line.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/gates/catalog.hpp"
#include "rocke_library/dispatch/dispatch.hpp"
#include "rocke_library/dispatch/serve.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: rocke_serve_example CATALOG_DIR KIND ARCH \"PROBLEM KV\"\n";
    return 2;
  }
  const std::filesystem::path catalog_dir = argv[1];
  const std::string kind = argv[2];
  const std::string arch = argv[3];
  const std::string problem = argv[4];
  namespace dispatch = rocke::library::dispatch;
  try {
    dispatch::Plan plan = dispatch::plan(kind, problem, arch);  // the same plan `rocke plan` gives
    if (plan.status == "refused") {
      std::cerr << plan.to_text();
      return 1;
    }
    rocke::gates::catalog::Catalog catalog = rocke::gates::catalog::read_catalog(catalog_dir);
    std::vector<dispatch::ServedLaunch> served = dispatch::serve(plan, catalog);  // by spec digest
    std::cout << dispatch::served_text(plan, catalog, served);
    return 0;
  } catch (const std::exception& exc) {
    std::cerr << "rocke_serve_example: " << exc.what() << "\n";
    return 1;
  }
}
