// Python twin: none (see rocke/gates/emitter_cli.hpp); the record format is rocke/gates/frames.py.
#include "rocke/gates/emitter_cli.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "rocke/arch/flavors.hpp"
#include "rocke/families/configs.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/gates/emitters.hpp"
#include "rocke/gates/frames.hpp"
#include "rocke/gates/golden.hpp"
#include "rocke/ir/source.hpp"
#include "rocke/util/strings.hpp"
#include "rocke/version.hpp"

namespace rocke::gates {

namespace {

// A bad command line (exit 2) or a failure after it was accepted (exit 1).
struct UsageError {
  std::string message;
};
struct RunError {
  std::string message;
};

struct Options {
  std::optional<std::string> arch;
  std::optional<std::string> flavor;
  std::optional<std::string> family;
  std::optional<std::string> configs;
  std::optional<std::string> flavors;
  std::optional<std::string> golden;
  std::optional<std::string> root;
  std::vector<std::string> files;
  bool check_golden = false;
  bool list_families = false;
  bool help = false;
  bool version = false;
};

std::string usage(std::string_view program) {
  return util::cat("usage: ", program, " --arch ARCH --flavor FLAVOR FILE...\n", "       ", program,
                   " --family NAME --configs FILE --flavors F1,F2,...\n", "       ", program,
                   " --check-golden --family NAME (--configs FILE --golden FILE | --root DIR) [--flavors F1,F2,...]\n",
                   "       ", program,
                   " --list-families | --help | --version\n");
}

Options parse_args(const std::vector<std::string>& args) {
  Options opts;
  const std::pair<std::string_view, std::optional<std::string> Options::*> valued[] = {
      {"--arch", &Options::arch},       {"--flavor", &Options::flavor},   {"--family", &Options::family},
      {"--configs", &Options::configs}, {"--flavors", &Options::flavors}, {"--golden", &Options::golden},
      {"--root", &Options::root},
  };
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (options_done || arg.empty() || arg[0] != '-' || arg == "-") {
      opts.files.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      options_done = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      opts.help = true;
      continue;
    }
    if (arg == "--version") {
      opts.version = true;
      continue;
    }
    if (arg == "--list-families") {
      opts.list_families = true;
      continue;
    }
    if (arg == "--check-golden") {
      opts.check_golden = true;
      continue;
    }
    std::string_view name = arg.substr(0, arg.find('='));
    auto option = std::find_if(std::begin(valued), std::end(valued), [&](const auto& o) { return o.first == name; });
    if (option == std::end(valued)) throw UsageError{util::cat("unknown option '", name, "'")};
    std::string value;
    if (name.size() < arg.size()) {
      value = std::string(arg.substr(name.size() + 1));
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw UsageError{util::cat(name, " needs a value")};
    }
    if (value.empty()) throw UsageError{util::cat(name, " needs a non-empty value")};
    if ((opts.*(option->second)).has_value()) throw UsageError{util::cat(name, " given twice")};
    opts.*(option->second) = std::move(value);
  }
  return opts;
}

// A FILE or --configs input ("-" is stdin), size-limited as rocke/ir/source.py reads them: a
// directory says "Is a directory", an input over max_input_bytes is refused before more is read.
std::string read_file(const std::string& path) {
  try {
    return ir::read_source(path);
  } catch (const ir::InputError& exc) {
    throw RunError{exc.message()};
  }
}

std::vector<std::string> parse_flavors(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = list.find(',', start);
    std::string flavor = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      arch::get_flavor(flavor);
    } catch (const ValueError& exc) {
      throw UsageError{util::cat("--flavors: ", exc.what())};
    }
    if (std::find(out.begin(), out.end(), flavor) != out.end()) {
      throw UsageError{util::cat("--flavors: '", flavor, "' given twice")};
    }
    out.push_back(std::move(flavor));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

int run_files(const Options& opts, std::ostream& out) {
  if (opts.files.empty()) throw UsageError{"--arch mode needs at least one FILE"};
  std::vector<std::string> texts;
  for (const std::string& path : opts.files) texts.push_back(read_file(path));
  FrameWriter writer(out);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    write_emission(writer, static_cast<std::int64_t>(i), emit_text(texts[i], *opts.arch, *opts.flavor), false);
  }
  writer.end();
  return 0;
}

// The family named by --family; an unknown one is a usage error ("unknown family 'X'; known: ...").
const families::Family& family_arg(const families::FamilyRegistry& registry, const std::string& name) {
  try {
    return registry.get(name);
  } catch (const Error& exc) {
    throw UsageError{exc.what()};
  }
}

