// Python twin: rocke/arch/intrinsics.py
// The Python loader checks intrinsics.toml strictly (and that flavor overrides name fixed rows);
// the generated tree is that same file, so this reader only maps its rows onto the structs.
#include "rocke/arch/intrinsics.hpp"

#include <functional>
#include <unordered_map>

#include "rocke/arch/flavors.hpp"
#include "rocke/arch/mma.hpp"
#include "rocke/data/document.hpp"
#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::arch {

namespace {

// Element types each overload class ranges over (OVERLOAD_ELEMS).
bool overload_accepts(std::string_view overload, std::string_view elem) {
  return overload == "float" && (elem == "f16" || elem == "bf16" || elem == "f32");
}

std::vector<std::string> strings(const data::NodeRef& array) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < array.size(); ++i) out.emplace_back(array.at(i).str());
  return out;
}

IntrinsicDef mma_row(const MmaOp& op, std::int64_t index) {
  std::vector<std::string> params;
  for (const MmaOperand* x : {&op.a, &op.b, &op.c}) {
    for (std::string& type : x->llvm_arg_types()) params.push_back(std::move(type));
  }
  for (const ImmOperand& imm : op.imm_operands) params.push_back(util::cat(imm.type, kImmarg));
  return IntrinsicDef{index, op.intrinsic, op.c.llvm_type(), std::move(params), "", op.id};
}

WaitcntEncoding parse_waitcnt(const data::NodeRef& row) {
  WaitcntEncoding enc;
  enc.model = std::string(row["model"].str());
  enc.form = std::string(row["form"].str());
  enc.intrinsic = std::string(row["intrinsic"].str());
  data::NodeRef waits = row["waits"];
  for (std::size_t i = 0; i < waits.size(); ++i) {
    data::NodeRef item = waits.at(i);
    enc.waits.push_back(WaitcntWait{std::string(item["attr"].str()), std::string(item["counter"].str()),
                                    std::string(item["intrinsic"].str())});
  }
  data::NodeRef fields = row["fields"];
  for (std::size_t i = 0; i < fields.size(); ++i) {
    data::NodeRef item = fields.at(i);
    enc.fields.push_back(WaitcntField{std::string(item["counter"].str()), item["value_shift"].integer(),
                                      item["bits"].integer(), item["imm_shift"].integer()});
  }
  return enc;
}

// Hashes std::string and string_view alike, so by_name is searched without a temporary string.
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
};

struct IntrinsicData {
  std::vector<IntrinsicDef> rows;
  std::vector<WaitcntEncoding> encodings;
  std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> by_name;
};

const IntrinsicData& intrinsic_data() {
  static const IntrinsicData data = [] {
    IntrinsicData d;
    data::NodeRef root = data::document("rocke/arch/data/intrinsics.toml");
    data::NodeRef rows = root["intrinsic"];
    for (std::size_t i = 0; i < rows.size(); ++i) {
      data::NodeRef row = rows.at(i);
      d.rows.push_back(IntrinsicDef{static_cast<std::int64_t>(i), std::string(row["name"].str()),
                                    std::string(row["ret"].str()), strings(row["params"]),
                                    std::string(row["overload"].str()), ""});
    }
    const std::int64_t fixed = static_cast<std::int64_t>(d.rows.size());
    const std::vector<MmaOp>& catalog = mma_catalog();
    for (std::size_t i = 0; i < catalog.size(); ++i) {
      d.rows.push_back(mma_row(catalog[i], fixed + static_cast<std::int64_t>(i)));
    }
    for (std::size_t i = 0; i < d.rows.size(); ++i) d.by_name.emplace(d.rows[i].name, i);
    data::NodeRef encodings = root["waitcnt"];
    for (std::size_t i = 0; i < encodings.size(); ++i) d.encodings.push_back(parse_waitcnt(encodings.at(i)));
    return d;
  }();
  return data;
}

