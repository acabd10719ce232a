// rocke-library-emit: the native emitter of library's families (and platform's), with no Python.
// Python twin: rocke/gates/emitters.py (emit_python) writing rocke/gates/frames.py records.
// Same command line, records and exit codes as platform's rocke-emit (rocke/gates/emitter_cli.hpp): this
// program only adds library's families to the registry first.
#include <malloc.h>

#include <iostream>
#include <string>
#include <vector>

#include "rocke/gates/emitter_cli.hpp"
#include "rocke_library/families.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  // One run builds and frees a kernel and its .ll texts per config: keep freed memory in the heap
  // (no trim back to the system, no mmap per large text) so the next config reuses it without page faults.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 1 << 25);  // glibc's largest (32 MiB)
  rocke::library::registry_with_library();
  std::vector<std::string> args(argv + 1, argv + argc);
  return rocke::gates::run_cli("rocke-library-emit", args, std::cout, std::cerr);
}
