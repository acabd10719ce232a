// rocKE library: dispatch reason codes, each with one fixed text, in the order they are listed.
// Python twin: rocke_library/dispatch/reasons.py (the table: reasons.json, generated into
// library/cpp/src/dispatch/reasons_json.cpp by library/tools/gen_cpp_tables.py)
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace rocke::library::dispatch {

struct Reason {
  std::string_view code;
  std::string_view text;
};

extern const std::vector<Reason> kReasons;  // table order

// The fixed text of a code; KeyError for an unknown code.
std::string_view reason_text(std::string_view code);

// codes once each, in table order (an unknown code is a KeyError).
std::vector<std::string> ordered(const std::vector<std::string>& codes);

}  // namespace rocke::library::dispatch
