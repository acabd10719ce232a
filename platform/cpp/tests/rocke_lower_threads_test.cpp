// ctest: lowering from many threads at once gives the single-threaded answers, starting on cold
// tables (flavors, intrinsics, arch domain, lowering dispatch are built on first use).
// Python twin: none (the Python engine is used from one thread per interpreter).
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/errors.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/lower/lower.hpp"

namespace {

// Every sample on every arch and flavor (plus an unknown flavor and arch): the .ll text or the
// refusal text. Each kernel is parsed from its text, as the bindings do.
std::vector<std::string> lower_everything() {
  std::vector<std::string> out;
  for (auto& [name, sample] : rocke::ir::samples::sample_kernels()) {
    rocke::ir::KernelDef kernel = rocke::ir::parse_kernel(rocke::ir::print_kernel(sample));
    std::vector<std::string> archs = rocke::arch::arch_names();
    archs.emplace_back("gfx90a");
    for (const std::string& arch : archs) {
      for (const char* flavor : {"llvm20", "llvm22", "llvm99"}) {
        try {
          out.push_back(rocke::lower::lower(kernel, arch, flavor));
        } catch (const rocke::Error& exc) {
          out.emplace_back(exc.what());
        }
      }
    }
  }
  return out;
}

}  // namespace

int main() {
  constexpr int kThreads = 8;
  constexpr int kRounds = 3;
  std::vector<std::vector<std::string>> results(kThreads);
  std::atomic<bool> go{false};
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      rocke::families::registry().names();  // the registry is built on first use, from any thread
      for (int round = 0; round < kRounds; ++round) {
        std::vector<std::string> got = lower_everything();
        if (round == 0) results[t] = std::move(got);
        else if (got != results[t]) mismatches.fetch_add(1);
      }
    });
  }
  go.store(true);
  for (std::thread& thread : threads) thread.join();

  std::vector<std::string> single = lower_everything();
  rocke_test::check(single.size() == 10 * 6 * 3, "one answer per sample, arch and flavor");
  rocke_test::check(mismatches.load() == 0, "each thread's rounds agree");
  for (int t = 0; t < kThreads; ++t) {
    rocke_test::check(results[t] == single, "thread " + std::to_string(t) + " matches the single-threaded run");
  }
  return rocke_test::finish("rocke_lower_threads_test");
}
