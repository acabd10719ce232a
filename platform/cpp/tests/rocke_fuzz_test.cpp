// ctest: the parser is fed untrusted text. Whatever the bytes, parse_kernel returns a kernel or
// throws ParseError, and a parsed kernel prints, re-parses to the same text, canonicalizes and
// verifies or throws VerifyError -- nothing else, and no crash (run it under ROCKE_SANITIZE too).
// Python twin: platform/tests/test_ir_fuzz.py (same mutation kinds, a C++ random source).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/canonical.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/ir/verifier.hpp"

namespace {

const std::vector<std::string> kTokens = {
    "{", "}", "(", ")", "<", ">", ",", ":", "=", "%", "@", "\"", "\\", "\n", "\r", "\t", std::string(1, '\0'),
    "\xff", "\xe2\x82\xac", " ", "-", "0x", "0x7FF8000000000001", "0xFFFFFFFFFFFFFFFF", "%0", "%999999999",
    "%1000000000", "%007", "99999999999999999999", "999999999999999999999", "-9223372036854775809", "vec<",
    "ptr<", "vec<f16x4>", "ptr<f16, global>", "ptr<ptr<", "rsrc", "f64", "bogus.op", "arith.add",
    "scf.if %1 then {", "scf.yield", "} else {", "body(%7 : i32) {", "rocke.ir/2", "kernel", "param", "body",
    "true", "false", "{value = 1 : i32}", "{lanes = 70000 : i32}", "then", "else", "@k", "\"name\"", "\n}\n",
};

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  std::string mutate(std::string text) {
    for (int round = 0, rounds = pick(1, 4); round < rounds; ++round) {
      std::size_t pos = pick(0, static_cast<int>(text.size()));
      switch (pick(0, 5)) {
        case 0: {  // replace one byte by any byte or a token
          std::string piece = pick(0, 1) ? std::string(1, static_cast<char>(pick(0, 255))) : token();
          text = text.substr(0, pos) + piece + (pos < text.size() ? text.substr(pos + 1) : "");
          break;
        }
        case 1:  // delete a span
          text.erase(pos, static_cast<std::size_t>(pick(1, 40)));
          break;
        case 2:  // insert a token
          text.insert(pos, token());
          break;
        case 3:  // truncate
          text.resize(pos);
          break;
        default: {  // duplicate, drop or swap lines
          std::vector<std::string> lines = split(text);
          std::size_t i = pick(0, static_cast<int>(lines.size()) - 1);
          std::size_t j = pick(0, static_cast<int>(lines.size()) - 1);
          int how = pick(0, 2);
          if (how == 0) lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
          else if (how == 1) lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i));
          else std::swap(lines[i], lines[j]);
          text = join(lines);
        }
      }
    }
    return text;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng_); }
  std::string token() { return kTokens[static_cast<std::size_t>(pick(0, static_cast<int>(kTokens.size()) - 1))]; }

  static std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> lines{""};
    for (char c : text) {
      if (c == '\n') lines.emplace_back();
      else lines.back() += c;
    }
    return lines;
  }

  static std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
    return out;
  }

  std::mt19937_64 rng_;
};

int parsed_count = 0;

void check_text(const std::string& text) {
  try {
    rocke::ir::KernelDef kernel = rocke::ir::parse_kernel(text);
    ++parsed_count;
    std::string printed = rocke::ir::print_kernel(kernel);
    rocke_test::check(rocke::ir::print_kernel(rocke::ir::parse_kernel(printed)) == printed, "re-parse");
    std::string canonical = rocke::ir::print_kernel(rocke::ir::canonicalize(kernel));
    rocke_test::check(
        rocke::ir::print_kernel(rocke::ir::canonicalize(rocke::ir::parse_kernel(canonical))) == canonical,
        "canonical re-parse");
    for (const auto& arch : rocke::arch::arch_targets()) {
      try {
        rocke::ir::verify(kernel, &arch);
      } catch (const rocke::VerifyError&) {
      }
    }
  } catch (const rocke::ParseError& exc) {
    rocke_test::check(exc.line() >= 1 && exc.col() >= 1, "positions are 1-based");
  } catch (const std::exception& exc) {
    rocke_test::check(false, std::string("unexpected exception: ") + exc.what());
  }
}

}  // namespace

int main() {
  std::vector<std::string> corpus;
  for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) corpus.push_back(rocke::ir::print_kernel(kernel));
  Mutator mutator(20240611);
  std::mt19937_64 pick(7);
  for (int i = 0; i < 20000; ++i) check_text(mutator.mutate(corpus[pick() % corpus.size()]));
  std::mt19937_64 bytes(11);
  for (int i = 0; i < 5000; ++i) {
    std::string junk(static_cast<std::size_t>(bytes() % 300), '\0');
    for (char& c : junk) c = static_cast<char>(bytes() % 256);
    check_text(junk);
    check_text("rocke.ir/1\n" + junk);
  }
  rocke_test::check(parsed_count > 100, "some mutations still parse (" + std::to_string(parsed_count) + ")");
  return rocke_test::finish("rocke_fuzz_test");
}
