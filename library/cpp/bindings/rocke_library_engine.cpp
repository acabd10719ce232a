// rocke_library_engine: the Python bridge to librocke_library.a (which links rocke::core).
// Python twins: the builders of rocke_library's families (build_family), rocke_library.__version__.
//
// Only text crosses this boundary (spec strings in, rocke.ir/1 text out), never live C++ objects.
// Exceptions become their Python twins with the same text: a refusal (SpecError, a verifier
// refusal) is a ValueError, an unknown arch rocke.arch.errors.UnknownArchError (a KeyError and a
// ValueError), an unknown family a KeyError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "rocke/arch/errors.hpp"
#include "rocke/engine/bindings.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/errors.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke_library/families.hpp"
#include "rocke_library/version.hpp"

namespace py = pybind11;

namespace {

// Raise module.name(*args), or `fallback` with the same text when the twin cannot be imported.
// Every text crosses with its full length and its surrogates (rocke/engine/bindings.hpp).
void raise_twin(const char* module, const char* name, const py::tuple& args, PyObject* fallback,
                const std::string& text) {
  try {
    py::object cls = py::module_::import(module).attr(name);
    py::object exc = cls(*args);
    PyErr_SetObject(cls.ptr(), exc.ptr());
  } catch (py::error_already_set&) {
    rocke::engine::set_error(fallback, text);
  }
}

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const rocke::families::SpecError& e) {
    raise_twin("rocke.families.spec", "SpecError", py::make_tuple(rocke::engine::py_text(e.message())), PyExc_ValueError,
               e.message());
  } catch (const rocke::arch::UnknownArchError& e) {
    raise_twin("rocke.arch.errors", "UnknownArchError", py::make_tuple(rocke::engine::py_text(e.message())),
               PyExc_ValueError, e.message());
  } catch (const rocke::NotImplementedError& e) {
    rocke::engine::set_error(PyExc_NotImplementedError, e.message());
  } catch (const rocke::TypeError& e) {
    rocke::engine::set_error(PyExc_TypeError, e.message());
  } catch (const rocke::ValueError& e) {
    rocke::engine::set_error(PyExc_ValueError, e.message());
  } catch (const rocke::KeyError& e) {
    PyErr_SetObject(PyExc_KeyError, rocke::engine::py_text(e.message()).ptr());
  } catch (const rocke::Error& e) {
    rocke::engine::set_error(PyExc_RuntimeError, e.message());
  }
}

}  // namespace

PYBIND11_MODULE(rocke_library_engine, m) {
  m.doc() = "rocKE library C++ engine";
  // Local: translators are process-global in pybind11, and the other rocKE extension module must not
  // intercept (and re-type) this module's exceptions.
  py::register_local_exception_translator(&translate);
  m.def("version", &rocke::library::version, "Library engine version.");
  m.def("platform_version", &rocke::library::platform_version,
        "Version of the rocke::core this engine was linked with.");
  m.def(
      "build_family",
      [](const py::object& name, const py::object& kv, const py::object& arch) {
        std::string name_text = rocke::engine::name_arg(name);
        std::optional<std::string> kv_text = rocke::engine::str_text(kv);
        if (!kv_text.has_value() && rocke::library::registry_with_library().find(name_text) != nullptr) {
          throw rocke::TypeError(name_text + ": from_kv: expected str, got " + rocke::engine::type_name(kv));
        }
        std::string arch_text = rocke::engine::arch_arg(arch);
        py::gil_scoped_release release;
        return rocke::ir::print_kernel(rocke::library::registry_with_library().build(name_text, kv_text.value_or(""), arch_text));
      },
      py::arg("name"), py::arg("kv"), py::arg("arch"),
      "The rocke.ir/1 text of family name's C++ builder for spec kv on arch; ValueError with the refusal text, "
      "KeyError for an unknown family.");
  m.def("family_names", [] { return py::tuple(py::cast(rocke::library::registry_with_library().names())); },
        "Families with a C++ builder in this module (platform's and library's), sorted.");
  m.def(
      "refusal_listing",
      [](const std::string& name) {
        const rocke::families::Family& family = rocke::library::registry_with_library().get(name);
        if (family.refusals == nullptr) return std::vector<std::array<std::string, 3>>{};
        return rocke::families::table_listing(*family.refusals);
      },
      py::arg("name"),
      "(arch, digest, refusal message) of every row of the family's compiled resource-refusal table.");
}