std::string replace_all(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    std::size_t hit = text.find(from, pos);
    if (hit == std::string_view::npos) break;
    out.append(text.substr(pos, hit - pos));
    out.append(to);
    pos = hit + from.size();
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace


namespace {

// Parameter types as a call site writes them (without immarg).
std::vector<std::string> call_types_of(const std::vector<std::string>& params) {
  std::vector<std::string> out;
  out.reserve(params.size());
  for (const std::string& param : params) {
    bool immarg = param.size() >= kImmarg.size() && param.compare(param.size() - kImmarg.size(), kImmarg.size(),
                                                                   kImmarg) == 0;
    out.push_back(immarg ? param.substr(0, param.size() - kImmarg.size()) : param);
  }
  return out;
}

// decl with its call types and declaration text filled in.
IntrinsicDecl with_call_types(IntrinsicDecl decl) {
  decl.call_types = call_types_of(decl.params);
  decl.declaration = util::cat("declare ", decl.ret, " @", decl.name, "(", util::join(decl.params, ", "), ")");
  return decl;
}

}  // namespace

const std::vector<IntrinsicDef>& intrinsics() { return intrinsic_data().rows; }
const std::vector<WaitcntEncoding>& waitcnt_encodings() { return intrinsic_data().encodings; }

const IntrinsicDef& intrinsic_def(std::string_view name) {
  const IntrinsicData& d = intrinsic_data();
  auto found = d.by_name.find(name);
  if (found == d.by_name.end()) throw ValueError(util::cat("unknown intrinsic '", name, "'"));
  return d.rows[found->second];
}

const IntrinsicDef& mma_intrinsic_def(std::string_view op_id) {
  for (const IntrinsicDef& row : intrinsics()) {
    if (row.mma_op_id == op_id) return row;
  }
  throw ValueError(util::cat("no intrinsic for mma op '", op_id, "'"));
}

const WaitcntEncoding& waitcnt_encoding(std::string_view model) {
  for (const WaitcntEncoding& enc : waitcnt_encodings()) {
    if (enc.model == model) return enc;
  }
  throw ValueError(util::cat("no waitcnt encoding for model '", model, "'"));
}

IntrinsicDecl instantiate(const IntrinsicDef& row, std::string_view flavor, std::string_view elem,
                          std::int64_t lanes) {
  if (row.overload.empty()) {
    if (!elem.empty()) throw ValueError(util::cat("intrinsic '", row.name, "' is not overloaded"));
    const IntrinsicOverride* override = get_flavor(flavor).override_for(row.name);
    if (override != nullptr) {
      return with_call_types(IntrinsicDecl{row.index, row.name, override->ret, override->params, row.name, {}, {}});
    }
    return with_call_types(IntrinsicDecl{row.index, row.name, row.ret, row.params, row.name, {}, {}});
  }
  if (!overload_accepts(row.overload, elem)) {
    throw ValueError(util::cat("intrinsic '", row.name, "' is not defined for element type '", elem, "'"));
  }
  get_flavor(flavor);
  // overload_spelling: (LLVM type, mangled suffix) of a scalar (lanes 0) or a vector.
  const std::string& scalar = llvm_facts().llvm_scalar(elem);
  std::string llvm_type = lanes == 0 ? scalar : util::cat("<", std::to_string(lanes), " x ", scalar, ">");
  std::string mangled = lanes == 0 ? std::string(elem) : util::cat("v", std::to_string(lanes), elem);
  IntrinsicDecl decl;
  decl.index = row.index;
  decl.name = replace_all(row.name, "{M}", mangled);
  decl.ret = replace_all(row.ret, "{T}", llvm_type);
  for (const std::string& param : row.params) decl.params.push_back(replace_all(param, "{T}", llvm_type));
  decl.domain_key = replace_all(row.name, "{M}", elem);
  return with_call_types(std::move(decl));
}

}  // namespace rocke::arch
