// ctest and sanitizer driver: untrusted rocke.ir/1 text through the parser, the verifier and the
// lowerer. Whatever the text, parse_kernel gives a kernel or a ParseError; verify gives nothing or
// a VerifyError; lower gives .ll text, the same VerifyError, or a LowerError (for every arch and
// flavor) -- nothing else, and no crash, leak or undefined behaviour under ROCKE_SANITIZE.
// Python twin: none (platform/tests/test_cpp_lower_parity.py compares the two engines' outcomes).
//
//     rocke_lower_fuzz_test                 mutations of the sample kernels (built in, seeded)
//     rocke_lower_fuzz_test PATH...         every file (directories: every file inside, sorted)
//
// The built-in mutations keep the syntax more often than random bytes do (numbers, types, opcodes
// and attribute values are swapped for others), so most inputs reach the verifier and many the
// lowerer. platform/tools/sanitize_fuzz.py runs a larger corpus from files.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/lower/lower.hpp"

namespace {

struct Counts {
  std::size_t inputs = 0;
  std::size_t parsed = 0;
  std::size_t verified = 0;  // (input, arch) pairs the verifier accepts
  std::size_t lowered = 0;   // (input, arch, flavor) triples lowered to text
  std::size_t refused = 0;   // LowerErrors
};

const char* const kFlavors[] = {"llvm20", "llvm22"};

// Run one input through everything; a failure names the input and the escaping exception.
void run_input(const std::string& name, const std::string& text, Counts& counts) {
  ++counts.inputs;
  std::optional<rocke::ir::KernelDef> parsed;
  try {
    parsed.emplace(rocke::ir::parse_kernel(text));
  } catch (const rocke::ParseError&) {
    return;
  } catch (const std::exception& exc) {
    rocke_test::check(false, name + ": parse threw " + exc.what());
    return;
  }
  const rocke::ir::KernelDef& kernel = *parsed;
  ++counts.parsed;
  for (const rocke::arch::ArchTarget& arch : rocke::arch::arch_targets()) {
    std::string verdict;
    try {
      rocke::ir::verify(kernel, &arch);
      ++counts.verified;
    } catch (const rocke::VerifyError& exc) {
      verdict = exc.what();
    } catch (const std::exception& exc) {
      rocke_test::check(false, name + " on " + arch.name + ": verify threw " + exc.what());
      continue;
    }
    for (const char* flavor : kFlavors) {
      try {
        std::string ll = rocke::lower::lower(kernel, arch, flavor);
        rocke_test::check(verdict.empty(), name + ": lowered a kernel the verifier refuses");
        rocke_test::check(!ll.empty() && ll.back() == '\n', name + ": .ll ends with a newline");
        ++counts.lowered;
      } catch (const rocke::LowerError&) {
        rocke_test::check(verdict.empty(), name + ": LowerError for a kernel the verifier refuses");
        ++counts.refused;
      } catch (const rocke::VerifyError& exc) {
        rocke_test::check(verdict == exc.what(), name + " on " + arch.name + ": lower's VerifyError differs");
      } catch (const std::exception& exc) {
        rocke_test::check(false, name + " on " + arch.name + " " + flavor + ": lower threw " + exc.what());
      }
    }
  }
}

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {
    for (const rocke::ir::OpDef& op : rocke::ir::ops()) opcodes_.push_back(op.name);
  }

  std::string mutate(const std::string& source) {
    std::vector<std::string> words = split_words(source);
    for (int round = 0, rounds = pick(1, 3); round < rounds; ++round) {
      std::size_t i = static_cast<std::size_t>(pick(0, static_cast<int>(words.size()) - 1));
      std::string& word = words[i];
      switch (pick(0, 11)) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4: {  // a number most often: attribute values keep the syntax and reach the lowerer's checks
          std::vector<std::size_t> numbers;
          for (std::size_t k = 0; k < words.size(); ++k) {
            if (is_number(words[k])) numbers.push_back(k);
          }
          if (!numbers.empty()) words[numbers[static_cast<std::size_t>(pick(0, static_cast<int>(numbers.size()) - 1))]] =
              number();
          break;
        }
        case 5:
        case 6:
          if (is_type(word)) word = any_of(kTypes);
          break;
        case 7:
          if (word.find('.') != std::string::npos && word.find('%') == std::string::npos) word = any_of(opcodes_);
          break;
        case 8:  // truncate
          words.resize(i);
          break;
        case 9:  // drop a word
          words.erase(words.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        case 10:  // duplicate a word
          words.insert(words.begin() + static_cast<std::ptrdiff_t>(i), word);
          break;
        default:
          if (!word.empty()) word[static_cast<std::size_t>(pick(0, static_cast<int>(word.size()) - 1))] =
              static_cast<char>(pick(32, 126));
      }
      if (words.empty()) break;
    }
    std::string out;
    for (const std::string& word : words) out += word;
    return out;
  }

