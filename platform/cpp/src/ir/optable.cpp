// Python twins: rocke/ir/constraints.py, rocke/ir/optable.py
#include "rocke/ir/optable.hpp"

#include <algorithm>
#include <unordered_map>

#include "rocke/errors.hpp"

namespace rocke::ir {

namespace {

constexpr std::string_view kTypeRules[] = {
    "none",     "fixed",         "explicit",         "same_as_operand0", "same_as_operand1",
    "same_as_operand2", "cmp_i1", "cast",           "cast_wider",       "cast_narrower",
    "cast_same_bits",   "load",   "elem_of_operand0", "splat",          "iter_args",
};
static_assert(std::size(kTypeRules) == static_cast<std::size_t>(TypeRule::IterArgs) + 1, "one TypeRule per rule");
constexpr std::string_view kExplicitRules[] = {"explicit", "cast", "cast_wider", "cast_narrower", "cast_same_bits"};
constexpr std::string_view kChecks[] = {"store_value", "vec_index", "insert_elem"};
constexpr std::string_view kPlacements[] = {"any", "kernel_body", "terminator"};
static_assert(std::size(kPlacements) == static_cast<std::size_t>(Placement::Terminator) + 1, "one Placement each");
static_assert(std::size(kChecks) == static_cast<std::size_t>(OpCheck::InsertElem) + 1, "one OpCheck per check");
constexpr std::string_view kRegionArgs[] = {"none", "for_body"};
constexpr std::string_view kArchRules[] = {"", "mma_signature"};
constexpr std::string_view kOpKeys[] = {"name",    "builder",    "summary",   "operands",  "results",
                                        "attrs",   "type_rule",  "pure",      "convergent", "feature",
                                        "arch_rule", "checks",   "placement", "regions"};

template <std::size_t N>
bool one_of(std::string_view value, const std::string_view (&choices)[N]) {
  return std::find(std::begin(choices), std::end(choices), value) != std::end(choices);
}

// The position of value in choices (value is one of them).
template <std::size_t N>
std::size_t index_of(std::string_view value, const std::string_view (&choices)[N]) {
  return static_cast<std::size_t>(std::find(std::begin(choices), std::end(choices), value) - std::begin(choices));
}

// Class name -> the Type::category() values it admits.
std::vector<std::string> class_categories(std::string_view atom) {
  if (atom == "int") return {"int"};
  if (atom == "float") return {"float"};
  if (atom == "vec") return {"vec_int", "vec_float"};
  if (atom == "vec_int") return {"vec_int"};
  if (atom == "vec_float") return {"vec_float"};
  if (atom.starts_with("ptr_")) {
    const auto& spaces = address_spaces();
    if (std::find(spaces.begin(), spaces.end(), atom.substr(4)) != spaces.end()) return {std::string(atom)};
  }
  return {};
}

void add_unique(std::vector<std::string>& list, std::string item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(std::move(item));
}

std::vector<OperandDef> slots(const data::NodeRef& rows, const std::string& where, bool is_operand) {
  std::vector<OperandDef> out;
  std::vector<std::string> names;
  for (std::size_t index = 0; index < rows.size(); ++index) {
    data::NodeRef row = rows.at(index);
    bool variadic = row.has("variadic") && row["variadic"].boolean();
    if (variadic && index != rows.size() - 1) throw DataError(where + ": only the last slot may be variadic");
    std::string name(row["name"].str());
    Constraint constraint;
    try {
      constraint = Constraint(std::string(row["type"].str()), is_operand ? names : std::vector<std::string>{});
    } catch (const ValueError& exc) {
      throw DataError(where + ": slot '" + name + "': " + exc.message());
    }
    out.push_back(OperandDef{name, std::move(constraint), variadic});
    names.push_back(name);
  }
  return out;
}

std::vector<std::string> strings_of(const data::NodeRef& array) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < array.size(); ++i) out.emplace_back(array.at(i).str());
  return out;
}

