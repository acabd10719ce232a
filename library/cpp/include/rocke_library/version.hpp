// rocKE library C++ engine: version.
// Python twin: rocke_library/__init__.py (__version__).
#pragma once

#include <string>

namespace rocke::library {

// The library version; it must equal the platform version it was built against.
std::string version();

// The platform engine version this library was linked with.
std::string platform_version();

}  // namespace rocke::library
