// rocke_engine: the Python bridge to the C++ engine (librocke_core.a).
// Only text crosses this boundary (IR, .ll, spec strings), never live C++ objects.
#include <pybind11/pybind11.h>

#include "rocke/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(rocke_engine, m) {
  m.doc() = "rocKE C++ engine";
  m.def("version", &rocke::version, "Engine version (equals rocke.__version__).");
  m.def("build_id", &rocke::build_id, "Compiler and build type of the engine.");
}
