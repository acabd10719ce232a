// ctest: library and the platform core it links agree on the version.
#include <cstdio>

#include "rocke_library/version.hpp"

int main() {
  if (rocke::library::version() != rocke::library::platform_version()) {
    std::fprintf(stderr, "library %s linked with platform %s\n", rocke::library::version().c_str(),
                 rocke::library::platform_version().c_str());
    return 1;
  }
  std::printf("rocke-library %s\n", rocke::library::version().c_str());
  return 0;
}
