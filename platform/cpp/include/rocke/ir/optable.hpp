// rocKE C++ engine: type constraints and the op registry, built from data/ops.toml.
// Python twins: rocke/ir/constraints.py, rocke/ir/optable.py
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/ir/attrs.hpp"
#include "rocke/ir/types.hpp"

namespace rocke::ir {

// A type constraint of ops.toml: "$NAME" (same type as the earlier operand NAME) or "A|B|..."
// where each alternative is a class (any, int, float, vec, vec_int, vec_float, ptr_<space>) or a
// concrete type in text form (i32, rsrc, ptr<f32, global>).
class Constraint {
 public:
  Constraint() = default;
  explicit Constraint(std::string text, const std::vector<std::string>& earlier_operands = {});

  const std::string& text() const { return text_; }
  std::optional<std::size_t> same_as() const { return same_as_; }
  const std::string& same_as_name() const { return same_as_name_; }

  // Whether ty satisfies a class/concrete constraint (not meaningful for "$NAME"). Inline below:
  // it runs for every operand of every op checked.
  bool admits(const Type& ty) const;
  // ty is a pointer in a space this constraint never admits, while it admits other pointers.
  bool is_address_space_mismatch(const Type& ty) const;
  // The one concrete type this constraint names, if it is exactly one concrete type.
  std::optional<Type> single_type() const;
  // The Type::category() values its classes admit.
  const std::vector<std::string>& categories() const { return categories_; }

 private:
  std::string text_;
  std::optional<std::size_t> same_as_;
  std::string same_as_name_;
  bool accepts_any_ = false;
  std::vector<std::string> categories_;
  std::uint64_t category_mask_ = 0;  // the category_bit of each of categories_
  std::vector<Type> concrete_;
  std::vector<std::string> pointer_spaces_;
};

// Type::category() values as bit numbers (int, float, vec_int, vec_float, rsrc, then ptr_<space>
// in address_spaces() order), so that Constraint::admits tests one bit of a mask instead of
// building and comparing the category's text for every operand of every op checked.
// kNoCategoryBit for a text that is no category (and for a type without one).
inline constexpr unsigned kNoCategoryBit = 64;
unsigned category_bit(std::string_view category);
// The first ptr_<space> bit (after int, float, vec_int, vec_float, rsrc).
inline constexpr unsigned kFirstPtrCategoryBit = 5;
// The bit of ty.category(), without building that text.
inline unsigned category_bit(const Type& ty) {
  switch (ty.kind()) {
    case Type::Kind::Scalar:
    case Type::Kind::Vec: {
      const ScalarInfo& info = ty.info();
      const unsigned offset = ty.is_vec() ? 2 : 0;
      if (info.is_int_kind) return offset;
      if (info.is_float_kind) return offset + 1;
      return kNoCategoryBit;
    }
    case Type::Kind::Rsrc: return 4;
    case Type::Kind::Ptr: {
      const std::size_t bit = kFirstPtrCategoryBit + ty.space_index();
      return bit < kNoCategoryBit ? static_cast<unsigned>(bit) : kNoCategoryBit;
    }
    case Type::Kind::None: break;
  }
  return kNoCategoryBit;
}

inline bool Constraint::admits(const Type& ty) const {
  if (accepts_any_) return true;
  if (unsigned bit = category_bit(ty); bit != kNoCategoryBit && ((category_mask_ >> bit) & 1) != 0) return true;
  for (const Type& concrete : concrete_) {
    if (concrete == ty) return true;
  }
  return false;
}

// An operand or result slot: name, type constraint, and whether it takes zero or more values.
struct OperandDef {
  std::string name;
  Constraint constraint;
  bool variadic = false;
};

struct RegionDef {
  std::string name;
  std::string args;  // none | for_body
  std::string terminator;
  bool for_body = false;  // args == "for_body"
};

// An op's type_rule, placement and checks as enums, read once from the row's texts (those stay in
// OpDef for messages): the Builder, the verifier and the type check branch on these per op.
enum class TypeRule : std::uint8_t {
  None, Fixed, Explicit, SameAsOperand0, SameAsOperand1, SameAsOperand2, CmpI1, Cast, CastWider,
  CastNarrower, CastSameBits, Load, ElemOfOperand0, Splat, IterArgs,
};
enum class Placement : std::uint8_t { Any, KernelBody, Terminator };
enum class OpCheck : std::uint8_t { StoreValue, VecIndex, InsertElem };

// One row of ops.toml.
struct OpDef {
  std::string name;
  std::string builder;
  std::string summary;
  std::vector<OperandDef> operands;
  std::vector<OperandDef> results;
  std::vector<AttrDef> attrs;
  std::string type_rule;
  bool pure = false;
  bool convergent = false;
  std::string feature;
  std::string arch_rule;
  std::vector<std::string> checks;
  std::string placement;
  std::vector<RegionDef> regions;
  TypeRule rule = TypeRule::None;       // type_rule
  bool explicit_rule = false;           // is_explicit_rule(type_rule)
  Placement where = Placement::Any;     // placement
  std::vector<OpCheck> check_kinds;     // checks, in order
  bool mma_signature_rule = false;      // arch_rule == "mma_signature"

  std::string_view dialect() const { return std::string_view(name).substr(0, name.find('.')); }
  bool variadic_operands() const { return !operands.empty() && operands.back().variadic; }
  bool variadic_results() const { return !results.empty() && results.back().variadic; }
  // Operands before the variadic group (all of them when there is none).
  std::size_t fixed_operand_count() const { return operands.size() - (variadic_operands() ? 1 : 0); }
  const AttrDef* attr(std::string_view attr_name) const;
};

// Every op, in ops.toml order.
const std::vector<OpDef>& ops();
// The OpDef of opcode name, or nullptr.
const OpDef* find_op(std::string_view name);
// The OpDef of opcode name; ValueError "unknown op 'NAME'" otherwise.
const OpDef& get_op(std::string_view name);
// Whether rule names a type rule whose result types the author states.
bool is_explicit_rule(std::string_view rule);
// Result types of a type_rule = fixed op.
std::vector<Type> fixed_result_types(const OpDef& opdef);

}  // namespace rocke::ir
