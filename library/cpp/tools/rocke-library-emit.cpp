// rocke-library-emit: the native emitter of library's families (and platform's), with no Python.
// Python twin: rocke/gates/emitters.py (emit_python) writing rocke/gates/frames.py records.
// Same command line, records and exit codes as platform's rocke-emit (rocke/gates/emitter_cli.hpp): this
// program only adds library's families to the registry first.
#include <iostream>
#include <string>
#include <vector>

#include "rocke/gates/emitter_cli.hpp"
#include "rocke_library/families.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  rocke::library::registry_with_library();
  std::vector<std::string> args(argv + 1, argv + argc);
  return rocke::gates::run_cli("rocke-library-emit", args, std::cout, std::cerr);
}
