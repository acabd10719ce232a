// ctest: rocke.ir/1 round trips, canonicalization, and parser errors with exact positions.
// Python twin: platform/tests/test_ir_text.py (the texts and messages below are the ones the
// Python engine produces; platform/tests/test_cpp_ir_parity.py compares far more cases).
#include <string>
#include <vector>

#include "check.hpp"
#include "rocke/ir/canonical.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/ir/verifier.hpp"

using rocke_test::check;
using rocke_test::check_eq;

namespace {

const std::string kAxpy =
    "rocke.ir/1\n"
    "kernel @axpy {max_workgroup_size = 256 : i32, waves_per_eu = 0 : i32}\n"
    "param %0 \"x\" : ptr<f32, global> {align = 16 : i32, noalias = true : bool, readonly = true : bool, "
    "writeonly = false : bool}\n"
    "param %1 \"y\" : ptr<f32, global> {align = 16 : i32, noalias = true : bool, readonly = false : bool, "
    "writeonly = false : bool}\n"
    "param %2 \"a\" : f32\n"
    "param %3 \"n\" : i32\n"
    "body {\n"
    "  %4 \"bid\" : i32 = gpu.block_id_x\n"
    "  %5 \"bdim\" : i32 = gpu.block_dim_x\n"
    "  %6 : i32 = arith.mul %4, %5\n"
    "  %7 \"tid\" : i32 = gpu.thread_id_x\n"
    "  %8 \"gid\" : i32 = arith.add %6, %7\n"
    "  %9 \"in_range\" : i1 = arith.cmpi %8, %3 {pred = \"slt\" : str}\n"
    "  scf.if %9 then {\n"
    "    %10 \"xv\" : f32 = mem.load %0, %8 {align = 0 : i32, lanes = 1 : i32}\n"
    "    %11 \"yv\" : f32 = mem.load %1, %8 {align = 0 : i32, lanes = 1 : i32}\n"
    "    %12 \"r\" : f32 = arith.fma %2, %10, %11\n"
    "    mem.store %1, %8, %12 {align = 0 : i32}\n"
    "    scf.yield\n"
    "  } else {\n"
    "    scf.yield\n"
    "  }\n"
    "}\n";

const std::string kScrambled =
    "rocke.ir/1\n"
    "kernel @k {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}\n"
    "param %70 \"n\" : i32\n"
    "body {\n"
    "  %5 \"c\" : i32 = arith.constant {value = 0 : i32}\n"
    "  %900 \"s\" : i32 = scf.for %5, %70, %70, %5 body(%3 \"i\" : i32, %4 \"acc\" : i32) {\n"
    "    %1 : i32 = arith.add %4, %3\n"
    "    scf.yield %1\n"
    "  }\n"
    "}\n";

const std::string kCanonical =
    "rocke.ir/1\n"
    "kernel @k {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}\n"
    "param %0 \"n\" : i32\n"
    "body {\n"
    "  %1 \"c\" : i32 = arith.constant {value = 0 : i32}\n"
    "  %2 \"s\" : i32 = scf.for %1, %0, %0, %1 body(%3 \"i\" : i32, %4 \"acc\" : i32) {\n"
    "    %5 : i32 = arith.add %4, %3\n"
    "    scf.yield %5\n"
    "  }\n"
    "}\n";

std::string with(const std::string& old_text, const std::string& new_text) {
  std::string out = kAxpy;
  std::size_t at = out.find(old_text);
  if (at == std::string::npos) {
    rocke_test::check(false, "edit text not found: " + old_text);
    return out;
  }
  return out.replace(at, old_text.size(), new_text);
}

std::string parse_error(const std::string& text) {
  try {
    rocke::ir::parse_kernel(text);
  } catch (const rocke::ParseError& exc) {
    return exc.what();
  } catch (const std::exception& exc) {
    return std::string("non-ParseError: ") + exc.what();
  }
  return "parsed";
}

void round_trips() {
  check_eq(rocke::ir::print_kernel(rocke::ir::samples::axpy()), kAxpy, "C++ Builder twin of axpy");
  check_eq(rocke::ir::print_kernel(rocke::ir::parse_kernel(kAxpy)), kAxpy, "axpy round trip");
  for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) {
    std::string text = rocke::ir::print_kernel(kernel);
    rocke::ir::KernelDef parsed = rocke::ir::parse_kernel(text);
    rocke::ir::verify(parsed);
    check_eq(rocke::ir::print_kernel(parsed), text, name + " round trip");
    check_eq(rocke::ir::print_kernel(rocke::ir::canonicalize(parsed)), text, name + " is canonical");
    check(rocke::ir::equivalent(kernel, parsed), name + " equivalent after parsing");
  }
  std::string spaced = kAxpy;
  spaced.replace(spaced.find("body {\n"), 7, "\nbody  {\n\n");
  spaced.replace(spaced.find("%6 : i32"), 8, "%6   :   i32");
  spaced.pop_back();  // no final newline
  check_eq(rocke::ir::print_kernel(rocke::ir::parse_kernel(spaced)), kAxpy, "blank lines and spacing");
}

