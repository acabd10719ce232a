// rocke-library-plan: dispatch and launch contracts with no Python.
// Python twins: `rocke plan KIND --problem KV --arch A [--json]` (rocke_library.dispatch.plan) and
// the contract half of `rocke emit kFamily --spec KV --problem KV --out DIR` (Family.launch).
//
//   rocke-library-plan kKind --problem 'k=v ...' --arch A [--json]
//       prints the plan (text, or rocke.plan/1 JSON); exit 0 planned or dead, 1 refused
//   rocke-library-plan --launch kFamily --spec KV --problem 'k=v ...'
//       prints the family's rocke.launch/1 contract for the problem (sizes are integers)
// A malformed command line or problem is one line on stderr and exit 2.
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/dispatch/dispatch.hpp"
#include "rocke_library/families.hpp"

namespace {

constexpr const char* kUsage =
    "usage: rocke-library-plan KIND --problem KV --arch A [--json] | rocke-library-plan --launch FAMILY --spec KV "
    "--problem KV";

struct Args {
  std::optional<std::string> kind, problem, arch, launch, spec;
  bool json = false;
};

Args parse_args(const std::vector<std::string>& argv) {
  Args args;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    auto value = [&](std::optional<std::string>& slot) {
      if (i + 1 >= argv.size()) throw rocke::ValueError(rocke::util::cat(arg, " needs a value"));
      if (slot.has_value()) throw rocke::ValueError(rocke::util::cat(arg, " given twice"));
      slot = argv[++i];
    };
    if (arg == "--problem") value(args.problem);
    else if (arg == "--arch") value(args.arch);
    else if (arg == "--launch") value(args.launch);
    else if (arg == "--spec") value(args.spec);
    else if (arg == "--json") args.json = true;
    else if (!arg.empty() && arg[0] == '-') throw rocke::ValueError(rocke::util::cat("unknown option ", arg));
    else if (args.kind.has_value()) throw rocke::ValueError(rocke::util::cat("unexpected argument ", arg));
    else args.kind = arg;
  }
  if (!args.problem.has_value()) throw rocke::ValueError("--problem is required");
  if (args.launch.has_value()) {
    if (args.kind.has_value() || args.arch.has_value() || args.json || !args.spec.has_value()) {
      throw rocke::ValueError("--launch takes --spec and --problem only");
    }
  } else if (!args.kind.has_value() || !args.arch.has_value() || args.spec.has_value()) {
    throw rocke::ValueError("KIND, --problem and --arch are required (and no --spec)");
  }
  return args;
}

// "k=v ..." with integer values (the contract's problem).
rocke::families::ProblemSizes parse_sizes(const std::string& text) {
  rocke::families::ProblemSizes sizes;
  std::size_t start = 0;
  while (!text.empty() && start <= text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string pair = text.substr(start, end - start);
    std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw rocke::ValueError(rocke::util::cat("malformed pair '", pair, "'"));
    std::string key = pair.substr(0, eq);
    auto value = rocke::families::parse_value("problem", key, pair.substr(eq + 1), rocke::families::FieldKind::Int);
    if (!sizes.emplace(key, std::get<std::int64_t>(value)).second) {
      throw rocke::ValueError(rocke::util::cat("key '", key, "' given twice"));
    }
    start = end + 1;
  }
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> argv_list(argv + 1, argv + argc);
  try {
    Args args = parse_args(argv_list);
    if (args.launch.has_value()) {
      std::cout << rocke::library::launch_contract(*args.launch, *args.spec, parse_sizes(*args.problem))
                       .to_json();
      return 0;
    }
    rocke::library::dispatch::Plan plan = rocke::library::dispatch::plan(*args.kind, *args.problem, *args.arch);
    std::cout << (args.json ? plan.to_json() : plan.to_text());
    return plan.status == "refused" ? 1 : 0;
  } catch (const rocke::Error& exc) {
    std::string message = exc.message();
    for (char& ch : message) {
      if (ch == '\n') ch = ' ';
    }
    std::cerr << "rocke-library-plan: error: " << message << " (" << kUsage << ")\n";
    return 2;
  }
}
