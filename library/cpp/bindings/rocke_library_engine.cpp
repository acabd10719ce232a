// rocke_library_engine: the Python bridge to librocke_library.a (which links rocke::core).
// Only text crosses this boundary, never live C++ objects.
#include <pybind11/pybind11.h>

#include "rocke_library/version.hpp"

PYBIND11_MODULE(rocke_library_engine, m) {
  m.doc() = "rocKE library C++ engine";
  m.def("version", &rocke::library::version, "Library engine version.");
  m.def("platform_version", &rocke::library::platform_version,
        "Version of the rocke::core this engine was linked with.");
}