 private:
  inline static const std::vector<std::string> kTypes = {
      "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "vec<f16x4>", "vec<f32x3>", "vec<bf16x8>",
      "vec<i32x2>", "vec<i8x3>", "vec<f16x3>", "ptr<f32, lds>", "ptr<f16, global>", "ptr<vec<f16x4>, constant>", "rsrc"};
  inline static const std::vector<std::string> kNumbers = {
      "0", "1", "-1", "2", "3", "4", "7", "8", "12", "15", "16", "31", "32", "33", "63", "64", "65", "255", "1024",
      "4096", "40960", "65536", "70000", "2147483647", "-2147483648", "9223372036854775807", "0x3FF0000000000000"};

  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, std::max(low, high))(rng_); }
  const std::string& any_of(const std::vector<std::string>& items) {
    return items[static_cast<std::size_t>(pick(0, static_cast<int>(items.size()) - 1))];
  }
  std::string number() { return any_of(kNumbers); }

  static bool is_number(const std::string& word) {
    return !word.empty() && (std::isdigit(static_cast<unsigned char>(word[0])) || word[0] == '-');
  }
  static bool is_type(const std::string& word) {
    return std::find(kTypes.begin(), kTypes.end(), word) != kTypes.end() || word.rfind("vec<", 0) == 0 ||
           word.rfind("ptr<", 0) == 0;
  }

  // Words and the separators between them, alternating, so joining them gives the text back.
  // A word is a run of characters other than space, newline, comma, braces and parentheses
  // (a type like ptr<f16, global> is kept whole).
  static std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> out;
    std::string current;
    int angle = 0;
    for (char c : text) {
      bool separator = angle == 0 && (c == ' ' || c == '\n' || c == ',' || c == '{' || c == '}' || c == '(' ||
                                      c == ')' || c == ':');
      if (c == '<') ++angle;
      if (c == '>' && angle > 0) --angle;
      if (separator) {
        if (!current.empty()) out.push_back(std::move(current));
        current.clear();
        out.emplace_back(1, c);
      } else {
        current += c;
      }
    }
    if (!current.empty()) out.push_back(current);
    return out;
  }

  std::mt19937_64 rng_;
  std::vector<std::string> opcodes_;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

}  // namespace

int main(int argc, char** argv) {
  Counts counts;
  if (argc > 1) {
    std::vector<std::filesystem::path> paths;
    for (int i = 1; i < argc; ++i) {
      std::filesystem::path path(argv[i]);
      if (std::filesystem::is_directory(path)) {
        std::vector<std::filesystem::path> inside;
        for (const auto& entry : std::filesystem::directory_iterator(path)) {
          if (entry.is_regular_file()) inside.push_back(entry.path());
        }
        std::sort(inside.begin(), inside.end());
        paths.insert(paths.end(), inside.begin(), inside.end());
      } else {
        paths.push_back(path);
      }
    }
    for (const auto& path : paths) run_input(path.string(), read_file(path), counts);
  } else {
    std::vector<std::string> texts;
    for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) texts.push_back(rocke::ir::print_kernel(kernel));
    for (std::size_t i = 0; i < texts.size(); ++i) run_input("sample " + std::to_string(i), texts[i], counts);
    Mutator mutator(20240601);
    constexpr int kMutations = 3000;
    for (int n = 0; n < kMutations; ++n) {
      const std::string& base = texts[static_cast<std::size_t>(n) % texts.size()];
      run_input("mutation " + std::to_string(n), mutator.mutate(base), counts);
    }
    rocke_test::check(counts.lowered > 1000, "many mutations still lower: " + std::to_string(counts.lowered));
  }
  std::printf("inputs %zu, parsed %zu, verified (input, arch) %zu, lowered %zu, LowerErrors %zu\n", counts.inputs,
              counts.parsed, counts.verified, counts.lowered, counts.refused);
  return rocke_test::finish("rocke_lower_fuzz_test");
}
