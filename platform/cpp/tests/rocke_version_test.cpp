// ctest: the engine reports a non-empty semantic version.
#include <cstdio>
#include <string>

#include "rocke/version.hpp"

int main() {
  const std::string v = rocke::version();
  int dots = 0;
  for (char c : v) dots += (c == '.');
  if (v.empty() || dots != 2) {
    std::fprintf(stderr, "bad version '%s'\n", v.c_str());
    return 1;
  }
  std::printf("rocke %s (%s)\n", v.c_str(), rocke::build_id().c_str());
  return 0;
}
