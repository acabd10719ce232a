// Python twin: rocke_library/__init__.py
#include "rocke_library/version.hpp"

#include "rocke/version.hpp"

namespace rocke::library {

std::string version() { return ROCKE_LIBRARY_VERSION; }

std::string platform_version() { return rocke::version(); }

}  // namespace rocke::library
