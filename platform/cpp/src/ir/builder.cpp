// Python twin: rocke/ir/builder.py
// Private helpers keep the Python names without the leading underscore (_emit -> emit_op,
// _one -> one, _none -> none, _attrs -> attrs, _types -> types, _region -> region).
#include "rocke/ir/builder.hpp"

#include <algorithm>

#include "rocke/ir/errors.hpp"
#include "rocke/ir/facts.hpp"
#include "rocke/ir/names.hpp"
#include "rocke/ir/typecheck.hpp"
#include "rocke/ir/verifier.hpp"

namespace rocke::ir {

namespace {

const Constraint& param_types() {
  static const Constraint constraint(format_facts().param_types);
  return constraint;
}

[[noreturn]] void raise_for(const OpDef& opdef, const OpCheckError& exc) {
  std::string message = opdef.name + ": " + exc.detail();
  if (exc.rule() == "attr") throw ValueError(message);
  throw TypeError(message);
}

std::string joined_types(const std::vector<Type>& types) {
  std::string out;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i != 0) out += ", ";
    out += types[i].text();
  }
  return out;
}

std::vector<Type> value_types(const Values& values) {
  std::vector<Type> out;
  for (const Value* v : values) out.push_back(v->type);
  return out;
}

// Assign ids in text order: for each op its results, then each region's args and ops.
std::int64_t renumber_region(Region& region, std::int64_t counter) {
  for (Op* op : region.ops) {
    for (Value* value : op->results) value->id = counter++;
    for (Region* inner : op->regions) {
      for (Value* value : inner->args) value->id = counter++;
      counter = renumber_region(*inner, counter);
    }
  }
  return counter;
}

const OpDef& op_named(std::string_view opcode) { return get_op(opcode); }

// A literal opcode, as a template argument: op_def<"arith.add">() looks the row up once.
template <std::size_t N>
struct Opcode {
  char text[N];
  constexpr Opcode(const char (&literal)[N]) { std::copy_n(literal, N, text); }  // implicit: op_def<"x.y">
  constexpr std::string_view view() const { return std::string_view(text, N - 1); }
};

template <Opcode opcode>
const OpDef& op_def() {
  static const OpDef& def = op_named(opcode.view());
  return def;
}

AttrMap with(std::initializer_list<std::pair<const char*, std::optional<std::int64_t>>> given) {
  AttrMap out;
  for (const auto& [name, value] : given) {
    if (value.has_value()) out.emplace(name, AttrValue::integer(*value));
  }
  return out;
}

}  // namespace

Builder::Builder(std::string name, KernelOpts opts) : name_(std::move(name)), arena_(std::make_unique<Arena>()) {
  if (!is_kernel_name(name_)) {
    throw ValueError("invalid kernel name '" + name_ + "': use letters, digits and '_' (not first a digit)");
  }
  for (const AttrDef& adef : kernel_attrs()) {
    std::optional<std::int64_t> given;
    if (adef.name == "max_workgroup_size") given = opts.max_workgroup_size;
    if (adef.name == "waves_per_eu") given = opts.waves_per_eu;
    AttrValue value = given.has_value() ? AttrValue::integer(*given) : *adef.default_value;
    std::optional<std::string> problem = check_attr_value(adef, value, Type());
    if (problem.has_value()) throw ValueError("kernel @" + name_ + ": " + *problem);
    kernel_attrs_.emplace(adef.name, value);
  }
  body_ = arena_->region();
  regions_.push_back(body_);
}

// ------------------------------------------------------------------ plumbing
Value* Builder::new_value(Type ty, const Hint& name) {
  if (name.has_value() && !is_hint(*name)) {
    throw ValueError("invalid name hint '" + *name + "': use letters, digits, '_' and '.' (not first a digit)");
  }
  return arena_->value(next_id_++, ty, name);
}

void Builder::live() const {
  if (finished_) throw ValueError("builder of kernel @" + name_ + " is finished");
}

