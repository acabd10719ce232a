// rocKE C++ engine: the one exception translator of rocKE's Python extension modules
// (rocke_engine, and every other module built on rocke::core, e.g. a library's engine module).
// Python twins: the exception classes of rocke.ir.errors (ParseError, VerifyError),
// rocke.lower.errors (LowerError), rocke.arch.errors, rocke.families.spec (SpecError),
// rocke.families.configs (ConfigError), rocke.families.launch (LaunchError), and the built-in ValueError, TypeError, KeyError,
// NotImplementedError.
//
// Each C++ exception becomes its Python twin with the same text (what parity compares), most
// derived class first (LowerError before the ValueError it derives from). When a twin cannot be
// imported the nearest built-in class is raised with the same text. Header-only: needs pybind11.
//
//     PYBIND11_MODULE(my_engine, m) {
//       // Local: translators are process-global in pybind11, and another rocKE module must not
//       // intercept (and re-type) this module's exceptions.
//       pybind11::register_local_exception_translator(&rocke::bindings::translate_exception);
//     }
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <string>

#include "rocke/arch/errors.hpp"
#include "rocke/engine/bindings.hpp"
#include "rocke/errors.hpp"
#include "rocke/families/configs.hpp"
#include "rocke/families/launch.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/lower/errors.hpp"

namespace rocke::bindings {

// Raise module.name(*args), or `fallback` with the same text when the Python twin cannot be
// imported. Every text crosses with its full length and its surrogates (rocke/engine/bindings.hpp).
inline void raise_twin(const char* module, const char* name, const pybind11::tuple& args, PyObject* fallback,
                       const std::string& text) {
  try {
    pybind11::object cls = pybind11::module_::import(module).attr(name);
    pybind11::object exc = cls(*args);
    PyErr_SetObject(cls.ptr(), exc.ptr());
  } catch (pybind11::error_already_set&) {
    engine::set_error(fallback, text);
  }
}

inline void translate_exception(std::exception_ptr p) {
  namespace py = pybind11;
  using engine::py_text;
  using engine::set_error;
  try {
    if (p) std::rethrow_exception(p);
  } catch (const rocke::families::SpecError& e) {
    raise_twin("rocke.families.spec", "SpecError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::families::LaunchError& e) {
    raise_twin("rocke.families.launch", "LaunchError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::families::ConfigError& e) {
    raise_twin("rocke.families.configs", "ConfigError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::ParseError& e) {
    raise_twin("rocke.ir.errors", "ParseError", py::make_tuple(e.line(), e.col(), py_text(e.detail())),
               PyExc_ValueError, e.message());
  } catch (const rocke::VerifyError& e) {
    raise_twin("rocke.ir.errors", "VerifyError",
               py::make_tuple(py_text(e.rule()), py_text(e.where()), py_text(e.detail())), PyExc_ValueError,
               e.message());
  } catch (const rocke::LowerError& e) {
    raise_twin("rocke.lower.errors", "LowerError", py::make_tuple(py_text(e.where()), py_text(e.detail())),
               PyExc_ValueError, e.message());
  } catch (const rocke::arch::UnknownArchError& e) {
    raise_twin("rocke.arch.errors", "UnknownArchError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::arch::UnknownMmaOpError& e) {
    raise_twin("rocke.arch.errors", "UnknownMmaOpError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::arch::UnknownFeatureError& e) {
    raise_twin("rocke.arch.errors", "UnknownFeatureError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::arch::LayoutExprError& e) {
    raise_twin("rocke.arch.errors", "LayoutExprError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::arch::ArchDataError& e) {
    raise_twin("rocke.arch.errors", "ArchDataError", py::make_tuple(py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::NotImplementedError& e) {
    set_error(PyExc_NotImplementedError, e.message());
  } catch (const rocke::TypeError& e) {
    set_error(PyExc_TypeError, e.message());
  } catch (const rocke::KeyError& e) {
    PyErr_SetObject(PyExc_KeyError, py_text(e.message()).ptr());
  } catch (const rocke::ValueError& e) {
    set_error(PyExc_ValueError, e.message());
  } catch (const rocke::Error& e) {
    set_error(PyExc_RuntimeError, e.message());
  }
}

}  // namespace rocke::bindings