OpDef op_from_row(const data::NodeRef& row) {
  std::string name = row.has("name") ? std::string(row["name"].str()) : std::string("?");
  std::string where = "ops.toml op '" + name + "'";
  if (row.size() != std::size(kOpKeys)) throw DataError(where + ": keys must be exactly the op keys");
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (!one_of(row.key_at(i), kOpKeys)) throw DataError(where + ": unknown key '" + std::string(row.key_at(i)) + "'");
  }
  OpDef op;
  op.name = name;
  op.builder = std::string(row["builder"].str());
  op.summary = std::string(row["summary"].str());
  op.operands = slots(row["operands"], where, true);
  op.results = slots(row["results"], where, false);
  op.attrs = attr_defs_from_rows(row["attrs"], where);
  op.type_rule = std::string(row["type_rule"].str());
  op.pure = row["pure"].boolean();
  op.convergent = row["convergent"].boolean();
  op.feature = std::string(row["feature"].str());
  op.arch_rule = std::string(row["arch_rule"].str());
  op.checks = strings_of(row["checks"]);
  op.placement = std::string(row["placement"].str());
  data::NodeRef regions = row["regions"];
  for (std::size_t i = 0; i < regions.size(); ++i) {
    data::NodeRef reg = regions.at(i);
    RegionDef rdef{std::string(reg["name"].str()), std::string(reg["args"].str()),
                   std::string(reg["terminator"].str())};
    if (reg.size() != 3 || !one_of(rdef.args, kRegionArgs)) throw DataError(where + ": bad region");
    rdef.for_body = rdef.args == "for_body";
    op.regions.push_back(std::move(rdef));
  }
  if (!one_of(op.type_rule, kTypeRules)) throw DataError(where + ": unknown type_rule '" + op.type_rule + "'");
  for (const std::string& check : op.checks) {
    if (!one_of(check, kChecks)) throw DataError(where + ": unknown check '" + check + "'");
  }
  if (!one_of(op.placement, kPlacements) || !one_of(op.arch_rule, kArchRules)) {
    throw DataError(where + ": unknown placement or arch_rule");
  }
  op.rule = static_cast<TypeRule>(index_of(op.type_rule, kTypeRules));
  op.explicit_rule = is_explicit_rule(op.type_rule);
  op.mma_signature_rule = op.arch_rule == "mma_signature";
  op.where = static_cast<Placement>(index_of(op.placement, kPlacements));
  for (const std::string& check : op.checks) op.check_kinds.push_back(static_cast<OpCheck>(index_of(check, kChecks)));
  if (op.type_rule == "fixed") {
    for (const OperandDef& r : op.results) {
      if (!r.constraint.single_type().has_value()) {
        throw DataError(where + ": type_rule fixed needs one concrete type per result");
      }
    }
  }
  if (name.find('.') == std::string::npos) throw DataError(where + ": op names are dialect.op");
  return op;
}

struct Registry {
  std::vector<OpDef> ops;
  std::unordered_map<std::string_view, const OpDef*> by_name;
};

const Registry& registry() {
  static const Registry reg = [] {
    Registry r;
    data::NodeRef rows = data::document("rocke/ir/data/ops.toml")["op"];
    for (std::size_t i = 0; i < rows.size(); ++i) r.ops.push_back(op_from_row(rows.at(i)));
    std::vector<std::string> builders;
    for (const OpDef& op : r.ops) {
      if (!r.by_name.emplace(op.name, &op).second) throw DataError("ops.toml: duplicate op names");
      if (!op.builder.empty()) {
        if (std::find(builders.begin(), builders.end(), op.builder) != builders.end()) {
          throw DataError("ops.toml: duplicate builder names");
        }
        builders.push_back(op.builder);
      }
    }
    for (const OpDef& op : r.ops) {
      for (const RegionDef& reg : op.regions) {
        if (!r.by_name.contains(reg.terminator)) {
          throw DataError("ops.toml op '" + op.name + "': unknown terminator '" + reg.terminator + "'");
        }
      }
    }
    return r;
  }();
  return reg;
}

constexpr std::string_view kFixedCategories[] = {"int", "float", "vec_int", "vec_float", "rsrc"};
constexpr unsigned kPtrCategoryBit = std::size(kFixedCategories);

