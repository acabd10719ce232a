// Python twin: none (see rocke/gates/robustness.hpp).
#include "rocke/gates/robustness.hpp"

#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <mutex>
#include <thread>
#include <typeinfo>

#include "rocke/families/configs.hpp"
#include "rocke/gates/emitters.hpp"
#include "rocke/errors.hpp"
#include "rocke/gates/golden.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::gates {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string describe(const std::exception& exc) { return util::cat(typeid(exc).name(), ": ", exc.what()); }

// Build, print and lower one (kv, arch); true when built. ValueErrors are refusals.
bool run_spec(const families::Family& family, std::string_view kv, std::string_view arch,
              const std::vector<std::string>& flavors) {
  if (!family.fields.empty()) families::canonical_kv(family.fields, kv);
  if (family.normalize) {
    try {
      family.normalize(kv);
    } catch (const ValueError&) {
    }
  }
  try {
    ir::KernelDef kernel = family.build(kv, arch);
    ir::print_kernel(kernel);
    for (const std::string& flavor : flavors) lower::lower(kernel, arch, flavor);
    return true;
  } catch (const ValueError&) {
    return false;
  }
}

// The emission of one config as one string (what threads compare).
std::string emission_text(const families::Family& family, const families::ConfigLine& config,
                          const std::vector<std::string>& flavors) {
  gates::Emission out = gates::emit_config(family, config, flavors);
  if (out.refusal) return util::cat("refusal:", *out.refusal);
  std::string text = out.ir;
  for (const auto& [flavor, ll] : out.ll) text += util::cat("\n@@", flavor, "\n", ll);
  return text;
}

}  // namespace

std::vector<std::string> config_text_escapes(const families::FamilyRegistry& registry,
                                             const std::vector<std::string>& families, std::string_view text,
                                             const std::vector<std::string>& flavors, FuzzCounts& counts) {
  std::vector<std::string> escapes;
  for (const std::string& name : families) {
    const families::Family& family = registry.get(name);
    ++counts.inputs;
    try {
      families::family_configs(text, family);
      ++counts.config_files;
    } catch (const families::ConfigError&) {
    } catch (const std::exception& exc) {
      escapes.push_back(util::cat(name, ": config reader: ", describe(exc)));
    }
    std::size_t lineno = 0;
    for (std::string_view line : lines_of(text)) {
      ++lineno;
      if (line.substr(0, 7) == "refuse ") line.remove_prefix(7);
      std::size_t space = line.find(' ');
      std::string_view arch = line.substr(0, space);
      std::string_view kv = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
      ++counts.lines;
      try {
        if (run_spec(family, kv, arch, flavors)) ++counts.built;
      } catch (const std::exception& exc) {
        escapes.push_back(util::cat(name, ": line ", std::to_string(lineno), ": ", describe(exc)));
      }
    }
  }
  return escapes;
}

std::vector<std::string> threaded_mismatches(const families::FamilyRegistry& registry,
                                             const std::vector<std::pair<std::string, std::string>>& config_files,
                                             const std::vector<std::string>& flavors, unsigned threads) {
  struct Job {
    const families::Family* family;
    families::ConfigLine config;
    std::string want;
  };
  std::vector<Job> jobs;
  for (const auto& [name, text] : config_files) {
    const families::Family& family = registry.get(name);
    for (families::ConfigLine& config : families::family_configs(text, family)) {
      Job job{&family, std::move(config), {}};
      job.want = emission_text(family, job.config, flavors);
      jobs.push_back(std::move(job));
    }
  }
  std::mutex mutex;
  std::vector<std::string> mismatches;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        std::size_t at = (k + t) % jobs.size();  // each thread its own order: rotated, odd ones reversed
        const Job& job = jobs[t % 2 == 1 ? jobs.size() - 1 - at : at];
        std::string got;
        try {
          got = emission_text(*job.family, job.config, flavors);
        } catch (const std::exception& exc) {
          got = util::cat("threw ", describe(exc));
        }
        if (got != job.want) {
          std::lock_guard<std::mutex> lock(mutex);
          mismatches.push_back(util::cat(job.family->name, " [", job.config.key(), "]: thread ", std::to_string(t),
                                         " differs from the single-threaded bytes"));
        }
      }
    });
  }
  for (std::thread& thread : pool) thread.join();
  return mismatches;
}

int robustness_driver(std::string_view program, const families::FamilyRegistry& registry,
                      const std::vector<std::string>& families, const std::filesystem::path& root,
                      const std::vector<std::string>& args) {
  const std::vector<std::string> flavors = {"llvm20", "llvm22"};
  unsigned threads = 0;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--threads" && i + 1 < args.size()) {
      threads = static_cast<unsigned>(std::stoul(args[++i]));
    } else {
      files.push_back(args[i]);
    }
  }
  std::vector<std::string> failures;
  FuzzCounts counts;
  for (const std::string& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream data;
    data << in.rdbuf();
    if (!in && !in.eof()) {
      failures.push_back(util::cat(path, ": cannot read"));
      continue;
    }
    for (std::string& escape : config_text_escapes(registry, families, data.str(), flavors, counts)) {
      failures.push_back(util::cat(path, ": ", escape));
    }
  }
  if (!files.empty()) {
    std::printf("%s: %zu inputs, %zu config files accepted, %zu lines, %zu built\n", std::string(program).c_str(),
                counts.inputs, counts.config_files, counts.lines, counts.built);
  }
  if (threads > 0) {
    std::vector<std::pair<std::string, std::string>> config_files;
    for (const std::string& name : families) {
      FamilyFiles found = find_family_files(root, name);
      std::ifstream in(found.config, std::ios::binary);
      std::ostringstream data;
      data << in.rdbuf();
      config_files.emplace_back(name, data.str());
    }
    for (std::string& mismatch : threaded_mismatches(registry, config_files, flavors, threads)) {
      failures.push_back(std::move(mismatch));
    }
    std::printf("%s: %zu families from %u threads\n", std::string(program).c_str(), families.size(), threads);
  }
  for (const std::string& failure : failures) std::fprintf(stderr, "FAILED: %s\n", failure.c_str());
  std::printf("%s: %s\n", std::string(program).c_str(), failures.empty() ? "ok" : "FAILED");
  return failures.empty() ? 0 : 1;
}

}  // namespace rocke::gates