void Builder::types(const OpDef& opdef, std::span<Value* const> operands, std::vector<Type>& out) {
  out.clear();
  for (std::size_t index = 0; index < operands.size(); ++index) {
    if (operands[index] == nullptr) {
      throw TypeError(opdef.name + ": operand #" + std::to_string(index) + " must be a Value, got NoneType");
    }
    out.push_back(operands[index]->type);
  }
}

std::vector<Type> Builder::types(const OpDef& opdef, std::span<Value* const> operands) {
  std::vector<Type> out;
  types(opdef, operands, out);
  return out;
}

AttrMap Builder::attrs(const OpDef& opdef, AttrMap given) const {
  // The common case: given names exactly the table's attributes (both sorted), so it is the result.
  if (given.size() == opdef.attrs.size() &&
      std::equal(given.begin(), given.end(), opdef.attrs.begin(),
                 [](const AttrMap::value_type& item, const AttrDef& adef) { return item.first == adef.name; })) {
    return given;
  }
  AttrMap out;
  out.reserve(opdef.attrs.size());
  std::size_t used = 0;
  for (const AttrDef& adef : opdef.attrs) {
    auto it = given.find(adef.name);
    if (it != given.end()) {
      out.emplace_hint(out.end(), adef.name, std::move(it->second));
      ++used;
    } else if (adef.default_value.has_value()) {
      out.emplace_hint(out.end(), adef.name, *adef.default_value);
    } else {
      throw ValueError(opdef.name + ": missing attribute '" + adef.name + "'");
    }
  }
  // The names of given that the table lacks are unknown (sorted, as Python's sorted(given) reports the first).
  if (used != given.size()) {
    for (const auto& [name, value] : given) {
      if (opdef.attr(name) == nullptr) throw ValueError(opdef.name + ": unknown attribute '" + name + "'");
    }
  }
  return out;
}

Op* Builder::emit_op(const OpDef& opdef, OpValues&& operands, AttrMap&& attrs,
                     const std::optional<std::span<const Type>>& result_types,
                     const std::optional<std::span<const Hint>>& names) {
  live();
  types(opdef, operands, operand_types_);
  if (result_types.has_value()) {
    for (const Type& ty : *result_types) {
      if (ty.is_none()) throw TypeError(opdef.name + ": result type must be a Type, got NoneType");
    }
  }
  try {
    check_op_into(opdef, operand_types_, attrs, result_types, result_types_);
  } catch (const OpCheckError& exc) {
    raise_for(opdef, exc);
  }
  if (opdef.where == Placement::KernelBody && regions_.size() != 1) {
    throw ValueError(opdef.name + ": only allowed directly in the kernel body");
  }
  if (names.has_value() && names->size() != result_types_.size()) {
    throw ValueError(opdef.name + ": " + std::to_string(names->size()) + " names for " +
                     std::to_string(result_types_.size()) + " results");
  }
  OpValues results;
  results.reserve(result_types_.size());
  for (std::size_t i = 0; i < result_types_.size(); ++i) {
    results.push_back(new_value(result_types_[i], names.has_value() ? (*names)[i] : Hint()));
  }
  Op* op = arena_->op(opdef, std::move(operands), std::move(results), std::move(attrs));
  op->checked_at_emission = true;
  regions_.back()->ops.push_back(op);
  return op;
}

Value* Builder::one(const OpDef& opdef, OpValues operands, AttrMap attrs, const Type& result_type, const Hint& name) {
  std::optional<std::span<const Type>> result_types;
  if (!result_type.is_none()) result_types = std::span<const Type>(&result_type, 1);
  return emit_op(opdef, std::move(operands), std::move(attrs), result_types, std::span<const Hint>(&name, 1))
      ->results[0];
}

void Builder::none(const OpDef& opdef, OpValues operands, AttrMap attrs) {
  emit_op(opdef, std::move(operands), std::move(attrs), std::nullopt, std::span<const Hint>());
}

