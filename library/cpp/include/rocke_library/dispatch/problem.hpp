// rocKE library: problems -- frozen descriptions of what a caller wants, with one canonical kv text
// like specs (a problem is a families::Spec; kFamily "<kind> problem" prefixes every error).
// Python twin: rocke_library/dispatch/problem.py
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/families/spec.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::dispatch {

inline constexpr std::array<std::string_view, 4> kProblemDtypes = {"f16", "bf16", "f32", "f64"};
inline constexpr std::int64_t kMaxSize = 2147483647;  // sizes and strides are i32 kernel arguments
inline constexpr std::int64_t kMaxAlign = 256;

// Python: DTYPE_BYTES[dtype] for a PROBLEM_DTYPES entry.
std::int64_t dtype_bytes(std::string_view dtype);

// Base of the problem kinds (CRTP): Derived provides kKind, kFamily, fields(), defaults(given),
// check() and dead().
template <class Derived>
class Problem : public families::Spec<Derived> {
 public:
  // Python: Problem.parse -- the pairs checked as Spec.from_kv checks them (malformed, unknown,
  // twice, value), the optional keys filled, then missing keys; then the rules.
  static Derived parse(std::string_view text) {
    std::string_view fam = Derived::kFamily;
    std::vector<families::SpecField> types = families::Spec<Derived>::field_types();
    auto kind_of = [&](std::string_view key) -> const families::SpecField* {
      for (const families::SpecField& field : types) {
        if (field.name == key) return &field;
      }
      return nullptr;
    };
    std::vector<std::string> names;
    for (const families::SpecField& field : types) names.push_back(field.name);
    std::sort(names.begin(), names.end());
    families::KvValues given;
    std::size_t start = 0;
    while (!text.empty() && start <= text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view pair = text.substr(start, end - start);
      std::size_t eq = pair.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        throw families::SpecError(util::cat(fam, ": malformed pair '", pair, "' (expected key=value)"));
      }
      std::string_view key = pair.substr(0, eq);
      const families::SpecField* field = kind_of(key);
      if (field == nullptr) {
        throw families::SpecError(util::cat(fam, ": unknown key '", key, "'; known keys: ", util::join(names, ", ")));
      }
      if (given.find(key) != given.end()) throw families::SpecError(util::cat(fam, ": key '", key, "' given twice"));
      given.emplace(std::string(key), families::parse_value(fam, key, pair.substr(eq + 1), field->kind));
      start = end + 1;
    }
    families::KvValues values = given;
    for (auto& [key, value] : Derived::defaults(given)) values.emplace(key, value);
    for (const std::string& name : names) {
      if (values.find(name) == values.end()) throw families::SpecError(util::cat(fam, ": missing key '", name, "'"));
    }
    Derived problem;
    for (const families::Field<Derived>& field : Derived::fields()) {
      const families::FieldValue& value = values.find(field.name)->second;
      std::visit(
          [&](auto member) { problem.*member = std::get<std::remove_reference_t<decltype(problem.*member)>>(value); },
          field.member);
    }
    problem.check();
    return problem;
  }

  // Python: Problem.check_choice
  void check_choice(std::string_view field, const std::string& value, const std::vector<std::string_view>& choices) const {
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
      this->fail(field, util::cat("must be one of ", util::join(choices, ", ")));
    }
  }

  // Python: Problem.check_range
  void check_range(std::string_view field, std::int64_t value, std::int64_t low, std::int64_t high = kMaxSize) const {
    if (value < low || value > high) {
      this->fail(field, util::cat("must be in ", std::to_string(low), "..", std::to_string(high)));
    }
  }

  // Python: Problem.check_align
  void check_align(std::int64_t align, std::string_view dtype) const {
    std::int64_t esize = dtype_bytes(dtype);
    if (align < esize || align > kMaxAlign || (align & (align - 1)) != 0) {
      this->fail("align", util::cat("must be a power of two in ", std::to_string(esize), "..", std::to_string(kMaxAlign),
                                    " (bytes; at least one ", dtype, ")"));
    }
  }
};

// The kv value of given[key] when it is an int; nullptr otherwise.
const std::int64_t* given_int(const families::KvValues& given, std::string_view key);

}  // namespace rocke::library::dispatch
