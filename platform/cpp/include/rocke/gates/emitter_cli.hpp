// rocKE C++ engine: the command line of the native emitters (rocke-emit, and a library's own
// emitter after it registers its families).
// Python twin: none; the Python engine's emitter is rocke/gates/emitters.py (emit_python), whose
// output this command writes as framed records (rocke/gates/frames.py).
//
//     PROGRAM --arch ARCH --flavor FLAVOR FILE...
//         one config per rocke.ir/1 FILE: a record "ll:FLAVOR", or "refusal" with the error text
//     PROGRAM --family NAME --configs FILE --flavors F1,F2,...
//         per config line: "ir", then "ll:F" per flavor, or one "refusal"
//     PROGRAM --check-golden --family NAME (--configs FILE --golden FILE | --root DIR) [--flavors F1,...]
//         the golden check of rocke/gates/golden.py, hashed here (rocke/gates/golden.hpp): every
//         config for every flavor (default: every flavor of the flavor table), sha256 over the exact
//         bytes, compared with the golden file; --root finds both files under a package directory
//         (gates::find_family_files). Prints each problem on a line, then one verdict line; exit 0
//         when the golden matches, 1 when it does not (or the config file is malformed), 2 for bad
//         arguments.
//     PROGRAM --list-families | --help | --version
//
// Both emitting modes end the stream with the end marker. Exit status: 0 when the stream is complete;
// 2 with one line on stderr for bad arguments (unknown option, family or flavor, a missing value);
// 1 with one line on stderr for an unreadable file (a directory, or over the input size limit of
// rocke/ir/source.hpp; "-" reads stdin), a malformed config file or a crash (the stream
// then has no end marker, so readers see it truncated).
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/registry.hpp"

namespace rocke::gates {

// The command line over the families of registry; returns the exit status. A library's emitter:
//
//     int main(int argc, char** argv) {
//       rocke::families::FamilyRegistry families;           // or rocke::families::registry()
//       rocke::library::register_families(families);        // its own Family entries
//       return rocke::gates::run_cli("rocke-library-emit", {argv + 1, argv + argc}, std::cout, std::cerr,
//                                   families);
//     }
int run_cli(std::string_view program, const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            const families::FamilyRegistry& registry);
// The same over the process-wide registry (platform's families): what rocke-emit runs.
int run_cli(std::string_view program, const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rocke::gates