Value* Builder::constant(AttrValue num, Type type, Hint name) {
  AttrMap attrs;
  attrs.emplace("value", std::move(num));
  return one(op_def<"arith.constant">(), {}, std::move(attrs), type, name);
}

// ------------------------------------------------------------------ kernel interface
namespace {

// The ParamOpts field that gives a param attribute (none: the table has an attribute no option
// sets, which keeps its default).
enum class ParamOpt : std::uint8_t { None, Align, Noalias, Readonly, Writeonly };

// param_attrs()' rows' fields, in table order: matched by name once, not per param.
const std::vector<ParamOpt>& param_opts() {
  static const std::vector<ParamOpt> opts = [] {
    std::vector<ParamOpt> made;
    for (const AttrDef& adef : param_attrs()) {
      made.push_back(adef.name == "align"       ? ParamOpt::Align
                     : adef.name == "noalias"   ? ParamOpt::Noalias
                     : adef.name == "readonly"  ? ParamOpt::Readonly
                     : adef.name == "writeonly" ? ParamOpt::Writeonly
                                                : ParamOpt::None);
    }
    return made;
  }();
  return opts;
}

std::optional<AttrValue> given_param_attr(ParamOpt field, const ParamOpts& opts) {
  switch (field) {
    case ParamOpt::Align:
      if (opts.align.has_value()) return AttrValue::integer(*opts.align);
      break;
    case ParamOpt::Noalias:
      if (opts.noalias.has_value()) return AttrValue::boolean(*opts.noalias);
      break;
    case ParamOpt::Readonly:
      if (opts.readonly.has_value()) return AttrValue::boolean(*opts.readonly);
      break;
    case ParamOpt::Writeonly:
      if (opts.writeonly.has_value()) return AttrValue::boolean(*opts.writeonly);
      break;
    case ParamOpt::None:
      break;
  }
  return std::nullopt;
}

}  // namespace

Value* Builder::param(const std::string& name, Type type, ParamOpts opts) {
  live();
  if (next_id_ != static_cast<std::int64_t>(params_.size())) {
    throw ValueError("param '" + name + "': params must be declared before the first op");
  }
  if (type.is_none()) throw TypeError("param '" + name + "': type must be a Type, got NoneType");
  if (!param_types().admits(type)) {
    throw TypeError("param '" + name + "': type " + type.text() + " is not allowed; allowed: " + param_types().text());
  }
  AttrMap attrs;
  if (type.is_ptr()) attrs.reserve(param_attrs().size());
  const std::vector<AttrDef>& defs = param_attrs();
  const std::vector<ParamOpt>& opt_of = param_opts();
  for (std::size_t at = 0; at < defs.size(); ++at) {
    const AttrDef& adef = defs[at];
    std::optional<AttrValue> value = given_param_attr(opt_of[at], opts);
    if (!type.is_ptr()) {
      if (value.has_value()) {
        throw ValueError("param '" + name + "': attribute '" + adef.name + "' applies only to pointer params");
      }
      continue;
    }
    if (!value.has_value()) {
      // Defaults passed this same check when the table was read (attr_def_from_row).
      attrs.emplace_hint(attrs.end(), adef.name, *adef.default_value);
      continue;
    }
    std::optional<std::string> problem = check_attr_value(adef, *value, Type());
    if (problem.has_value()) throw ValueError("param '" + name + "': " + *problem);
    attrs.emplace_hint(attrs.end(), adef.name, std::move(*value));  // param_attrs() is sorted by name
  }
  Value* value = new_value(type, name);
  params_.push_back(Param{value, std::move(attrs)});
  return value;
}

