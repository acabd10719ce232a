// Python twin: rocke_library/dispatch/reasons.py
#include "rocke_library/dispatch/reasons.hpp"

#include <algorithm>

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::dispatch {

std::string_view reason_text(std::string_view code) {
  for (const Reason& reason : kReasons) {
    if (reason.code == code) return reason.text;
  }
  std::vector<std::string_view> codes;
  for (const Reason& reason : kReasons) codes.push_back(reason.code);
  throw KeyError(util::cat("unknown dispatch reason code '", code, "'; known: ", util::join(codes, ", ")));
}

std::vector<std::string> ordered(const std::vector<std::string>& codes) {
  for (const std::string& code : codes) reason_text(code);
  std::vector<std::string> out;
  for (const Reason& reason : kReasons) {
    if (std::find(codes.begin(), codes.end(), reason.code) != codes.end()) out.emplace_back(reason.code);
  }
  return out;
}

}  // namespace rocke::library::dispatch
