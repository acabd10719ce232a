// ctest: the engine is used from many threads at once (build, print, parse, canonicalize,
// verify, arch queries) and every thread gets the single-threaded answers.
// Python twin: none (the Python engine is used from one thread per interpreter).
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "rocke/arch/layout_expr.hpp"
#include "rocke/arch/mma.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/canonical.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/ir/verifier.hpp"

namespace {

struct Expected {
  std::vector<std::string> texts;
  std::vector<std::string> verdicts;  // per sample x arch: "ok" or the VerifyError text
  std::string parse_error;
};

const char* kBadText = "rocke.ir/1\nkernel @k {max_workgroup_size = 64 : i32}\nbody {\n}\n";

std::vector<std::string> verdicts_of(const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  for (const std::string& text : texts) {
    for (const auto& arch : rocke::arch::arch_targets()) {
      try {
        rocke::ir::verify(rocke::ir::parse_kernel(text), &arch);
        out.emplace_back("ok");
      } catch (const rocke::VerifyError& exc) {
        out.emplace_back(exc.what());
      }
    }
  }
  return out;
}

std::string parse_error_of(const char* text) {
  try {
    rocke::ir::parse_kernel(text);
  } catch (const rocke::ParseError& exc) {
    return exc.what();
  }
  return "parsed";
}

Expected run_once() {
  Expected e;
  for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) {
    e.texts.push_back(rocke::ir::print_kernel(kernel));
  }
  for (const std::string& text : e.texts) {
    std::string round = rocke::ir::print_kernel(rocke::ir::canonicalize(rocke::ir::parse_kernel(text)));
    if (round != text) e.texts.push_back("round trip differs");
  }
  e.verdicts = verdicts_of(e.texts);
  e.parse_error = parse_error_of(kBadText);
  std::int64_t sum = 0;
  for (const auto& op : rocke::arch::mma_catalog()) {
    for (std::int64_t lane = 0; lane < op.wave_size; ++lane) sum += op.c.coords(lane, 0).first;
  }
  e.texts.push_back(std::to_string(sum));
  return e;
}

}  // namespace

int main() {
  // The first use of the lazily built tables (op table, arch facts, MMA catalog) happens on many
  // threads at once.
  constexpr int kThreads = 8;
  constexpr int kRounds = 5;
  std::vector<Expected> results(kThreads);
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      for (int round = 0; round < kRounds; ++round) {
        Expected e = run_once();
        if (round == 0) results[t] = std::move(e);
        else rocke_test::check(e.texts == results[t].texts, "a thread's rounds agree");
      }
    });
  }
  go.store(true);
  for (std::thread& thread : threads) thread.join();

  Expected single = run_once();
  rocke_test::check(single.parse_error == "line 2, col 11: missing attribute 'waves_per_eu' for kernel @k",
                    "parse error text: " + single.parse_error);
  for (int t = 0; t < kThreads; ++t) {
    rocke_test::check(results[t].texts == single.texts, "thread " + std::to_string(t) + " texts");
    rocke_test::check(results[t].verdicts == single.verdicts, "thread " + std::to_string(t) + " verdicts");
    rocke_test::check(results[t].parse_error == single.parse_error, "thread " + std::to_string(t) + " errors");
  }
  return rocke_test::finish("rocke_threads_test");
}