Values Builder::emit(std::string_view opcode, const Values& operands, const AttrMap& attrs_given,
                     const std::optional<std::vector<Type>>& result_types, const std::optional<Names>& names) {
  const OpDef& opdef = get_op(opcode);
  if (!opdef.regions.empty() || opdef.where == Placement::Terminator) {
    throw ValueError(std::string(opcode) + ": use for_ / if_ (regions and their yields come from callbacks)");
  }
  std::optional<std::span<const Type>> given_types;
  if (result_types.has_value()) given_types = std::span<const Type>(*result_types);
  std::optional<std::span<const Hint>> given_names;
  if (names.has_value()) given_names = std::span<const Hint>(*names);
  return emit_op(opdef, operands, attrs(opdef, attrs_given), given_types, given_names)->results.vec();
}

KernelDef Builder::finish(bool verify_kernel) {
  live();
  finished_ = true;
  std::int64_t counter = 0;
  for (Param& p : params_) p.value->id = counter++;
  renumber_region(*body_, counter);
  KernelDef kernel(name_, std::move(params_), std::move(kernel_attrs_), body_, std::move(arena_));
  if (VerifyOnce* once = VerifyOnce::active()) once->built_.push_back(body_);
  DeferFinishVerify* deferring = verify_kernel ? DeferFinishVerify::active() : nullptr;
  if (deferring != nullptr) {
    ++deferring->deferred_;
  } else if (verify_kernel) {
    verify(kernel);
  }
  return kernel;
}

// ------------------------------------------------------------------ device control flow
Values Builder::region(Region* reg, const std::function<Values()>& callback, const char* opname, const char* what) {
  const std::int64_t max_depth = format_facts().max_region_depth;
  if (static_cast<std::int64_t>(regions_.size()) >= max_depth) {
    throw ValueError(std::string(opname) + ": region nesting deeper than " + std::to_string(max_depth));
  }
  regions_.push_back(reg);
  struct Pop {
    std::vector<Region*>& stack;
    ~Pop() { stack.pop_back(); }
  };
  Values values;
  {
    Pop pop{regions_};
    if (callback) values = callback();
  }
  for (const Value* value : values) {
    if (value == nullptr) {
      throw TypeError(std::string(opname) + ": the " + what + " callback must return Values, got NoneType");
    }
  }
  reg->ops.push_back(arena_->op("scf.yield", values));
  return values;
}

Values Builder::for_impl(Value* lb, Value* ub, Value* step, const Values& init, const BodyCallback& body,
                         ForOpts opts) {
  live();
  const OpDef& for_def = op_def<"scf.for">();
  Values operands{lb, ub, step};
  operands.insert(operands.end(), init.begin(), init.end());
  std::vector<Type> operand_types = types(for_def, operands);
  std::vector<Type> result_types;
  try {
    result_types = check_op(for_def, operand_types, {});
  } catch (const OpCheckError& exc) {
    raise_for(for_def, exc);
  }
  Names hints = opts.names.has_value() ? *opts.names : Names(init.size());
  if (hints.size() != init.size()) {
    throw ValueError("scf.for: " + std::to_string(hints.size()) + " names for " + std::to_string(init.size()) +
                     " iter values");
  }
  Value* iv = new_value(lb->type, opts.iv_name);
  Values args;
  for (std::size_t i = 0; i < result_types.size(); ++i) args.push_back(new_value(result_types[i], hints[i]));
  Values region_args{iv};
  region_args.insert(region_args.end(), args.begin(), args.end());
  Region* reg = arena_->region(region_args);
  Values yielded = region(reg, [&] { return body(iv, args); }, "scf.for", "body");
  std::vector<Type> got = value_types(yielded);
  if (got != result_types) {
    throw TypeError("scf.for: body yields (" + joined_types(got) + ") but the iter values have types (" +
                    joined_types(result_types) + ")");
  }
  Values results;
  for (std::size_t i = 0; i < result_types.size(); ++i) results.push_back(new_value(result_types[i], hints[i]));
  regions_.back()->ops.push_back(arena_->op("scf.for", operands, results, {}, {reg}));
  return results;
}