int run_family(const Options& opts, std::ostream& out, const families::FamilyRegistry& registry) {
  std::vector<std::string> flavors = parse_flavors(*opts.flavors);
  const families::Family* family = &family_arg(registry, *opts.family);
  std::vector<families::ConfigLine> configs;
  try {
    configs = families::family_configs(read_file(*opts.configs), *family);
  } catch (const families::ConfigError& exc) {
    throw RunError{exc.what()};
  }
  FrameWriter writer(out);
  for (std::size_t i = 0; i < configs.size(); ++i) {
    Emission emission;
    try {
      emission = emit_config(*family, configs[i], flavors);
    } catch (const std::exception& exc) {
      writer.flush();  // the records of the configs before this one
      throw RunError{util::cat(family->name, ".cfg line ", std::to_string(configs[i].lineno), ": crash: ", exc.what())};
    }
    write_emission(writer, static_cast<std::int64_t>(i), emission, true);
  }
  writer.end();
  return 0;
}

// --check-golden: the golden store's check (rocke check golden) over one family, hashed in C++.
int run_check_golden(const Options& opts, std::ostream& out, const families::FamilyRegistry& registry) {
  if (!opts.family) throw UsageError{"--family is required with --check-golden"};
  if (opts.root && (opts.configs || opts.golden)) throw UsageError{"--root and --configs/--golden do not mix"};
  if (!opts.root && !(opts.configs && opts.golden)) {
    throw UsageError{"--check-golden needs --root DIR, or both --configs FILE and --golden FILE"};
  }
  if (!opts.files.empty()) throw UsageError{util::cat("unexpected argument '", opts.files[0], "'")};
  std::vector<std::string> flavors = opts.flavors ? parse_flavors(*opts.flavors) : arch::flavor_names();
  const families::Family* family = &family_arg(registry, *opts.family);
  gates::FamilyFiles files;
  if (opts.root) {
    try {
      files = gates::find_family_files(*opts.root, family->name);
    } catch (const ValueError& exc) {
      throw RunError{exc.what()};
    }
  } else {
    files = gates::FamilyFiles{*opts.configs, *opts.golden};
  }
  std::string config_data = read_file(files.config.string());
  std::optional<std::string> stored;
  std::error_code ec;
  if (std::filesystem::is_regular_file(files.golden, ec)) stored = read_file(files.golden.string());
  std::vector<std::string> problems;
  gates::Golden fresh;
  try {
    fresh = gates::compute(*family, config_data, flavors, problems);
  } catch (const families::ConfigError& exc) {
    throw RunError{exc.what()};
  }
  for (std::string& problem : problems) problem = util::cat(family->name, ": ", problem);
  for (std::string& problem : gates::compare(family->name, stored, fresh)) problems.push_back(std::move(problem));
  for (const std::string& problem : problems) out << problem << "\n";
  if (!problems.empty()) {
    out << family->name << ": golden FAILED (" << problems.size() << " problems; config " << files.config.string()
        << ", golden " << files.golden.string() << ")\n";
    return 1;
  }
  out << family->name << ": golden ok (" << fresh.count << " configs x " << flavors.size()
      << " flavors, hashed natively; config " << files.config.string() << ", golden " << files.golden.string()
      << ")\n";
  return 0;
}

// One line: newlines in a message would break the one-line contract.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

}  // namespace

int run_cli(std::string_view program, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return run_cli(program, args, out, err, families::registry());
}

int run_cli(std::string_view program, const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            const families::FamilyRegistry& registry) {
  try {
    Options opts = parse_args(args);
    if (opts.help) {
      out << usage(program);
      return 0;
    }
    if (opts.version) {
      out << program << " " << version() << "\n";
      return 0;
    }
    if (opts.list_families) {
      for (const std::string& name : registry.names()) out << name << "\n";
      return 0;
    }
    bool file_mode = opts.arch || opts.flavor;
    if (opts.check_golden) {
      if (file_mode) throw UsageError{"--arch/--flavor and --check-golden do not mix"};
      return run_check_golden(opts, out, registry);
    }
    if (opts.golden || opts.root) throw UsageError{"--golden and --root need --check-golden"};
    bool family_mode = opts.family || opts.configs || opts.flavors;
    if (file_mode && family_mode) throw UsageError{"--arch/--flavor and --family/--configs/--flavors do not mix"};
    if (file_mode) {
      if (!opts.arch) throw UsageError{"--arch is required with --flavor"};
      if (!opts.flavor) throw UsageError{"--flavor is required with --arch"};
      return run_files(opts, out);
    }
    if (family_mode) {
      if (!opts.family) throw UsageError{"--family is required"};
      if (!opts.configs) throw UsageError{"--configs is required with --family"};
      if (!opts.flavors) throw UsageError{"--flavors is required with --family"};
      if (!opts.files.empty()) throw UsageError{util::cat("unexpected argument '", opts.files[0], "'")};
      return run_family(opts, out, registry);
    }
    throw UsageError{"nothing to do"};
  } catch (const UsageError& exc) {
    err << program << ": error: " << one_line(exc.message) << " (" << program << " --help shows the usage)\n";
    return 2;
  } catch (const RunError& exc) {
    err << program << ": error: " << one_line(exc.message) << "\n";
    return 1;
  } catch (const std::exception& exc) {
    err << program << ": error: crash: " << one_line(exc.what()) << "\n";
    return 1;
  }
}

}  // namespace rocke::gates
