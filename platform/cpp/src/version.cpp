// Python twin: rocke/_version.py
#include "rocke/version.hpp"

namespace rocke {

std::string version() { return ROCKE_VERSION; }

std::string build_id() {
  std::string id = "rocke " ROCKE_VERSION;
#if defined(__clang__)
  id += " clang " __clang_version__;
#elif defined(__GNUC__)
  id += " gcc " __VERSION__;
#endif
#if defined(NDEBUG)
  id += " release";
#else
  id += " debug";
#endif
  return id;
}

}  // namespace rocke
