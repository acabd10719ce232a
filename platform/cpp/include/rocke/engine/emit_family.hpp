// rocKE engine bridge: emit_family, the one-call build + verify + lower of a family config for the
// Python side of rocKE's extension modules (rocke_engine, and a library's engine module).
// Python twin: rocke/gates/emitters.py (emit_cpp calls it; emit_python is the sequence it does
// in one pass: build_family, then lower per flavor, then print_kernel).
//
// Header-only, for pybind11 extension modules. Only text crosses: the spec string in, the
// rocke.ir/1 text and one .ll per flavor out, with no IR text parsed in between.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "rocke/engine/bindings.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/gates/emitters.hpp"

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

}  // namespace rocke::engine
