// rocKE engine bridge: emit_family, the one-call build + verify + lower of a family config for the
// Python side of rocKE's extension modules (rocke_engine, and a library's engine module).
// Python twin: rocke/engine/native.py (the Python side of the same bridge); emit_cpp of
// rocke.gates.emitters calls it, and emit_python is the sequence it does in one pass
// (build_family, then lower per flavor, then print_kernel).
//
// Header-only, for pybind11 extension modules. Only text crosses: the spec string in, the
// rocke.ir/1 text and one .ll per flavor out, with no IR text parsed in between.
#pragma once

#include <pybind11/pybind11.h>

#include <time.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "rocke/engine/bindings.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/gates/emitters.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/lower/lower.hpp"

namespace rocke::engine {

// (ir, {flavor: ll}) of family name for spec kv on arch; the arguments are checked as
// build_family checks them, and every error is the one build_family then lower would raise.
inline py::tuple emit_family(const families::FamilyRegistry& registry, const py::object& name, const py::object& kv,
                             const py::object& arch, const std::vector<std::string>& flavors) {
  std::string name_text = name_arg(name);
  std::optional<std::string> kv_text = str_text(kv);
  if (!kv_text.has_value() && registry.find(name_text) != nullptr) {
    throw TypeError(name_text + ": from_kv: expected str, got " + type_name(kv));
  }
  std::string arch_text = arch_arg(arch);
  gates::Emitted emitted;
  {
    py::gil_scoped_release release;
    emitted = gates::emit_family(registry.get(name_text), kv_text.value_or(""), arch_text, flavors);
  }
  py::dict ll;
  for (const auto& [flavor, text] : emitted.ll) ll[py::str(flavor)] = py::str(text);
  return py::make_tuple(py::str(emitted.ir), ll);
}

// CPU seconds of this thread (the phases below run with the GIL released, on one thread).
inline double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Median of a phase's samples.
inline double median_of(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  return xs.empty() ? 0.0 : xs[xs.size() / 2];
}

// The bench's profile of one family config: the median thread-CPU seconds of each phase of
// emit_family over `repeat` runs after one warm-up (build with finish's verification deferred,
// verify for arch, lower for flavor, print; and parse, the text path's read of that print), and
// the kernel's op count.
inline py::dict profile_family(const families::FamilyRegistry& registry, const std::string& name,
                               const std::string& kv, const std::string& arch, const std::string& flavor,
                               int repeat) {
  const families::Family& family = registry.get(name);
  const arch::ArchTarget& target = arch::get_arch(arch);
  std::vector<double> build, verify, lower, print, parse;
  std::size_t ops = 0;
  {
    py::gil_scoped_release release;
    for (int run = 0; run <= std::max(1, repeat); ++run) {  // run 0 is the warm-up
      double t0 = thread_seconds();
      std::optional<ir::KernelDef> kernel;
      {
        ir::DeferFinishVerify scope;
        kernel.emplace(families::build_family(family, kv, arch));
      }
      double t1 = thread_seconds();
      ir::verify(*kernel, &target);
      double t2 = thread_seconds();
      std::string ll = lower::lower_verified(*kernel, target, flavor);
      double t3 = thread_seconds();
      std::string text = ir::print_kernel(*kernel);
      double t4 = thread_seconds();
      ir::KernelDef parsed = ir::parse_kernel(text);
      double t5 = thread_seconds();
      ops = kernel->op_count();
      if (run == 0) continue;
      build.push_back(t1 - t0);
      verify.push_back(t2 - t1);
      lower.push_back(t3 - t2);
      print.push_back(t4 - t3);
      parse.push_back(t5 - t4);
    }
  }
  py::dict out;
  out["ops"] = ops;
  out["build_s"] = median_of(build);
  out["verify_s"] = median_of(verify);
  out["lower_s"] = median_of(lower);
  out["print_s"] = median_of(print);
  out["parse_s"] = median_of(parse);
  return out;
}

// The same phases for rocke.ir/1 text (the scaling kernels): parse, verify for arch, lower.
inline py::dict profile_text(const std::string& text, const std::string& arch, const std::string& flavor, int repeat) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  std::vector<double> parse, verify, lower;
  std::size_t ops = 0;
  {
    py::gil_scoped_release release;
    for (int run = 0; run <= std::max(1, repeat); ++run) {  // run 0 is the warm-up
      double t0 = thread_seconds();
      ir::KernelDef kernel = ir::parse_kernel(text);
      double t1 = thread_seconds();
      ir::verify(kernel, &target);
      double t2 = thread_seconds();
      std::string ll = lower::lower_verified(kernel, target, flavor);
      double t3 = thread_seconds();
      ops = kernel.op_count();
      if (run == 0) continue;
      parse.push_back(t1 - t0);
      verify.push_back(t2 - t1);
      lower.push_back(t3 - t2);
    }
  }
  py::dict out;
  out["ops"] = ops;
  out["parse_s"] = median_of(parse);
  out["verify_s"] = median_of(verify);
  out["lower_s"] = median_of(lower);
  return out;
}

}  // namespace rocke::engine
