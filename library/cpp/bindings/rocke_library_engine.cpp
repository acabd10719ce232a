// rocke_library_engine: the Python bridge to librocke_library.a (which links rocke::core).
// Python twins: the builders of rocke_library's families (build_family), rocke_library.__version__,
// their launch contracts (launch_contract) and rocke_library.dispatch (normalize_problem, plan,
// serve_problem).
//
// Only text crosses this boundary (spec strings in, rocke.ir/1 or .ll text out), never live C++
// objects. Exceptions become their typed Python twins with the same text, through the translator
// both rocKE modules share (rocke/bindings/exceptions.hpp): SpecError, ParseError, VerifyError,
// LowerError, rocke.arch.errors.UnknownArchError (a KeyError and a ValueError); an unknown family
// is a KeyError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "rocke/bindings/exceptions.hpp"
#include "rocke/engine/bindings.hpp"
#include "rocke/engine/emit_family.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/ir/parser.hpp"
#include "rocke/ir/printer.hpp"
#include "rocke/lower/lower.hpp"
#include "rocke_library/dispatch/dispatch.hpp"
#include "rocke_library/dispatch/serve.hpp"
#include "rocke_library/families.hpp"
#include "rocke_library/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(rocke_library_engine, m) {
  m.doc() = "rocKE library C++ engine";
  // Local: translators are process-global in pybind11, and the other rocKE extension module must not
  // intercept (and re-type) this module's exceptions.
  py::register_local_exception_translator(&rocke::bindings::translate_exception);
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
  m.def(
      "emit_family",
      [](const py::object& name, const py::object& kv, const py::object& arch, const std::vector<std::string>& flavors) {
        return rocke::engine::emit_family(rocke::library::registry_with_library(), name, kv, arch, flavors);
      },
      py::arg("name"), py::arg("kv"), py::arg("arch"), py::arg("flavors"),
      "(ir, {flavor: ll}) of family name's C++ builder for spec kv on arch, built, verified and lowered in one "
      "call (no rocke.ir/1 text in between): what build_family then lower per flavor return, and the same errors.");
  m.def(
      "_profile_family",
      [](const std::string& name, const std::string& kv, const std::string& arch, const std::string& flavor,
         int repeat) {
        return rocke::engine::profile_family(rocke::library::registry_with_library(), name, kv, arch, flavor, repeat);
      },
      py::arg("name"), py::arg("kv"), py::arg("arch"), py::arg("flavor"), py::arg("repeat") = 5,
      "Bench hook: median thread-CPU seconds of build, verify, lower, print and parse of one config, and its op count.");
  m.def(
      "lower_family",
      [](const std::string& name, const std::string& kv, const std::string& arch, const std::string& flavor) {
        py::gil_scoped_release release;
        return rocke::lower::lower(rocke::library::registry_with_library().build(name, kv, arch), arch, flavor);
      },
      py::arg("name"), py::arg("kv"), py::arg("arch"), py::arg("flavor"),
      "The .ll text of family name's C++ builder for spec kv on arch, lowered for flavor (what a C++ host "
      "does): SpecError, LowerError, UnknownArchError as the Python engine raises them.");
  m.def(
      "lower_ir",
      [](const std::string& ir_text, const std::string& arch, const std::string& flavor) {
        py::gil_scoped_release release;
        return rocke::lower::lower(rocke::ir::parse_kernel(ir_text), arch, flavor);
      },
      py::arg("ir_text"), py::arg("arch"), py::arg("flavor"),
      "Parse rocke.ir/1 text, verify it for arch and lower it for flavor with this module's copy of the core: "
      "ParseError, VerifyError, LowerError as rocke.lower.lower raises them.");
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
  m.def(
      "launch_contract",
      [](const std::string& family, const std::string& kv, const std::map<std::string, std::int64_t>& problem) {
        rocke::families::ProblemSizes sizes(problem.begin(), problem.end());
        py::gil_scoped_release release;
        return rocke::library::launch_contract(family, kv, sizes).to_json();
      },
      py::arg("family"), py::arg("kv"), py::arg("problem"),
      "The family's launch contract for spec kv and a problem (name -> int) as rocke.launch/1 JSON: SpecError, "
      "LaunchError as the Python contract raises them; KeyError for a family without a C++ contract.");
  m.def(
      "normalize_problem",
      [](const std::string& kind, const std::string& text) {
        py::gil_scoped_release release;
        return rocke::library::dispatch::normalize_problem(kind, text);
      },
      py::arg("kind"), py::arg("text"), "The canonical kv text of a problem of kind (SpecError when malformed).");
  m.def(
      "plan",
      [](const std::string& kind, const std::string& text, const std::string& arch) {
        std::string json, text_form, status;
        {
          py::gil_scoped_release release;  // Python objects are made below, with the GIL held again
          rocke::library::dispatch::Plan plan = rocke::library::dispatch::plan(kind, text, arch);
          json = plan.to_json();
          text_form = plan.to_text();
          status = plan.status;
        }
        return py::make_tuple(json, text_form, status);
      },
      py::arg("kind"), py::arg("text"), py::arg("arch"),
      "dispatch a problem of kind on arch: (rocke.plan/1 JSON, the text rocke plan prints, status).");
  m.def(
      "serve_problem",
      [](const std::string& kind, const std::string& text, const std::string& arch, const std::string& directory) {
        py::gil_scoped_release release;
        return rocke::library::dispatch::serve_problem(kind, text, arch, directory);
      },
      py::arg("kind"), py::arg("text"), py::arg("arch"), py::arg("directory"),
      "plan a problem and serve it from the code-object catalog in directory: the text the example host prints "
      "(ValueError for a malformed problem, a bad catalog, a refused plan or a launch the catalog lacks).");
}
