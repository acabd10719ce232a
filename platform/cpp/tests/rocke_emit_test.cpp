// ctest: the native emitter's pieces with no Python: the framed record writer, the config-file
// reader (every rule of the Python reader), the family registry, and the rocke-emit command line
// in both modes, its records checked by a strict reader (the rules of rocke.gates.frames).
// Python twin: platform/tests/test_family_configs.py (config rules), test_gates.py (frames).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "check.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/families/configs.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/gates/emitter_cli.hpp"
#include "rocke/gates/emitters.hpp"
#include "rocke/gates/frames.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/ir/samples.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke/util/strings.hpp"

namespace {

using rocke_test::check;
using rocke_test::check_eq;
namespace fs = std::filesystem;

struct Record {
  long index;
  std::string kind;
  std::string payload;
};

// read_records of rocke/gates/frames.py: strict; "" error when the stream is well formed.
std::vector<Record> read_records(const std::string& stream, std::string& error) {
  std::vector<Record> records;
  std::size_t pos = 0;
  const std::string record = "@@rocke-record ";
  const std::string end = "@@rocke-end ";
  while (true) {
    if (stream.compare(pos, end.size(), end) == 0) {
      std::size_t line_end = stream.find('\n', pos);
      std::vector<long> indices;
      for (const Record& r : records) {
        if (indices.empty() || indices.back() != r.index) indices.push_back(r.index);
      }
      std::string count = stream.substr(pos + end.size(), line_end - pos - end.size());
      if (line_end == std::string::npos || count != std::to_string(indices.size())) error = "bad end marker";
      else if (line_end + 1 != stream.size()) error = "stray bytes after the end marker";
      return records;
    }
    if (stream.compare(pos, record.size(), record) != 0) {
      error = "expected a record header at byte " + std::to_string(pos);
      return records;
    }
    std::size_t line_end = stream.find('\n', pos);
    std::istringstream header(stream.substr(pos + record.size(), line_end - pos - record.size()));
    Record r;
    std::size_t size = 0;
    header >> r.index >> r.kind >> size;
    if (line_end + 1 + size >= stream.size() || stream[line_end + 1 + size] != '\n') {
      error = "record truncated";
      return records;
    }
    r.payload = stream.substr(line_end + 1, size);
    records.push_back(r);
    pos = line_end + size + 2;
  }
}

std::string util_join_args(const std::vector<std::string>& args) {
  return "rocke-emit " + rocke::util::join(args, " ");
}

struct Run {
  int status;
  std::string out;
  std::string err;
};

Run run(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  int status = rocke::gates::run_cli("rocke-emit", args, out, err);
  return {status, out.str(), err.str()};
}

fs::path temp_dir() {
  fs::path dir = fs::temp_directory_path() / ("rocke_emit_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// --- a toy family: spec fields block:int, dtype:str, fast:bool; builds the axpy sample -----------

std::string toy_normalize(std::string_view kv) {
  // A small Spec.from_kv(kv).to_kv() with the Python messages for the cases the tests reach.
  std::map<std::string, std::string> values;
  for (std::size_t start = 0; start <= kv.size();) {
    std::size_t stop = kv.find(' ', start);
    std::string pair(kv.substr(start, stop == std::string_view::npos ? std::string_view::npos : stop - start));
    std::size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw rocke::ValueError("toy: malformed pair '" + pair + "' (expected key=value)");
    std::string key = pair.substr(0, eq);
    if (key != "block" && key != "dtype" && key != "fast") {
      throw rocke::ValueError("toy: unknown key '" + key + "'; known keys: block, dtype, fast");
    }
    values[key] = pair.substr(eq + 1);
    if (stop == std::string_view::npos) break;
    start = stop + 1;
  }
  if (values.count("block") && values["block"] == "0") throw rocke::ValueError("toy: block=0: must be positive");
  std::vector<std::string> pairs;
  for (const auto& [key, value] : values) pairs.push_back(key + "=" + value);
  return rocke::util::join(pairs, " ");
}

rocke::ir::KernelDef toy_build(std::string_view kv, std::string_view arch) {
  std::string canonical = toy_normalize(kv);
  if (arch == "gfx1100" && canonical.find("fast=1") != std::string::npos) {
    throw rocke::ValueError("toy: fast=1: needs wave64 (gfx1100 has wave32)");
  }
  if (canonical.find("block=13") != std::string::npos) throw rocke::TypeError("toy builder bug");
  return rocke::ir::samples::axpy();
}

void register_toy() {
  rocke::families::Family toy{"toy", "rocke-tests",
                              {{"block", rocke::families::FieldKind::Int},
                               {"dtype", rocke::families::FieldKind::Str},
                               {"fast", rocke::families::FieldKind::Bool}},
                              &toy_build, &toy_normalize};
  rocke::families::registry().add(toy);
  rocke_test::check_throws<rocke::ValueError>([&] { rocke::families::registry().add(toy); },
                                              "family 'toy' is registered by both 'rocke-tests' and 'rocke-tests'",
                                              "a family name is registered once");
}

// --- tests --------------------------------------------------------------------------------------

void check_frame_holding();

void check_frames() {
  check_eq(rocke::gates::write_record(3, "ll:llvm22", "abc\n"), "@@rocke-record 3 ll:llvm22 4\nabc\n\n", "record");
  check_eq(rocke::gates::write_end(7), "@@rocke-end 7\n", "end marker");
  std::ostringstream out;
  rocke::gates::FrameWriter writer(out);
  writer.record(0, "ir", "x");
  writer.record(0, "ll:llvm20", "y");
  writer.record(1, "refusal", "no");
  writer.end();
  std::string error;
  std::vector<Record> records = read_records(out.str(), error);
  check_eq(error, "", "the writer's stream reads back");
  check(records.size() == 3 && records[2].kind == "refusal" && records[2].payload == "no", "records read back");
  check(out.str().size() > 13 && out.str().substr(out.str().size() - 14) == "@@rocke-end 2\n", "two configs");
  check_frame_holding();
}

// The writer holds records until a block fills, flush() or end(); the bytes are write_record's.
void check_frame_holding() {
  const std::size_t block = rocke::gates::FrameWriter::kHeldBytes;
  std::ostringstream out;
  {
    rocke::gates::FrameWriter writer(out);
    writer.record(0, "ir", "small");
    check_eq(out.str(), "", "a small record is held");
    writer.flush();
    check_eq(out.str(), rocke::gates::write_record(0, "ir", "small"), "flush hands the held record over");
    std::string big(block, 'b');
    writer.record(1, "ll:llvm22", big);
    check_eq(out.str(), rocke::gates::write_record(0, "ir", "small") + rocke::gates::write_record(1, "ll:llvm22", big),
             "a full block goes to the stream at once");
    writer.record(2, "refusal", "no");
  }
  check(out.str().size() > 3 && out.str().substr(out.str().size() - 3) == "no\n",
        "the destructor hands over what is held");
}

void check_configs() {
  const rocke::families::Family& toy = rocke::families::registry().get("toy");
  std::vector<rocke::families::ConfigLine> lines = rocke::families::parse_configs(
      "# comment\n\ngfx942 block=64 dtype=f16 fast=1\nrefuse gfx1100 block=0 dtype=f16 fast=0\n", toy, "x.cfg");
  check(lines.size() == 2 && lines[0].lineno == 3 && lines[1].refuse && lines[1].arch == "gfx1100", "parse lines");
  check_eq(lines[1].key(), "refuse gfx1100 block=0 dtype=f16 fast=0", "config key");
  const std::pair<const char*, const char*> bad[] = {
      {"gfx90a block=64 dtype=f16 fast=1", "x.cfg line 2: unknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90"},
      {"gfx942 dtype=f16 block=64 fast=1", "x.cfg line 2: not canonical; write 'block=64 dtype=f16 fast=1'"},
      {"refuse gfx942 dtype=f16 block=0 fast=1", "x.cfg line 2: not canonical; write 'block=0 dtype=f16 fast=1'"},
      {"gfx942 block=0 dtype=f16 fast=1",
       "x.cfg line 2: toy: block=0: must be positive (mark the line 'refuse' if that is intended)"},
      {"refuse gfx942 block=-0 dtype=f16 fast=1", "x.cfg line 2: expected the toy spec as canonical key=value pairs"},
      {"refuse gfx942 block=064 dtype=f16 fast=1", "x.cfg line 2: expected the toy spec as canonical key=value pairs"},
      {"refuse gfx942 block=64 dtype=f16 fast=2", "x.cfg line 2: expected the toy spec as canonical key=value pairs"},
      {"refuse gfx942 block=64 dtype=f/16 fast=1", "x.cfg line 2: expected the toy spec as canonical key=value pairs"},
      {"refuse gfx942 block=64 dtype=f16", "x.cfg line 2: expected the toy spec as canonical key=value pairs"},
      {"refuse gfx942 block=64 dtype=f16 fast=1 fast=1",
       "x.cfg line 2: expected the toy spec as canonical key=value pairs"},
      {"gfx942 block=64 dtype=f16 fast=1 ", "x.cfg line 2: leading or trailing spaces"},
      {" gfx942 block=64 dtype=f16 fast=1", "x.cfg line 2: leading or trailing spaces"},
      {"gfx942  block=64 dtype=f16 fast=1",
       "x.cfg line 2: toy: malformed pair '' (expected key=value) (mark the line 'refuse' if that is intended)"},
      {"gfx942\tblock=64 dtype=f16 fast=1", "x.cfg line 2: carriage returns and tabs are not allowed"},
      {"gfx942 block=64 dtype=f16 fast=1\r", "x.cfg line 2: carriage returns and tabs are not allowed"},
      {"gfx942", "x.cfg line 2: expected 'ARCH KV' or 'refuse ARCH KV'"},
      {"refuse gfx942", "x.cfg line 2: expected 'ARCH KV' or 'refuse ARCH KV'"},
      {"refuse", "x.cfg line 2: expected 'ARCH KV' or 'refuse ARCH KV'"},
  };
  for (const auto& [line, message] : bad) {
    rocke_test::check_throws<rocke::families::ConfigError>(
        [&] { rocke::families::parse_configs(std::string("# header\n") + line + "\n", toy, "x.cfg"); }, message, line);
  }
  rocke_test::check_throws<rocke::families::ConfigError>([&] { rocke::families::family_configs("# only\n\n", toy); },
                                                     "toy.cfg: no configs", "an empty config file");
  rocke_test::check_throws<rocke::families::ConfigError>(
      [&] { rocke::families::family_configs("gfx942 block=64 dtype=f\xc3\xa9 fast=1\n", toy); }, "toy.cfg: not ASCII",
      "a config file is ASCII");
  const std::vector<rocke::families::SpecField> fields{{"n", rocke::families::FieldKind::Int}};
  check(rocke::families::canonical_kv(fields, "n=123456789012345678") == "n=123456789012345678", "18 digits");
  check(!rocke::families::canonical_kv(fields, "n=1234567890123456789").has_value(), "19 digits");
  check(rocke::families::canonical_kv(fields, "n=-5") == "n=-5", "negative");
  check(!rocke::families::canonical_kv(fields, "n=+5").has_value(), "no plus sign");
  check(!rocke::families::canonical_kv(fields, "").has_value(), "empty");
}

void check_file_mode(const fs::path& dir) {
  std::vector<std::string> files;
  std::vector<std::string> texts;
  for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) {
    fs::path path = dir / (name + ".ir");
    texts.push_back(rocke::ir::print_kernel(kernel));
    write_file(path, texts.back());
    files.push_back(path.string());
  }
  write_file(dir / "broken.ir", "rocke.ir/1\nkernel @k {}\n");
  files.push_back((dir / "broken.ir").string());
  for (const char* flavor : {"llvm20", "llvm22", "llvm99"}) {
    std::vector<std::string> args{"--arch", "gfx942", "--flavor", flavor};
    args.insert(args.end(), files.begin(), files.end());
    Run got = run(args);
    check(got.status == 0 && got.err.empty(), std::string("file mode exits 0: ") + got.err);
    std::string error;
    std::vector<Record> records = read_records(got.out, error);
    check_eq(error, "", "file mode stream");
    check(records.size() == files.size(), "one record per file");
    std::size_t i = 0;
    for (auto& [name, kernel] : rocke::ir::samples::sample_kernels()) {
      if (i >= records.size()) break;
      std::string expected;
      std::string kind = std::string("ll:") + flavor;
      try {
        expected = rocke::lower::lower(kernel, "gfx942", flavor);
      } catch (const rocke::ValueError& exc) {
        expected = exc.what();
        kind = "refusal";
      }
      check(records[i].index == static_cast<long>(i), "record index " + std::to_string(i));
      check_eq(records[i].kind, kind, name + " record kind");
      check_eq(records[i].payload, expected, name + " payload");
      ++i;
    }
    if (records.size() == files.size()) {
      check_eq(records.back().kind, "refusal", "a malformed file is a refusal");
    }
  }
  Run unknown_arch = run({"--arch", "gfx90a", "--flavor", "llvm22", files[0]});
  check(unknown_arch.out.find("refusal 69\nunknown arch 'gfx90a'; known: gfx942, gfx950, gfx1100, gfx1201, sm_90\n") !=
            std::string::npos,
        "an unknown arch is a refusal with the Python text: " + unknown_arch.out);
}

void check_family_mode(const fs::path& dir) {
  fs::path cfg = dir / "toy.cfg";
  write_file(cfg,
             "# toy configs\ngfx942 block=64 dtype=f16 fast=1\nrefuse gfx1100 block=64 dtype=f16 fast=1\n\n"
             "gfx1201 block=32 dtype=f32 fast=0\n");
  Run got = run({"--family", "toy", "--configs", cfg.string(), "--flavors", "llvm20,llvm22"});
  check(got.status == 0 && got.err.empty(), "family mode exits 0: " + got.err);
  std::string error;
  std::vector<Record> records = read_records(got.out, error);
  check_eq(error, "", "family mode stream");
  std::vector<std::string> kinds;
  for (const Record& r : records) kinds.push_back(std::to_string(r.index) + " " + r.kind);
  check_eq(rocke::util::join(kinds, ","), "0 ir,0 ll:llvm20,0 ll:llvm22,1 refusal,2 ir,2 ll:llvm20,2 ll:llvm22",
           "records per config");
  if (records.size() == 7) {
    rocke::ir::KernelDef axpy = rocke::ir::samples::axpy();
    check_eq(records[0].payload, rocke::ir::print_kernel(axpy), "ir record");
    check_eq(records[2].payload, rocke::lower::lower(axpy, "gfx942", "llvm22"), "ll record");
    check_eq(records[3].payload, "toy: fast=1: needs wave64 (gfx1100 has wave32)", "refusal record");
    check_eq(records[5].payload, rocke::lower::lower(axpy, "gfx1201", "llvm20"), "ll record on the config's arch");
  }
  Run one = run({"--family", "toy", "--configs", cfg.string(), "--flavors", "llvm22"});
  check(one.out.find("ll:llvm20") == std::string::npos && one.out.find("ll:llvm22") != std::string::npos,
        "only the flavors asked for");

  write_file(dir / "crash.cfg", "gfx942 block=64 dtype=f16 fast=1\ngfx942 block=13 dtype=f16 fast=1\n");
  Run crash = run({"--family", "toy", "--configs", (dir / "crash.cfg").string(), "--flavors", "llvm22"});
  check(crash.status == 1, "a crash exits 1");
  check_eq(crash.err, "rocke-emit: error: toy.cfg line 2: crash: toy builder bug\n", "a crash names the config line");
  check(crash.out.find("@@rocke-end") == std::string::npos, "a crashed stream has no end marker");

  write_file(dir / "bad.cfg", "gfx942 block=64 dtype=f16 fast=1\ngfx942 fast=1 block=64 dtype=f16\n");
  Run bad = run({"--family", "toy", "--configs", (dir / "bad.cfg").string(), "--flavors", "llvm22"});
  check(bad.status == 1 && bad.out.empty(), "a malformed config file exits 1 before any record");
  check_eq(bad.err, "rocke-emit: error: toy.cfg line 2: not canonical; write 'block=64 dtype=f16 fast=1'\n",
           "config errors have the Python text");
}

void check_bad_arguments(const fs::path& dir) {
  std::vector<std::string> names = rocke::families::registry().names();
  std::string known_families = "unknown family 'nope'; known: " + rocke::util::join(names, ", ");
  const std::pair<std::vector<std::string>, const char*> cases[] = {
      {{}, "nothing to do"},
      {{"--bogus"}, "unknown option '--bogus'"},
      {{"--arch"}, "--arch needs a value"},
      {{"--arch", "gfx942"}, "--flavor is required with --arch"},
      {{"--flavor", "llvm22", "x.ir"}, "--arch is required with --flavor"},
      {{"--arch", "gfx942", "--flavor", "llvm22"}, "--arch mode needs at least one FILE"},
      {{"--arch", "gfx942", "--arch=gfx950", "--flavor", "llvm22", "x"}, "--arch given twice"},
      {{"--arch", "gfx942", "--family", "toy"}, "--arch/--flavor and --family/--configs/--flavors do not mix"},
      {{"--family", "toy", "--configs", "x"}, "--flavors is required with --family"},
      {{"--family", "toy", "--flavors", "llvm22"}, "--configs is required with --family"},
      {{"--family", "nope", "--configs", "x", "--flavors", "llvm22"}, known_families.c_str()},
      {{"--family", "toy", "--configs", "x", "--flavors", "llvm22,llvm21"},
       "--flavors: unknown flavor 'llvm21'; known flavors: llvm20, llvm22"},
      {{"--family", "toy", "--configs", "x", "--flavors", "llvm22,llvm22"}, "--flavors: 'llvm22' given twice"},
      {{"--family", "toy", "--configs", "x", "--flavors", "llvm22", "extra"}, "unexpected argument 'extra'"},
  };
  for (const auto& [args, message] : cases) {
    Run got = run(args);
    check(got.status == 2 && got.out.empty(), util_join_args(args) + " exits 2");
    check_eq(got.err, rocke::util::cat("rocke-emit: error: ", message, " (rocke-emit --help shows the usage)\n"),
             "message for: " + util_join_args(args));
  }
  Run missing = run({"--arch", "gfx942", "--flavor", "llvm22", (dir / "missing.ir").string()});
  check(missing.status == 1 && missing.out.empty(), "an unreadable file exits 1 before any record");
  check(run({"--help"}).status == 0 && run({"--version"}).status == 0, "--help and --version");
  check_eq(run({"--list-families"}).out, rocke::util::join(names, "\n") + "\n", "--list-families");
  check(std::find(names.begin(), names.end(), "toy") != names.end(), "the toy family is listed");
}

// A library's emitter runs the command line over its own registry.
void check_own_registry(const fs::path& dir) {
  rocke::families::FamilyRegistry own;
  own.add(rocke::families::Family{"solo", "rocke-library", {}, &toy_build, nullptr});
  std::ostringstream out;
  std::ostringstream err;
  check(rocke::gates::run_cli("solo-emit", {"--list-families"}, out, err, own) == 0, "--list-families");
  check_eq(out.str(), "solo\n", "only the registry's families");
  write_file(dir / "solo.cfg", "gfx950 fast=0 block=8\n");  // no fields: the canonical check is skipped
  std::ostringstream stream;
  check(rocke::gates::run_cli("solo-emit", {"--family", "solo", "--configs", (dir / "solo.cfg").string(), "--flavors",
                                           "llvm22"},
                             stream, err, own) == 0,
        "family mode over a private registry: " + err.str());
  std::string error;
  std::vector<Record> records = read_records(stream.str(), error);
  check(error.empty() && records.size() == 2 && records[1].kind == "ll:llvm22", "solo records");
  std::ostringstream none;
  check(rocke::gates::run_cli("solo-emit", {"--family", "toy", "--configs", "x", "--flavors", "llvm22"}, none, err,
                             own) == 2,
        "families of other registries are unknown here");
}

}  // namespace

// --- emit_family verifies once, for the arch, yet raises finish's error first -------------------

// A kernel with two faults: an MMA op gfx1100 does not have (an arch error, op #4) and, later, a
// use of a value from inside an scf.if outside it (a dominance error, which finish reports).
rocke::ir::KernelDef two_faults(std::string_view, std::string_view) {
  using namespace rocke::ir;
  Builder b("two_faults", {.max_workgroup_size = 64});
  Value* y = b.param("y", ptr(f32, "global"), {.noalias = true});
  Value* tid = b.thread_id_x();
  Value* one = b.const_(1.0, f16);
  Value* acc = b.splat(b.const_(0.0, f32), 4);
  b.mma("mfma_f32_16x16x16_f16", b.splat(one, 4), b.splat(one, 4), acc);
  Value* inner = nullptr;
  b.if_(b.cmpi("slt", tid, tid), [&] { inner = b.add(tid, tid); });
  b.store(y, inner, b.const_(2.0, f32));
  return b.finish();
}

void check_emit_family_error_order() {
  rocke::families::Family family{"two_faults", "rocke-tests", {}, &two_faults, nullptr};
  std::string finish_error;
  try {
    two_faults("", "gfx1100");
  } catch (const rocke::VerifyError& exc) {
    finish_error = exc.what();
  }
  check(finish_error.find("dominance") != std::string::npos || finish_error.find("not visible") != std::string::npos,
        "the plain build's finish() reports the dominance fault: " + finish_error);
  rocke_test::check_throws<rocke::VerifyError>(
      [&] { rocke::gates::emit_family(family, "", "gfx1100", {"llvm20", "llvm22"}); }, finish_error,
      "emit_family raises finish's error, not the arch error its one verification meets first");
  rocke_test::check_throws<rocke::VerifyError>([&] { rocke::gates::emit_family(family, "", "gfx1100", {}); },
                                               finish_error, "emit_family without flavors still verifies");
  rocke::gates::Emitted axpy = rocke::gates::emit_family(rocke::families::registry().get("toy"), "block=64",
                                                         "gfx942", {"llvm20", "llvm22"});
  rocke::ir::KernelDef kernel = rocke::ir::samples::axpy();
  check_eq(axpy.ir, rocke::ir::print_kernel(kernel), "emit_family's IR is the print of the built kernel");
  check(axpy.ll.size() == 2 && axpy.ll[0].first == "llvm20" && axpy.ll[1].first == "llvm22",
        "emit_family lowers every flavor, in the order asked");
  check_eq(axpy.ll[1].second, rocke::lower::lower(kernel, "gfx942", "llvm22"),
           "emit_family's .ll is lower()'s (which verifies)");
}

// A kernel changed after its verification shows what a VerifyOnce skips: the same kernel for the
// same arch object only. Python twin: test_gates_emit_verified.py's
// test_verify_once_walks_a_kernel_once_per_arch.
void check_verify_once() {
  using rocke::ir::verify;
  rocke::ir::KernelDef kernel = rocke::ir::samples::axpy();
  rocke::ir::KernelDef other = rocke::ir::samples::axpy();
  const rocke::arch::ArchTarget& gfx942 = rocke::arch::get_arch("gfx942");
  const rocke::arch::ArchTarget& gfx950 = rocke::arch::get_arch("gfx950");
  const std::string bad_name = "[kernel] kernel: invalid kernel name";
  {
    rocke::ir::VerifyOnce once;
    verify(kernel, &gfx942);
    kernel.name = other.name = "9bad";  // the scope's contract forbids this; it shows the skip
    verify(kernel, &gfx942);            // verified here for gfx942 already: not walked
    rocke_test::check_throws<rocke::VerifyError>([&] { verify(kernel, &gfx950); }, bad_name, "another arch walks");
    rocke_test::check_throws<rocke::VerifyError>([&] { verify(kernel); }, bad_name, "no arch walks");
    rocke_test::check_throws<rocke::VerifyError>([&] { verify(other, &gfx942); }, bad_name, "another kernel walks");
    {
      rocke::ir::VerifyOnce inner;
      rocke_test::check_throws<rocke::VerifyError>([&] { verify(kernel, &gfx942); }, bad_name,
                                                   "an inner scope knows only its own verifications");
    }
  }
  rocke_test::check_throws<rocke::VerifyError>([&] { verify(kernel, &gfx942); }, bad_name, "the scope is gone");
}

// axpy's range compare: an op the builder checked when it made it.
rocke::ir::Op& range_compare(rocke::ir::KernelDef& kernel) {
  for (rocke::ir::Op* op : kernel.body->ops) {
    if (op->opcode == "arith.cmpi") return *op;
  }
  throw std::runtime_error("axpy has no arith.cmpi");
}

// In a VerifyOnce scope, a kernel a Builder finished there skips check_op for the ops the builder
// checked when it made them, and nothing else: a change made after emission shows what is skipped
// and what is not. Python twin: test_gates_emit_verified.py's
// test_verify_once_skips_only_the_op_checks_made_at_emission.
void check_emission_checks() {
  using rocke::ir::verify;
  const std::string bad_pred =
      "[attr] arith.cmpi %9 at body[5]: attribute 'pred' = 'bogus' is not one of: eq, ne, slt, sle, sgt, sge, ult, "
      "ule, ugt, uge";
  const auto bogus = rocke::ir::AttrValue::string("bogus");
  std::optional<rocke::ir::KernelDef> kernel;
  {
    rocke::ir::VerifyOnce once;
    kernel.emplace(rocke::ir::samples::axpy());  // finished in this scope
    rocke_test::check(range_compare(*kernel).checked_at_emission, "the builder's ops are checked at emission");
    bool if_checked = false;
    for (const rocke::ir::Op* op : kernel->body->ops) {
      if_checked = if_checked || (op->opcode == "scf.if" && op->checked_at_emission);
    }
    rocke_test::check(!if_checked, "scf.if is not made through emit_op");
    range_compare(*kernel).attrs["pred"] = bogus;  // the scope's contract forbids this; it shows the skip
    verify(*kernel);  // the op check made at emission is not made again
    verify(*kernel, &rocke::arch::get_arch("gfx942"));
    {
      rocke::ir::VerifyOnce inner;
      rocke_test::check_throws<rocke::VerifyError>([&] { verify(*kernel); }, bad_pred,
                                                   "an inner scope knows only the kernels finished in it");
    }
  }
  rocke_test::check_throws<rocke::VerifyError>([&] { verify(*kernel); }, bad_pred, "the scope is gone");
  rocke::ir::KernelDef early = rocke::ir::samples::axpy();  // finished before the scope
  range_compare(early).attrs["pred"] = bogus;
  {
    rocke::ir::VerifyOnce once;
    rocke_test::check_throws<rocke::VerifyError>([&] { verify(early); }, bad_pred, "a kernel finished before the scope");
    rocke::ir::KernelDef fresh = rocke::ir::samples::axpy();
    rocke::ir::Value stray{999, range_compare(fresh).operands[0]->type, std::nullopt};
    range_compare(fresh).operands[0] = &stray;  // every other rule still runs
    rocke_test::check_throws<rocke::VerifyError>(
        [&] { verify(fresh); }, "[dominance] arith.cmpi %9 at body[5]: operand #0 %999 is not defined before this op",
        "dominance is checked in the scope");
  }
}

int main() {
  register_toy();
  check_emit_family_error_order();
  check_verify_once();
  check_emission_checks();
  fs::path dir = temp_dir();
  check_frames();
  check_configs();
  check_file_mode(dir);
  check_family_mode(dir);
  check_bad_arguments(dir);
  check_own_registry(dir);
  fs::remove_all(dir);
  return rocke_test::finish("rocke_emit_test");
}