void canonicalization() {
  rocke::ir::KernelDef kernel = rocke::ir::parse_kernel(kScrambled);
  rocke::ir::verify(kernel);
  check_eq(rocke::ir::print_kernel(kernel), kScrambled, "scrambled ids print as parsed");
  rocke::ir::KernelDef once = rocke::ir::canonicalize(kernel);
  check_eq(rocke::ir::print_kernel(once), kCanonical, "canonical ids");
  check_eq(rocke::ir::print_kernel(rocke::ir::canonicalize(once)), kCanonical, "canonicalize is idempotent");
  check_eq(rocke::ir::print_kernel(kernel), kScrambled, "the input is not modified");
}

void errors() {
  std::string crlf;
  for (char c : kAxpy) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  std::string truncated = kAxpy.substr(0, kAxpy.find("  } else"));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "line 1, col 1: expected version header 'rocke.ir/1'"},
      {"rocke.ir/2\nkernel", "line 1, col 1: unsupported version 'rocke.ir/2' (expected 'rocke.ir/1')"},
      {"rocke.ir/1", "line 1, col 11: expected 'kernel', found end of input"},
      {crlf, "line 1, col 11: carriage return is not allowed (LF line endings only)"},
      {with("  %5", "\t%5"), "line 9, col 1: control character 0x09 is not allowed"},
      {with("\"bdim\"", "\"bd\xc3\xafm\""), "line 9, col 9: non-ASCII character (the format is ASCII only)"},
      {with("gpu.block_dim_x", "gpu.block_dimx"), "line 9, col 21: unknown op 'gpu.block_dimx'"},
      {with("%6 : i32", "%6 : f64"), "line 10, col 8: unknown type 'f64'"},
      {with("%6 : i32", "%6 : vec<i32x1>"), "line 10, col 12: vec: lane count 1 of vec<i32x1> is out of range 2..64"},
      {with("lanes = 1 : i32}", "lanes = 1 : i32, nt = true : bool}"),
       "line 15, col 73: unknown attribute 'nt' for mem.load"},
      {with("{align = 0 : i32, lanes = 1 : i32}", "{align = 0 : i32}"),
       "line 15, col 38: missing attribute 'lanes' for mem.load"},
      {with("lanes = 1 : i32", "lanes = 1 : i64"), "line 15, col 68: attribute 'lanes' has type i64, expected i32"},
      {with("{align = 0 : i32, lanes = 1 : i32}", "{lanes = 1 : i32, align = 0 : i32}"),
       "line 15, col 56: attributes must be sorted by name: 'align'"},
      {with("lanes = 1 : i32", "lanes = 99 : i32"), "line 15, col 64: attribute 'lanes' = 99 is out of range 1..64"},
      {with("lanes = 1 : i32", "lanes = 123456789012345678901234567890 : i32"),
       "line 15, col 64: integer literal too long (max 20 digits)"},
      {with("lanes = 1 : i32", "lanes = 99999999999999999999 : i32"),
       "line 15, col 64: attribute 'lanes' = 99999999999999999999 does not fit in i32"},
      {with("lanes = 1 : i32", "lanes = 01 : i32"),
       "line 15, col 64: integer literal with a leading zero or negative zero: 01"},
      {with("{pred = \"slt\" : str}", "{pred = \"s\\lt\" : str}"),
       "line 13, col 52: backslash is not allowed in strings"},
      {with("arith.fma %2, %10, %11", "arith.fma %2, %10, %99"), "line 17, col 40: use of undefined value %99"},
      {with("arith.fma %2, %10, %11", "arith.fma %2, %10"), "line 17, col 21: arith.fma takes 3 operands, got 2"},
      {with("%11 \"yv\"", "%10 \"yv\""), "line 16, col 5: value %10 is defined twice"},
      {with("mem.store %1, %8, %12", "mem.store %1, %8, %1234567890"),
       "line 18, col 23: value id too large (max 999999999)"},
      {with("  }\n}\n", "  }\n  mem.store %1, %8, %12 {align = 0 : i32}\n}\n"),
       "line 23, col 21: value %12 is not visible here"},
      {with("  } else {\n    scf.yield\n  }\n", "  }\n"), "line 20, col 4: scf.if needs region 'else'"},
      {with("param %2 \"a\" : f32", "param %2 \"a\" : f32 {noalias = true : bool}"),
       "line 5, col 20: attributes apply only to pointer params"},
      {kAxpy + "junk\n", "line 24, col 1: unexpected 'junk' after the kernel body"},
      {truncated, "line 20, col 1: expected '}' before end of input"},
      {with("%4 \"bid\"", "% 4 \"bid\""), "line 8, col 3: expected digits after '%'"},
  };
  for (const auto& [text, message] : cases) check_eq(parse_error(text), message, "parse error: " + message);

  std::string deep =
      "rocke.ir/1\nkernel @d {max_workgroup_size = 64 : i32, waves_per_eu = 0 : i32}\nparam %0 : i32\nbody {\n"
      "  %1 : i1 = arith.cmpi %0, %0 {pred = \"eq\" : str}\n";
  for (int i = 0; i < 200; ++i) deep += "scf.if %1 then {\n";
  check_eq(parse_error(deep), "line 69, col 16: region nesting deeper than 64", "deep nesting");
  std::string long_hint = with("%4 \"bid\"", "%4 \"" + std::string(100000, 'a') + "\"");
  check_eq(parse_error(long_hint), "parsed", "a long hint is fine");
}

}  // namespace

int main() {
  round_trips();
  canonicalization();
  errors();
  return rocke_test::finish("rocke_text_test");
}
