// Python twin: rocke/ir/typecheck.py
#include "rocke/ir/typecheck.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::ir {

namespace {

std::string plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n != 1 ? "s" : "");
}

const OperandDef* slot_for(const std::vector<OperandDef>& slots, std::size_t index) {
  if (slots.empty()) return nullptr;
  return index < slots.size() ? &slots[index] : &slots.back();
}

// The author's result types, checked against the result slots, into results.
void explicit_results(const OpDef& opdef, const std::optional<std::span<const Type>>& given,
                      std::vector<Type>& results) {
  if (!given.has_value()) {
    throw OpCheckError("type", "result types must be given (type rule " + opdef.type_rule + ")");
  }
  for (std::size_t index = 0; index < given->size(); ++index) {
    const OperandDef* slot = slot_for(opdef.results, index);
    const Type& ty = (*given)[index];
    if (slot != nullptr && !slot->constraint.admits(ty)) {
      throw OpCheckError("type", "result #" + std::to_string(index) + " has type " + ty.text() + ", expected " +
                                     slot->constraint.text());
    }
  }
  results.assign(given->begin(), given->end());
}

void cast_results(const OpDef& opdef, const Type& source, const std::optional<std::span<const Type>>& given,
                  std::vector<Type>& results) {
  explicit_results(opdef, given, results);
  const Type& target = results.at(0);
  const std::string& rule = opdef.type_rule;
  if (opdef.rule == TypeRule::CastSameBits) {
    if (target.total_bits() != source.total_bits()) {
      throw OpCheckError("type", "result type " + target.text() + " has " + std::to_string(target.total_bits()) +
                                     " bits but operand type " + source.text() + " has " +
                                     std::to_string(source.total_bits()) + " (type rule cast_same_bits)");
    }
    return;
  }
  if (target.is_vec() != source.is_vec() || target.lanes() != source.lanes()) {
    throw OpCheckError("type", "cannot cast " + source.text() + " to " + target.text() +
                                   ": lane counts differ (type rule " + rule + ")");
  }
  const int src_bits = source.element().bits();
  const int dst_bits = target.element().bits();
  const bool wider = opdef.rule == TypeRule::CastWider;
  if ((wider && dst_bits <= src_bits) || (opdef.rule == TypeRule::CastNarrower && dst_bits >= src_bits)) {
    std::string relation = wider ? "wider" : "narrower";
    throw OpCheckError("type", "cannot cast " + source.text() + " to " + target.text() +
                                   ": the result element must be " + relation + " (type rule " + rule + ")");
  }
}

Type make_vec(const Type& elem, std::int64_t lanes) {
  try {
    return vec(elem, lanes);
  } catch (const TypeError& exc) {
    throw OpCheckError("type", exc.message());
  } catch (const ValueError& exc) {
    throw OpCheckError("type", exc.message());
  }
}

std::int64_t int_attr(const AttrMap& attrs, std::string_view name) { return attrs.find(name)->second.i; }

// The result types a computed rule gives, into results.
void computed_results(const OpDef& opdef, const std::vector<Type>& types, const AttrMap& attrs,
                      std::vector<Type>& results) {
  results.clear();
  const TypeRule rule = opdef.rule;
  if (rule == TypeRule::None) return;
  if (rule == TypeRule::Fixed) {
    for (const OperandDef& r : opdef.results) results.push_back(*r.constraint.single_type());
  } else if (rule == TypeRule::SameAsOperand0) {
    results.push_back(types.at(0));
  } else if (rule == TypeRule::SameAsOperand1) {
    results.push_back(types.at(1));
  } else if (rule == TypeRule::SameAsOperand2) {
    results.push_back(types.at(2));
  } else if (rule == TypeRule::CmpI1) {
    results.push_back(i1);
  } else if (rule == TypeRule::ElemOfOperand0) {
    results.push_back(types.at(0).elem());
  } else if (rule == TypeRule::IterArgs) {
    results.assign(types.begin() + static_cast<std::ptrdiff_t>(opdef.fixed_operand_count()), types.end());
  } else if (rule == TypeRule::Load) {
    Type pointee = types.at(0).pointee();
    std::int64_t lanes = int_attr(attrs, "lanes");
    if (lanes == 1) {
      results.push_back(pointee);
      return;
    }
    if (!pointee.is_scalar()) {
      throw OpCheckError("type", "lanes = " + std::to_string(lanes) +
                                     " needs a scalar pointee, but operand #0 has type " + types[0].text());
    }
    results.push_back(make_vec(pointee, lanes));
  } else if (rule == TypeRule::Splat) {
    results.push_back(make_vec(types.at(0), int_attr(attrs, "lanes")));
  } else {
    throw Error("unhandled type rule " + opdef.type_rule);
  }
}

