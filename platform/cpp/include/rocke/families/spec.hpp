// rocKE C++ engine: family specs and their one canonical text form.
// Python twin: rocke/families/spec.py (same parsing order, same SpecError texts byte for byte)
//
// The canonical form is key=value pairs separated by single spaces, keys sorted. Field kinds are
// int (decimal, at most 18 digits), str (letters, digits, '_', '.', '-') and bool (0/1). A family
// spec is a struct deriving from Spec<Itself> that lists its fields and its rules:
//
//     struct ElementwiseSpec : Spec<ElementwiseSpec> {
//       static constexpr std::string_view kFamily = "elementwise";
//       std::int64_t block = 0;
//       std::string dtype;
//       static const std::vector<Field<ElementwiseSpec>>& fields();  // {"block", &ElementwiseSpec::block}, ...
//       void check() const;                                           // calls fail(field, rule)
//     };
//     ElementwiseSpec spec = ElementwiseSpec::from_kv("block=256 dtype=f16");  // parses, then check()
//
// Python runs check() when a spec is constructed (__post_init__); here from_kv runs it, and code
// that fills a spec by hand calls check() itself.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/errors.hpp"
#include "rocke/families/registry.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families {

// An invalid spec; the message names the family, the field, the value and the rule.
class SpecError : public ValueError {
 public:
  explicit SpecError(std::string message) : Error(std::move(message)) {}
};

// FieldKind (int, str, bool) and SpecField (a field's name and kind: one item of Python's
// Spec.field_types()) are declared in registry.hpp, whose Family carries a spec's fields.

// One field value: int, str or bool (Python's int | str | bool).
using FieldValue = std::variant<std::int64_t, std::string, bool>;

// Parsed kv values by key (keys sorted).
using KvValues = std::map<std::string, FieldValue, std::less<>>;

// Python: _format_value -- bools as 0/1, ints in decimal, strings as they are.
std::string format_value(const FieldValue& value);
// format_value's spelling of one field's value, appended to out (to_kv spells a spec's members
// without copying each into a FieldValue).
inline void append_value(std::string& out, bool flag) { out += flag ? '1' : '0'; }
inline void append_value(std::string& out, std::int64_t number) { util::append_int(out, number); }
inline void append_value(std::string& out, const std::string& text) { out += text; }

// Python: _parse_value -- the value of raw for a field of kind; SpecError otherwise.
FieldValue parse_value(std::string_view family, std::string_view key, std::string_view raw, FieldKind kind);

// Python: the parsing part of Spec.from_kv -- every field's value, at its index in types (no map
// of keys per spec read), checked for malformed pairs, unknown, repeated and missing keys and bad
// values, in that order; SpecError otherwise.
std::vector<FieldValue> parse_fields(std::string_view family, const std::vector<SpecField>& types,
                                     std::string_view text);

// Python: Spec.digest -- sha256 hex of "family:kv".
std::string spec_digest(std::string_view family, std::string_view kv);

// Python: Spec.kernel_name -- "<family>_<first 10 hex of the digest>".
std::string spec_kernel_name(std::string_view family, std::string_view kv);

// A field of spec struct S: its name and the member holding it.
template <class S>
struct Field {
  std::string_view name;
  std::variant<std::int64_t S::*, std::string S::*, bool S::*> member;
};

// Base of every family spec (CRTP): Derived provides kFamily, fields() and check().
template <class Derived>
class Spec {
 public:
  // Python: Spec.field_types() -- the fields in declaration order (made once: every from_kv reads
  // them).
  static const std::vector<SpecField>& field_types() {
    static const std::vector<SpecField> types = [] {
      std::vector<SpecField> made;
      for (const Field<Derived>& field : Derived::fields()) {
        FieldKind kind = field.member.index() == 0 ? FieldKind::Int
                         : field.member.index() == 1 ? FieldKind::Str
                                                     : FieldKind::Bool;
        made.push_back({std::string(field.name), kind});
      }
      return made;
    }();
    return types;
  }

