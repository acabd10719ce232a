// rocke-emit: the native emitter of platform's families, with no Python at all (docs/architecture.md §3).
// Python twin: rocke/gates/emitters.py (emit_python) writing rocke/gates/frames.py records.
// Usage and exit codes: rocke/gates/emitter_cli.hpp.
#include <iostream>
#include <string>
#include <vector>

#include "rocke/gates/emitter_cli.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  return rocke::gates::run_cli("rocke-emit", args, std::cout, std::cerr);
}