void run_checks(const OpDef& opdef, const std::vector<Type>& types, const AttrMap& attrs) {
  for (const OpCheck check : opdef.check_kinds) {
    if (check == OpCheck::StoreValue) {
      Type pointee = types.at(0).pointee();
      const Type& value = types.at(2);
      if (value != pointee && !(pointee.is_scalar() && value.is_vec() && value.elem() == pointee)) {
        throw OpCheckError("type", "operand #2 '" + opdef.operands[2].name + "' has type " + value.text() +
                                       ", expected the pointee " + pointee.text() + " of operand #0 or a vector of it");
      }
    } else if (check == OpCheck::VecIndex) {
      std::int64_t index = int_attr(attrs, "index");
      if (index >= types.at(0).lanes()) {
        throw OpCheckError("attr", "attribute 'index' = " + std::to_string(index) + " is out of range for " +
                                       types[0].text());
      }
    } else if (check == OpCheck::InsertElem) {
      Type elem = types.at(0).elem();
      if (types.at(1) != elem) {
        throw OpCheckError("type", "operand #1 '" + opdef.operands[1].name + "' has type " + types[1].text() +
                                       ", expected " + elem.text() + " (the element type of operand #0)");
      }
    }
  }
}

}  // namespace

std::string types_text(const std::vector<Type>& types) {
  std::string out = "(";
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i != 0) out += ", ";
    out += types[i].text();
  }
  return out + ")";
}

void check_operand_count(const OpDef& opdef, std::size_t count) {
  const std::size_t fixed = opdef.fixed_operand_count();
  if (opdef.variadic_operands()) {
    if (count < fixed) {
      throw OpCheckError("arity",
                         "takes at least " + std::to_string(fixed) + " operands, got " + std::to_string(count));
    }
  } else if (count != fixed) {
    throw OpCheckError("arity", "takes " + plural(fixed, "operand") + ", got " + std::to_string(count));
  }
}

void check_result_count(const OpDef& opdef, std::size_t count) {
  if (opdef.variadic_results()) return;
  const std::size_t expected = opdef.results.size();
  if (count != expected) {
    throw OpCheckError("arity", "produces " + plural(expected, "result") + ", got " + std::to_string(count));
  }
}

void check_operand_types(const OpDef& opdef, const std::vector<Type>& types) {
  for (std::size_t index = 0; index < types.size(); ++index) {
    const OperandDef* slot = slot_for(opdef.operands, index);
    if (slot == nullptr) return;
    const Type& ty = types[index];
    const Constraint& constraint = slot->constraint;
    if (constraint.same_as().has_value()) {
      const std::size_t ref_index = *constraint.same_as();
      const Type& ref = types.at(ref_index);
      if (ty != ref) {
        throw OpCheckError("type", "operand #" + std::to_string(index) + " '" + slot->name + "' has type " +
                                       ty.text() + ", expected " + ref.text() + " (the type of operand #" +
                                       std::to_string(ref_index) + " '" + constraint.same_as_name() + "')");
      }
    } else if (!constraint.admits(ty)) {
      std::string rule = constraint.is_address_space_mismatch(ty) ? "addrspace" : "type";
      throw OpCheckError(rule, "operand #" + std::to_string(index) + " '" + slot->name + "' has type " + ty.text() +
                                   ", expected " + constraint.text());
    }
  }
}

