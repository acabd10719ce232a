// rocKE engine bridge, C++ side: strings across the Python boundary, exactly as the Python engine
// sees them. Python twin: rocke/engine/native.py (the Python side of the same bridge).
//
// Header-only, for pybind11 extension modules (rocke_engine, and a library's engine module).
// * A str argument crosses as its UTF-8 bytes with lone surrogates kept ("surrogatepass"), so
//   NUL bytes, surrogates and any other character reach the C++ engine unchanged.
// * A message crosses back decoded the same way, with its length (never as a C string), so the
//   Python exception carries the very text the Python engine would: NULs and surrogates included.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "rocke/arch/errors.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::engine {

namespace py = pybind11;

// A C++ string (UTF-8 with surrogates kept) as a Python str.
inline py::str py_text(const std::string& text) {
  PyObject* obj = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogatepass");
  if (obj == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(obj);
}

// Set the Python error `type(message)` with the full message text.
inline void set_error(PyObject* type, const std::string& message) { PyErr_SetObject(type, py_text(message).ptr()); }

// The name of an object's type, as Python's error messages print it.
inline std::string type_name(const py::handle& value) {
  return py::str(py::type::of(value).attr("__name__")).cast<std::string>();
}

// A str's text (surrogates kept), or nullopt for any other object.
inline std::optional<std::string> str_text(const py::handle& value) {
  if (!py::isinstance<py::str>(value)) return std::nullopt;
  return py::reinterpret_borrow<py::object>(value).attr("encode")("utf-8", "surrogatepass").cast<std::string>();
}

// A str argument; anything else is TypeError "WHO: expected str, got TYPE" (as rocke.ir.parse_type says).
inline std::string str_arg(const py::handle& value, const char* who) {
  std::optional<std::string> text = str_text(value);
  if (!text.has_value()) throw TypeError(std::string(who) + ": expected str, got " + type_name(value));
  return *text;
}

// A name looked up in a table (a feature, an MMA op id, a family): the Python API formats any
// object with str() into its "unknown ..." message, so a non-string crosses as its str().
inline std::string name_arg(const py::handle& value) {
  std::optional<std::string> text = str_text(value);
  if (text.has_value()) return *text;
  return *str_text(py::str(value));
}

// An arch name as rocke.arch.get_arch takes it: a non-string is "unknown arch of a non-string name".
inline std::string arch_arg(const py::handle& value) {
  std::optional<std::string> text = str_text(value);
  if (!text.has_value()) {
    throw arch::UnknownArchError("unknown arch of a non-string name; known: " + util::join(arch::arch_names(), ", "));
  }
  return *text;
}

}  // namespace rocke::engine
