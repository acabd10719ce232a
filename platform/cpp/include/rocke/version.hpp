// rocKE C++ engine: version and build identity.
// Python twin: rocke/_version.py (the single source; CMake reads it).
#pragma once

#include <string>

namespace rocke {

// The engine version, identical to the Python package version.
std::string version();

// Compiler and build type the engine was built with, for bug reports.
std::string build_id();

}  // namespace rocke