  // Python: Spec.from_kv -- parse text, then run the spec's rules.
  static Derived from_kv(std::string_view text) {
    std::vector<FieldValue> values = parse_fields(Derived::kFamily, field_types(), text);
    Derived spec;
    std::size_t at = 0;  // field_types() lists the fields in fields() order
    for (const Field<Derived>& field : Derived::fields()) {
      FieldValue& value = values[at++];
      std::visit(
          [&](auto member) { spec.*member = std::move(std::get<std::remove_reference_t<decltype(spec.*member)>>(value)); },
          field.member);
    }
    spec.check();
    return spec;
  }

  // getattr(spec, field) for a declared field; ValueError otherwise.
  FieldValue value(std::string_view field) const {
    const auto& self = static_cast<const Derived&>(*this);
    for (const Field<Derived>& entry : Derived::fields()) {
      if (entry.name == field) {
        return std::visit([&](auto member) { return FieldValue(self.*member); }, entry.member);
      }
    }
    throw ValueError(util::cat(Derived::kFamily, ": no field '", field, "'"));
  }

  // The fields sorted by name (made once): to_kv's order.
  static const std::vector<const Field<Derived>*>& sorted_fields() {
    static const std::vector<const Field<Derived>*> sorted = [] {
      std::vector<const Field<Derived>*> made;
      for (const Field<Derived>& field : Derived::fields()) made.push_back(&field);
      std::sort(made.begin(), made.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
      return made;
    }();
    return sorted;
  }

  // Python: Spec.fail -- raise SpecError("FAMILY: FIELD=VALUE: RULE").
  [[noreturn]] void fail(std::string_view field, std::string_view rule) const {
    std::string message(Derived::kFamily);
    message.append(": ").append(field).append("=").append(format_value(value(field))).append(": ").append(rule);
    throw SpecError(std::move(message));
  }

  // Python: Spec.to_kv -- key=value pairs, keys sorted.
  std::string to_kv() const {
    const auto& self = static_cast<const Derived&>(*this);
    std::string out;
    for (const Field<Derived>* field : sorted_fields()) {
      if (!out.empty()) out += ' ';
      out.append(field->name).append("=");
      std::visit([&](auto member) { append_value(out, self.*member); }, field->member);
    }
    return out;
  }

  std::string digest() const { return spec_digest(Derived::kFamily, to_kv()); }
  std::string kernel_name() const { return spec_kernel_name(Derived::kFamily, to_kv()); }

  // Python: Spec.check -- no rules; a family spec declares its own check() const.
  void check() const {}
};

// Rules shared by family specs; a spec's check() calls them in its own rule order (Python:
// check_dtype, check_vec, check_threads in rocke/families/spec.py).
inline constexpr std::array<std::int64_t, 4> kVecWidths = {1, 2, 4, 8};
inline constexpr std::int64_t kMaxAccessBytes = 16;  // the widest buffer access (dwordx4)
inline constexpr std::int64_t kThreadStep = 32;  // the smaller wave size; build() also requires the arch's wave size
inline constexpr std::int64_t kMaxThreads = 1024;

// Python: check_dtype -- spec.dtype is a float storage type.
template <class S>
void check_dtype(const S& spec) {
  using helpers::kFloatDtypes;
  if (std::find(kFloatDtypes.begin(), kFloatDtypes.end(), spec.dtype) == kFloatDtypes.end()) {
    spec.fail("dtype", util::cat("must be one of ", util::join(kFloatDtypes, ", ")));
  }
}

// Python: check_vec -- spec.vec is a vector width whose access of spec.dtype fits the widest buffer
// access.
template <class S>
void check_vec(const S& spec) {
  if (std::find(kVecWidths.begin(), kVecWidths.end(), spec.vec) == kVecWidths.end()) {
    spec.fail("vec", "must be 1, 2, 4 or 8");
  }
  std::int64_t most = kMaxAccessBytes / helpers::elem_bytes(spec.dtype);
  if (spec.vec > most) {
    spec.fail("vec", util::cat("one ", spec.dtype, " access holds at most ", std::to_string(most), " elements (",
                               std::to_string(kMaxAccessBytes), " bytes)"));
  }
}

// Python: check_threads -- threads (a workgroup size) is a multiple of THREAD_STEP in
// THREAD_STEP..MAX_THREADS; a failure names field, and what (e.g. how threads is computed) prefixes
// the rule.
template <class S>
void check_threads(const S& spec, std::string_view field, std::int64_t threads, std::string_view what = "") {
  if (threads < kThreadStep || threads > kMaxThreads || threads % kThreadStep != 0) {
    spec.fail(field, util::cat(what, "must be a multiple of ", std::to_string(kThreadStep), " in ",
                               std::to_string(kThreadStep), "..", std::to_string(kMaxThreads)));
  }
}

// Python: check_wave_multiple -- threads is a multiple of the target's wave size (the arch-dependent
// half of check_threads, run by a builder's check_arch); a failure names field, and what prefixes
// the rule.
template <class S>
void check_wave_multiple(const S& spec, std::string_view field, std::int64_t threads, const arch::ArchTarget& target,
                         std::string_view what = "") {
  if (threads % target.wave_size != 0) {
    spec.fail(field, util::cat(what, "must be a multiple of the wave size ", std::to_string(target.wave_size), " of ",
                               target.name));
  }
}

// Python: check_mma_atom -- spec.op_id names a catalog op that multiplies dtype inputs (the value of
// spec field `field`) and accumulates in f32; returns that op.
template <class S>
const arch::MmaOp& check_mma_atom(const S& spec, std::string_view field, std::string_view dtype) {
  if (arch::find_mma_op(spec.op_id) == nullptr) spec.fail("op_id", "is not an op of the MMA catalog");
  const arch::MmaOp& op = arch::mma_op(spec.op_id);
  if (op.a_dtype() != dtype || op.b_dtype() != dtype) {
    spec.fail("op_id", util::cat("multiplies ", op.a_dtype(), " inputs, not ", field, "=", dtype));
  }
  if (op.acc_dtype() != "f32") spec.fail("op_id", "must accumulate in f32");
  return op;
}

// The tile fields of a spec on the tile-GEMM main loop (rocke/helpers/tile_gemm.hpp).
inline constexpr std::int64_t kMaxWavesPerDim = 32;
inline constexpr std::int64_t kMaxTileMn = 512;
inline constexpr std::int64_t kMaxTileK = 256;
inline constexpr std::int64_t kMaxLdsPad = 64;

// Python: check_tile_gemm -- spec's wm wn bm bn bk lds_pad (the tile-GEMM main loop's tile) fit
// their ranges and op's atom, in that order.
template <class S>
void check_tile_gemm(const S& spec, const arch::MmaOp& op) {
  auto str = [](std::int64_t value) { return std::to_string(value); };
  for (auto [field, value] : {std::pair<std::string_view, std::int64_t>{"wm", spec.wm}, {"wn", spec.wn}}) {
    if (!(1 <= value && value <= kMaxWavesPerDim)) {
      spec.fail(field, util::cat("must be in 1..", str(kMaxWavesPerDim)));
    }
  }
  for (auto [field, value, most] :
       {std::tuple<std::string_view, std::int64_t, std::int64_t>{"bm", spec.bm, kMaxTileMn},
        {"bn", spec.bn, kMaxTileMn},
        {"bk", spec.bk, kMaxTileK}}) {
    if (!(1 <= value && value <= most)) spec.fail(field, util::cat("must be in 1..", str(most)));
  }
  if (spec.bm % (spec.wm * op.m) != 0) {
    spec.fail("bm", util::cat("must be a multiple of wm * atom m = ", str(spec.wm), " * ", str(op.m), " (", op.id,
                              ")"));
  }
  if (spec.bn % (spec.wn * op.n) != 0) {
    spec.fail("bn", util::cat("must be a multiple of wn * atom n = ", str(spec.wn), " * ", str(op.n), " (", op.id,
                              ")"));
  }
  if (spec.bk % op.k != 0) spec.fail("bk", util::cat("must be a multiple of atom k = ", str(op.k), " (", op.id, ")"));
  if (!(0 <= spec.lds_pad && spec.lds_pad <= kMaxLdsPad)) {
    spec.fail("lds_pad", util::cat("must be in 0..", str(kMaxLdsPad)));
  }
}

}  // namespace rocke::families
