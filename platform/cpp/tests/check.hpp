// Minimal checking helpers shared by the ctest programs (no test framework dependency).
// Python twin: none (pytest plays this part for the Python tests).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <typeinfo>

namespace rocke_test {

inline int& failures() {
  static int count = 0;
  return count;
}

inline void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures();
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  }
}

inline void check_eq(const std::string& got, const std::string& want, const std::string& what) {
  if (got != want) {
    ++failures();
    std::fprintf(stderr, "FAILED: %s\n  got:  %s\n  want: %s\n", what.c_str(), got.c_str(), want.c_str());
  }
}

// Run fn and require it to throw E whose what() equals message.
template <class E>
void check_throws(const std::function<void()>& fn, const std::string& message, const std::string& what) {
  try {
    fn();
  } catch (const E& exc) {
    check_eq(exc.what(), message, what);
    return;
  } catch (const std::exception& exc) {
    ++failures();
    std::fprintf(stderr, "FAILED: %s\n  threw another exception: %s\n", what.c_str(), exc.what());
    return;
  }
  ++failures();
  std::fprintf(stderr, "FAILED: %s\n  did not throw %s\n", what.c_str(), typeid(E).name());
}

inline int finish(const char* name) {
  if (failures() != 0) {
    std::fprintf(stderr, "%s: %d failure(s)\n", name, failures());
    return 1;
  }
  std::printf("%s: ok\n", name);
  return 0;
}

}  // namespace rocke_test
