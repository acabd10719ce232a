// rocKE C++ engine: LowerError, a verified kernel the lowerer still cannot write for the chosen
// arch and flavor.
// Python twin: rocke/lower/errors.py
#pragma once

#include <string>
#include <utility>

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke {

// Raised before any LLVM sees text. what() is "WHERE: WHAT" with fixed wording; WHERE is
// "kernel @NAME" or "OPNAME[ %FIRSTRESULT] at PATH" as in the verifier (e.g. body[9].then[0]).
// A ValueError, as in Python.
class LowerError : public ValueError {
 public:
  LowerError(std::string where, std::string what)
      : Error(util::cat(where, ": ", what)), where_(std::move(where)), what_(std::move(what)) {}
  const std::string& where() const { return where_; }
  const std::string& detail() const { return what_; }

 private:
  std::string where_;
  std::string what_;
};

}  // namespace rocke