static_assert(kPtrCategoryBit == kFirstPtrCategoryBit, "ptr_<space> bits follow the fixed categories");

}  // namespace

unsigned category_bit(std::string_view category) {
  for (unsigned bit = 0; bit < kPtrCategoryBit; ++bit) {
    if (category == kFixedCategories[bit]) return bit;
  }
  if (category.starts_with("ptr_")) {
    const auto& spaces = address_spaces();
    auto it = std::find(spaces.begin(), spaces.end(), category.substr(4));
    if (it != spaces.end()) {
      std::size_t bit = kPtrCategoryBit + static_cast<std::size_t>(it - spaces.begin());
      if (bit < kNoCategoryBit) return static_cast<unsigned>(bit);
    }
  }
  return kNoCategoryBit;
}

Constraint::Constraint(std::string text, const std::vector<std::string>& earlier_operands) : text_(std::move(text)) {
  if (text_.starts_with("$")) {
    std::string name = text_.substr(1);
    auto it = std::find(earlier_operands.begin(), earlier_operands.end(), name);
    if (it == earlier_operands.end()) {
      throw ValueError("constraint '" + text_ + "' does not name an earlier operand");
    }
    same_as_ = static_cast<std::size_t>(it - earlier_operands.begin());
    same_as_name_ = name;
    return;
  }
  std::size_t start = 0;
  while (true) {
    std::size_t bar = text_.find('|', start);
    std::string atom = text_.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (atom == "any") {
      accepts_any_ = true;
      for (const std::string& space : address_spaces()) add_unique(pointer_spaces_, space);
    } else if (std::vector<std::string> cats = class_categories(atom); !cats.empty()) {
      for (std::string& cat : cats) add_unique(categories_, std::move(cat));
      if (atom.starts_with("ptr_")) add_unique(pointer_spaces_, atom.substr(4));
    } else {
      Type ty;
      try {
        ty = parse_type(atom);
      } catch (const ValueError&) {
        throw ValueError("unknown constraint alternative '" + atom + "' in '" + text_ + "'");
      }
      if (std::find(concrete_.begin(), concrete_.end(), ty) == concrete_.end()) concrete_.push_back(ty);
      if (ty.is_ptr()) add_unique(pointer_spaces_, std::string(ty.space()));
    }
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  for (const std::string& cat : categories_) {
    unsigned bit = category_bit(cat);
    if (bit == kNoCategoryBit) throw Error("constraint '" + text_ + "': category " + cat + " has no bit");
    category_mask_ |= std::uint64_t{1} << bit;
  }
}

bool Constraint::is_address_space_mismatch(const Type& ty) const {
  if (!ty.is_ptr() || pointer_spaces_.empty()) return false;
  return std::find(pointer_spaces_.begin(), pointer_spaces_.end(), ty.space()) == pointer_spaces_.end();
}

std::optional<Type> Constraint::single_type() const {
  if (!same_as_.has_value() && !accepts_any_ && categories_.empty() && concrete_.size() == 1) return concrete_[0];
  return std::nullopt;
}

const AttrDef* OpDef::attr(std::string_view attr_name) const {
  for (const AttrDef& adef : attrs) {
    if (adef.name == attr_name) return &adef;
  }
  return nullptr;
}

const std::vector<OpDef>& ops() { return registry().ops; }

const OpDef* find_op(std::string_view name) {
  const auto& by_name = registry().by_name;
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

const OpDef& get_op(std::string_view name) {
  const OpDef* opdef = find_op(name);
  if (opdef == nullptr) throw ValueError("unknown op '" + std::string(name) + "'");
  return *opdef;
}

bool is_explicit_rule(std::string_view rule) { return one_of(rule, kExplicitRules); }

std::vector<Type> fixed_result_types(const OpDef& opdef) {
  std::vector<Type> out;
  for (const OperandDef& r : opdef.results) out.push_back(*r.constraint.single_type());
  return out;
}

}  // namespace rocke::ir
