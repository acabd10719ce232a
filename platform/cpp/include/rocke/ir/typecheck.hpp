// rocKE C++ engine: table-driven checks of one op (arity, operand constraints, attributes, type
// rule, extra checks), shared by the Builder, the verifier and the parser.
// Python twin: rocke/ir/typecheck.py
//
// Failures throw OpCheckError(rule, detail); detail never repeats the op name.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "rocke/ir/attrs.hpp"
#include "rocke/ir/errors.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/ir/types.hpp"

namespace rocke::ir {

void check_operand_count(const OpDef& opdef, std::size_t count);
void check_result_count(const OpDef& opdef, std::size_t count);
void check_operand_types(const OpDef& opdef, const std::vector<Type>& types);
// Exactly the attributes defs lists, with valid values: missing, then unknown, then values.
void check_attrs(const std::vector<AttrDef>& defs, const AttrMap& attrs, const Type& num_type);

// Check one op against its table row and return its result types. result_types is required for
// explicit rules and, when given for computed rules, must equal the computed types.
std::vector<Type> check_op(const OpDef& opdef, const std::vector<Type>& operand_types, const AttrMap& attrs,
                           const std::optional<std::vector<Type>>& result_types = std::nullopt);
// The same check writing the result types into results (its storage reused: the Builder calls
// this once per op); result_types is nullopt when the caller states none.
void check_op_into(const OpDef& opdef, const std::vector<Type>& operand_types, const AttrMap& attrs,
                   const std::optional<std::span<const Type>>& result_types, std::vector<Type>& results);

// "(T1, T2, ...)"
std::string types_text(const std::vector<Type>& types);

}  // namespace rocke::ir