void check_attrs(const std::vector<AttrDef>& defs, const AttrMap& attrs, const Type& num_type) {
  // The common case in one pass: exactly the attributes defs lists (both sorted by name, so they
  // pair up in order), each value checked in defs order. Anything else takes the checks below,
  // which find the first missing, then the first unknown attribute, as Python reports them.
  if (attrs.size() == defs.size()) {
    auto it = attrs.begin();
    bool paired = true;
    for (const AttrDef& adef : defs) {
      if (!util::same_text(it->first, adef.name)) {
        paired = false;
        break;
      }
      ++it;
    }
    if (paired) {
      it = attrs.begin();
      for (const AttrDef& adef : defs) {
        std::optional<std::string> problem = check_attr_value(adef, (it++)->second, num_type);
        if (problem.has_value()) throw OpCheckError("attr", *problem);
      }
      return;
    }
  }
  for (const AttrDef& adef : defs) {
    if (!attrs.contains(adef.name)) throw OpCheckError("attr", "missing attribute '" + adef.name + "'");
  }
  if (attrs.size() != defs.size()) {
    for (const auto& [name, value] : attrs) {  // AttrMap iterates in sorted order
      bool known = false;
      for (const AttrDef& adef : defs) known = known || adef.name == name;
      if (!known) throw OpCheckError("attr", "unknown attribute '" + name + "'");
    }
  }
  for (const AttrDef& adef : defs) {
    std::optional<std::string> problem = check_attr_value(adef, attrs.find(adef.name)->second, num_type);
    if (problem.has_value()) throw OpCheckError("attr", *problem);
  }
}

namespace {

// check_op_into is pure: an op of the op table that passed with some operand types, attributes
// and given result types passes again with the same ones, and the same result types. Builders
// check thousands of ops per kernel (adds, muls, constants, compares) over a few combinations, so
// a passed check is remembered in a small per-thread table and its answer reused.
struct PassedCheck {
  const OpDef* def = nullptr;
  std::uint8_t operand_count = 0;
  std::uint8_t given_count = 0;  // kNotGiven: result types were not given
  std::uint8_t result_count = 0;
  std::array<Type, 4> operands{};
  std::array<Type, 2> given{};
  std::array<Type, 2> results{};
  std::array<AttrValue, 2> attrs{};  // the values of the op's attributes, in the table's order
};

// The same value: of the same kind, floats bit for bit (a check may tell -0.0 from 0.0).
bool same_value(const AttrValue& a, const AttrValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case AttrValue::Kind::Bool:
      return a.b == b.b;
    case AttrValue::Kind::Int:
      return a.i == b.i;
    case AttrValue::Kind::Float:
      return std::bit_cast<std::uint64_t>(a.f) == std::bit_cast<std::uint64_t>(b.f);
    case AttrValue::Kind::Str:
      return a.s == b.s;
  }
  return false;
}

std::size_t value_hash(const AttrValue& v) {
  switch (v.kind) {
    case AttrValue::Kind::Bool:
      return v.b ? 3 : 5;
    case AttrValue::Kind::Int:
      return static_cast<std::size_t>(v.i);
    case AttrValue::Kind::Float:
      return std::bit_cast<std::uint64_t>(v.f);
    case AttrValue::Kind::Str:
      return v.s.empty() ? 7 : (v.s.size() * 131 + static_cast<unsigned char>(v.s.front()) * 17 +
                                static_cast<unsigned char>(v.s.back()));
  }
  return 0;
}
constexpr std::uint8_t kNotGiven = 0xff;
constexpr std::size_t kPassedSlots = 256;  // indexed by a byte

// The table slot of a check, or nullptr when the check is not remembered (an op made outside the
// op table, attributes other than the table's names, more operands, results or attributes than a
// slot holds).
PassedCheck* passed_slot(const OpDef& opdef, const std::vector<Type>& operand_types, const AttrMap& attrs,
                         const std::optional<std::span<const Type>>& given) {
  if (attrs.size() > 2 || attrs.size() != opdef.attrs.size() || operand_types.size() > 4 ||
      (given && given->size() > 2)) {
    return nullptr;
  }
  std::size_t at = 0;
  for (const auto& [name, value] : attrs) {
    if (!util::same_text(name, opdef.attrs[at++].name)) return nullptr;
  }
  static const std::vector<OpDef>& table = ops();
  if (&opdef < table.data() || &opdef >= table.data() + table.size()) return nullptr;
  std::size_t key = static_cast<std::size_t>(&opdef - table.data());
  for (const Type& ty : operand_types) key = key * 31 + ty.hash();
  if (given) {
    for (const Type& ty : *given) key = key * 37 + ty.hash();
  }
  for (const auto& item : attrs) key = key * 41 + value_hash(item.second);
  key *= 0x9E3779B97F4A7C15u;
  thread_local std::array<PassedCheck, kPassedSlots> passed;
  return &passed[key >> 56];  // kPassedSlots == 256: the top byte of the mixed key
}

