// rocKE C++ engine: exceptions of the IR.
// Python twin: rocke/ir/errors.py (ParseError, VerifyError, OpCheckError).
#pragma once

#include <cstdint>
#include <string>

#include "rocke/errors.hpp"

namespace rocke {

// Malformed rocke.ir/1 text. what() is "line L, col C: <what>" (1-based line and column).
class ParseError : public ValueError {
 public:
  ParseError(std::int64_t line, std::int64_t col, std::string what)
      : Error("line " + std::to_string(line) + ", col " + std::to_string(col) + ": " + what),
        line_(line),
        col_(col),
        what_(std::move(what)) {}
  std::int64_t line() const { return line_; }
  std::int64_t col() const { return col_; }
  const std::string& detail() const { return what_; }

 private:
  std::int64_t line_;
  std::int64_t col_;
  std::string what_;
};

// A KernelDef breaks an IR rule. what() is "[rule] <where>: <what>".
class VerifyError : public ValueError {
 public:
  VerifyError(std::string rule, std::string where, std::string what)
      : Error("[" + rule + "] " + where + ": " + what),
        rule_(std::move(rule)),
        where_(std::move(where)),
        what_(std::move(what)) {}
  const std::string& rule() const { return rule_; }
  const std::string& where() const { return where_; }
  const std::string& detail() const { return what_; }

 private:
  std::string rule_;
  std::string where_;
  std::string what_;
};

namespace ir {

// Internal: one op failed a table check. rule is the verifier rule name; detail has no op
// prefix. The Builder turns it into TypeError (ValueError for attribute values), the verifier
// into VerifyError, the parser into ParseError.
class OpCheckError : public Error {
 public:
  OpCheckError(std::string rule, std::string detail)
      : Error("[" + rule + "] " + detail), rule_(std::move(rule)), detail_(std::move(detail)) {}
  const std::string& rule() const { return rule_; }
  const std::string& detail() const { return detail_; }

 private:
  std::string rule_;
  std::string detail_;
};

}  // namespace ir
}  // namespace rocke