Values Builder::if_impl(Value* cond, const Callback& then, const Callback& else_, IfOpts opts) {
  live();
  const OpDef& if_def = op_def<"scf.if">();
  std::vector<Type> operand_types = types(if_def, std::span<Value* const>(&cond, 1));
  try {
    check_operand_count(if_def, 1);
    check_operand_types(if_def, operand_types);
  } catch (const OpCheckError& exc) {
    raise_for(if_def, exc);
  }
  Region* then_region = arena_->region();
  Region* else_region = arena_->region();
  Values then_values = region(then_region, then, "scf.if", "then");
  Values else_values = region(else_region, else_, "scf.if", "else");
  std::vector<Type> then_types = value_types(then_values);
  std::vector<Type> else_types = value_types(else_values);
  if (then_types != else_types) {
    throw TypeError("scf.if: then yields (" + joined_types(then_types) + ") but else yields (" +
                    joined_types(else_types) + ")");
  }
  Names hints = opts.names.has_value() ? *opts.names : Names(then_types.size());
  if (hints.size() != then_types.size()) {
    throw ValueError("scf.if: " + std::to_string(hints.size()) + " names for " + std::to_string(then_types.size()) +
                     " results");
  }
  Values results;
  for (std::size_t i = 0; i < then_types.size(); ++i) results.push_back(new_value(then_types[i], hints[i]));
  regions_.back()->ops.push_back(arena_->op("scf.if", {cond}, results, {}, {then_region, else_region}));
  return results;
}

