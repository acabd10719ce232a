// rocke-emit: the native emitter of platform's families, with no Python at all (docs/architecture.md §3).
// Python twin: rocke/gates/emitters.py (emit_python) writing rocke/gates/frames.py records.
// Usage and exit codes: rocke/gates/emitter_cli.hpp.
#include <malloc.h>

#include <iostream>
#include <string>
#include <vector>

#include "rocke/gates/emitter_cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  // One run builds and frees a kernel and its .ll texts per config: keep freed memory in the heap
  // (no trim back to the system, no mmap per large text) so the next config reuses it without page faults.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 1 << 25);  // glibc's largest (32 MiB)
  std::vector<std::string> args(argv + 1, argv + argc);
  return rocke::gates::run_cli("rocke-emit", args, std::cout, std::cerr);
}