// Whether slot remembers this check (passed_slot has matched the attribute names to the table's).
bool same_check(const PassedCheck& slot, const OpDef& opdef, const std::vector<Type>& operand_types,
                const AttrMap& attrs, const std::optional<std::span<const Type>>& given) {
  if (slot.def != &opdef || slot.operand_count != operand_types.size()) return false;
  for (std::size_t i = 0; i < operand_types.size(); ++i) {
    if (!(operand_types[i] == slot.operands[i])) return false;
  }
  std::size_t at = 0;
  for (const auto& item : attrs) {
    if (!same_value(item.second, slot.attrs[at++])) return false;
  }
  if (!given) return slot.given_count == kNotGiven;
  if (slot.given_count != given->size()) return false;
  for (std::size_t i = 0; i < given->size(); ++i) {
    if (!((*given)[i] == slot.given[i])) return false;
  }
  return true;
}

// The check itself, made every time (check_op_into consults its table of passed checks first).
void check_op_uncached(const OpDef& opdef, const std::vector<Type>& operand_types, const AttrMap& attrs,
                       const std::optional<std::span<const Type>>& result_types, std::vector<Type>& results) {
  check_operand_count(opdef, operand_types.size());
  if (result_types.has_value()) check_result_count(opdef, result_types->size());
  check_operand_types(opdef, operand_types);
  Type num_type = (result_types.has_value() && !result_types->empty()) ? (*result_types)[0] : Type();
  check_attrs(opdef.attrs, attrs, num_type);
  const std::string& rule = opdef.type_rule;
  if (opdef.explicit_rule) {
    if (opdef.rule == TypeRule::Explicit) {
      explicit_results(opdef, result_types, results);
    } else {
      cast_results(opdef, operand_types.at(0), result_types, results);
    }
  } else {
    computed_results(opdef, operand_types, attrs, results);
    if (result_types.has_value() &&
        !std::equal(results.begin(), results.end(), result_types->begin(), result_types->end())) {
      if (results.size() != result_types->size()) {
        throw OpCheckError("type", std::string("has ") + std::to_string(result_types->size()) + " results, expected " +
                                       std::to_string(results.size()) + " (type rule " + rule + ")");
      }
      for (std::size_t index = 0; index < results.size(); ++index) {
        const Type& got = (*result_types)[index];
        const Type& want = results[index];
        if (got != want) {
          throw OpCheckError("type", "result #" + std::to_string(index) + " has type " + got.text() + ", expected " +
                                         want.text() + " (type rule " + rule + ")");
        }
      }
    }
  }
  run_checks(opdef, operand_types, attrs);
}

}  // namespace

void check_op_into(const OpDef& opdef, const std::vector<Type>& operand_types, const AttrMap& attrs,
                   const std::optional<std::span<const Type>>& result_types, std::vector<Type>& results) {
  PassedCheck* slot = passed_slot(opdef, operand_types, attrs, result_types);
  if (slot != nullptr && same_check(*slot, opdef, operand_types, attrs, result_types)) {
    results.clear();
    for (std::size_t i = 0; i < slot->result_count; ++i) results.push_back(slot->results[i]);
    return;
  }
  check_op_uncached(opdef, operand_types, attrs, result_types, results);
  if (slot != nullptr && results.size() <= slot->results.size()) {
    slot->def = &opdef;
    slot->operand_count = static_cast<std::uint8_t>(operand_types.size());
    std::copy(operand_types.begin(), operand_types.end(), slot->operands.begin());
    slot->given_count = result_types ? static_cast<std::uint8_t>(result_types->size()) : kNotGiven;
    if (result_types) std::copy(result_types->begin(), result_types->end(), slot->given.begin());
    slot->result_count = static_cast<std::uint8_t>(results.size());
    std::copy(results.begin(), results.end(), slot->results.begin());
    std::size_t at = 0;
    for (const auto& item : attrs) slot->attrs[at++] = item.second;
  }
}

std::vector<Type> check_op(const OpDef& opdef, const std::vector<Type>& operand_types, const AttrMap& attrs,
                           const std::optional<std::vector<Type>>& result_types) {
  std::vector<Type> results;
  std::optional<std::span<const Type>> given;
  if (result_types.has_value()) given = std::span<const Type>(*result_types);
  check_op_into(opdef, operand_types, attrs, given, results);
  return results;
}

}  // namespace rocke::ir