// ------------------------------------------------------------------ arith
Value* Builder::add(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.add">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::sub(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.sub">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::mul(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.mul">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::divf(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.divf">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::remf(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.remf">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::divs(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.divs">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::divu(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.divu">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::rems(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.rems">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::remu(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.remu">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::and_(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.and">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::or_(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.or">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::xor_(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.xor">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::shl(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.shl">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::shrs(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.shrs">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::shru(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.shru">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::negf(Value* x, Hint name) { return one(op_def<"arith.negf">(), {x}, {}, Type(), name); }
Value* Builder::minf(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.minf">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::maxf(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.maxf">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::mins(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.mins">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::maxs(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.maxs">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::minu(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.minu">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::maxu(Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.maxu">(), {lhs, rhs}, {}, Type(), name);
}
Value* Builder::fma(Value* a, Value* b, Value* c, Hint name) {
  return one(op_def<"arith.fma">(), {a, b, c}, {}, Type(), name);
}

Value* Builder::cmpi(const std::string& pred, Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.cmpi">(), {lhs, rhs}, {{"pred", AttrValue::string(pred)}}, Type(), name);
}

Value* Builder::cmpf(const std::string& pred, Value* lhs, Value* rhs, Hint name) {
  return one(op_def<"arith.cmpf">(), {lhs, rhs}, {{"pred", AttrValue::string(pred)}}, Type(), name);
}

Value* Builder::select(Value* cond, Value* a, Value* b, Hint name) {
  return one(op_def<"arith.select">(), {cond, a, b}, {}, Type(), name);
}

Value* Builder::extf(Value* x, Type type, Hint name) { return one(op_def<"arith.extf">(), {x}, {}, type, name); }
Value* Builder::truncf(Value* x, Type type, Hint name) { return one(op_def<"arith.truncf">(), {x}, {}, type, name); }
Value* Builder::sitofp(Value* x, Type type, Hint name) { return one(op_def<"arith.sitofp">(), {x}, {}, type, name); }
Value* Builder::uitofp(Value* x, Type type, Hint name) { return one(op_def<"arith.uitofp">(), {x}, {}, type, name); }
Value* Builder::fptosi(Value* x, Type type, Hint name) { return one(op_def<"arith.fptosi">(), {x}, {}, type, name); }
Value* Builder::fptoui(Value* x, Type type, Hint name) { return one(op_def<"arith.fptoui">(), {x}, {}, type, name); }
Value* Builder::exts(Value* x, Type type, Hint name) { return one(op_def<"arith.exts">(), {x}, {}, type, name); }
Value* Builder::extu(Value* x, Type type, Hint name) { return one(op_def<"arith.extu">(), {x}, {}, type, name); }
Value* Builder::trunc(Value* x, Type type, Hint name) { return one(op_def<"arith.trunc">(), {x}, {}, type, name); }

// ------------------------------------------------------------------ math
Value* Builder::exp2(Value* x, Hint name) { return one(op_def<"math.exp2">(), {x}, {}, Type(), name); }
Value* Builder::log2(Value* x, Hint name) { return one(op_def<"math.log2">(), {x}, {}, Type(), name); }
Value* Builder::rcp(Value* x, Hint name) { return one(op_def<"math.rcp">(), {x}, {}, Type(), name); }
Value* Builder::sqrt(Value* x, Hint name) { return one(op_def<"math.sqrt">(), {x}, {}, Type(), name); }
Value* Builder::rsqrt(Value* x, Hint name) { return one(op_def<"math.rsqrt">(), {x}, {}, Type(), name); }

// ------------------------------------------------------------------ gpu
Value* Builder::thread_id_x(Hint name) { return one(op_def<"gpu.thread_id_x">(), {}, {}, Type(), name); }
Value* Builder::thread_id_y(Hint name) { return one(op_def<"gpu.thread_id_y">(), {}, {}, Type(), name); }
Value* Builder::thread_id_z(Hint name) { return one(op_def<"gpu.thread_id_z">(), {}, {}, Type(), name); }
Value* Builder::block_id_x(Hint name) { return one(op_def<"gpu.block_id_x">(), {}, {}, Type(), name); }
Value* Builder::block_id_y(Hint name) { return one(op_def<"gpu.block_id_y">(), {}, {}, Type(), name); }
Value* Builder::block_id_z(Hint name) { return one(op_def<"gpu.block_id_z">(), {}, {}, Type(), name); }
Value* Builder::block_dim_x(Hint name) { return one(op_def<"gpu.block_dim_x">(), {}, {}, Type(), name); }
Value* Builder::block_dim_y(Hint name) { return one(op_def<"gpu.block_dim_y">(), {}, {}, Type(), name); }
Value* Builder::block_dim_z(Hint name) { return one(op_def<"gpu.block_dim_z">(), {}, {}, Type(), name); }
Value* Builder::lane_id(Hint name) { return one(op_def<"gpu.lane_id">(), {}, {}, Type(), name); }
Value* Builder::wave_id(Hint name) { return one(op_def<"gpu.wave_id">(), {}, {}, Type(), name); }
Value* Builder::wave_size(Hint name) { return one(op_def<"gpu.wave_size">(), {}, {}, Type(), name); }

// ------------------------------------------------------------------ mem
Value* Builder::load(Value* ptr_value, Value* index, LoadOpts opts) {
  const OpDef& opdef = op_def<"mem.load">();
  return one(opdef, {ptr_value, index}, attrs(opdef, with({{"align", opts.align}, {"lanes", opts.lanes}})),
             Type(), opts.name);
}

void Builder::store(Value* ptr_value, Value* index, Value* value, StoreOpts opts) {
  const OpDef& opdef = op_def<"mem.store">();
  none(opdef, {ptr_value, index, value}, attrs(opdef, with({{"align", opts.align}})));
}

Value* Builder::ptr_add(Value* ptr_value, Value* index, Hint name) {
  return one(op_def<"mem.ptr_add">(), {ptr_value, index}, {}, Type(), name);
}

Value* Builder::make_rsrc(Value* base, Value* num_records, Hint name) {
  return one(op_def<"mem.make_rsrc">(), {base, num_records}, {}, Type(), name);
}

Value* Builder::buffer_load(Value* rsrc_value, Value* offset, Type type, Hint name) {
  return one(op_def<"mem.buffer_load">(), {rsrc_value, offset}, {}, type, name);
}

void Builder::buffer_store(Value* rsrc_value, Value* offset, Value* value) {
  none(op_def<"mem.buffer_store">(), {rsrc_value, offset, value}, {});
}

Value* Builder::lds_alloc(Type pointee, std::int64_t count, LdsAllocOpts opts) {
  Type result;
  try {
    result = ptr(pointee, "lds");
  } catch (const TypeError& exc) {
    throw TypeError("mem.lds_alloc: " + exc.message());
  } catch (const ValueError& exc) {
    throw TypeError("mem.lds_alloc: " + exc.message());
  }
  const OpDef& opdef = op_def<"mem.lds_alloc">();
  return one(opdef, {}, attrs(opdef, with({{"align", opts.align}, {"count", count}})), result, opts.name);
}

Value* Builder::lds_load(Value* ptr_value, Value* index, LoadOpts opts) {
  const OpDef& opdef = op_def<"mem.lds_load">();
  return one(opdef, {ptr_value, index}, attrs(opdef, with({{"align", opts.align}, {"lanes", opts.lanes}})),
             Type(), opts.name);
}

void Builder::lds_store(Value* ptr_value, Value* index, Value* value, StoreOpts opts) {
  const OpDef& opdef = op_def<"mem.lds_store">();
  none(opdef, {ptr_value, index, value}, attrs(opdef, with({{"align", opts.align}})));
}

void Builder::atomic_add_f32(Value* ptr_value, Value* index, Value* value) {
  none(op_def<"mem.atomic_add_f32">(), {ptr_value, index, value}, {});
}

// ------------------------------------------------------------------ xlane
Value* Builder::ds_swizzle(Value* x, std::int64_t pattern, Hint name) {
  return one(op_def<"xlane.ds_swizzle">(), {x}, {{"pattern", AttrValue::integer(pattern)}}, Type(), name);
}

Value* Builder::ds_bpermute(Value* addr, Value* x, Hint name) {
  return one(op_def<"xlane.ds_bpermute">(), {addr, x}, {}, Type(), name);
}

Value* Builder::readfirstlane(Value* x, Hint name) {
  return one(op_def<"xlane.readfirstlane">(), {x}, {}, Type(), name);
}

Value* Builder::shuffle_xor(Value* x, std::int64_t mask, Hint name) {
  return one(op_def<"xlane.shuffle_xor">(), {x}, {{"mask", AttrValue::integer(mask)}}, Type(), name);
}

// ------------------------------------------------------------------ sync
void Builder::barrier() { none(op_def<"sync.barrier">(), {}, {}); }

void Builder::wave_lds_fence() { none(op_def<"sync.wave_lds_fence">(), {}, {}); }

void Builder::waitcnt(WaitcntOpts opts) {
  const OpDef& opdef = op_def<"sync.waitcnt">();
  none(opdef, {}, attrs(opdef, with({{"lgkmcnt", opts.lgkmcnt}, {"vmcnt", opts.vmcnt}})));
}

// ------------------------------------------------------------------ mma
Value* Builder::mma(const std::string& op_id, Value* a, Value* b, Value* c, Hint name) {
  return one(op_def<"mma.mma">(), {a, b, c}, {{"op_id", AttrValue::string(op_id)}}, Type(), name);
}

// ------------------------------------------------------------------ vec
Value* Builder::extract(Value* v, std::int64_t index, Hint name) {
  return one(op_def<"vec.extract">(), {v}, {{"index", AttrValue::integer(index)}}, Type(), name);
}

Value* Builder::insert(Value* v, Value* x, std::int64_t index, Hint name) {
  return one(op_def<"vec.insert">(), {v, x}, {{"index", AttrValue::integer(index)}}, Type(), name);
}

Value* Builder::splat(Value* x, std::int64_t lanes, Hint name) {
  return one(op_def<"vec.splat">(), {x}, {{"lanes", AttrValue::integer(lanes)}}, Type(), name);
}

Value* Builder::bitcast(Value* x, Type type, Hint name) { return one(op_def<"vec.bitcast">(), {x}, {}, type, name); }

}  // namespace rocke::ir
