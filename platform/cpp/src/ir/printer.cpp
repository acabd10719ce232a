// Python twin: rocke/ir/printer.py
#include "rocke/ir/printer.hpp"

#include <charconv>
#include <unordered_map>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/ir/facts.hpp"

namespace rocke::ir {

namespace {

using ir::AttrDef;
using ir::KernelDef;
using ir::Op;
using ir::Region;
using ir::Type;
using ir::Value;

// The printer trusts its input, but a missing attribute is Python's KeyError, not a crash.
const ir::AttrValue& attr_at(const ir::AttrMap& attrs, const std::string& name) {
  auto it = attrs.find(name);
  if (it == attrs.end()) throw KeyError("'" + name + "'");
  return it->second;
}

void put_id(std::string& out, const Value* value) {
  char text[24];  // "%" and the digits, appended at once
  text[0] = '%';
  char* end = std::to_chars(text + 1, text + sizeof text, value->id).ptr;
  out.append(text, end);
}

// Type::text() of ty, spelled once per type and thread.
const std::string& type_text(const Type& ty) {
  thread_local std::unordered_map<Type, std::string> spelled;
  auto found = spelled.find(ty);
  if (found != spelled.end()) return found->second;
  return spelled.emplace(ty, ty.text()).first->second;
}

void put_def(std::string& out, const Value* value) {
  put_id(out, value);
  if (value->name.has_value() && !value->name->empty()) {
    out += " \"";
    out += *value->name;
    out += '"';
  }
  out += " : ";
  out += type_text(value->type);
}

// The table row of op's opcode: the one the op was made with, when it still names it.
const ir::OpDef& opdef_of(const Op& op) {
  if (op.def != nullptr && op.def->name == op.opcode) return *op.def;
  return ir::get_op(op.opcode);
}

void put_attr_dict(std::string& out, const Op& op) {
  const ir::OpDef& opdef = opdef_of(op);
  if (opdef.attrs.empty()) return;
  out += " {";
  bool first = true;
  for (const AttrDef& adef : opdef.attrs) {
    if (!first) out += ", ";
    first = false;
    std::string_view num_text = "?";  // a num attribute is typed by the first result
    if (adef.code == ir::AttrKind::Num && !op.results.empty() && !op.results[0]->type.is_none()) num_text = type_text(op.results[0]->type);
    ir::append_attr(out, adef, attr_at(op.attrs, adef.name), num_text);
  }
  out += '}';
}

void put_region(std::string& out, const Region& region, std::size_t depth) {
  const std::size_t pad = static_cast<std::size_t>(ir::format_facts().indent) * depth;
  for (const Op* op : region.ops) {
    // The op's head line is written in place; an op with regions repeats it before each one.
    const std::size_t head_start = out.size();
    out.append(pad, ' ');
    if (!op->results.empty()) {
      for (std::size_t i = 0; i < op->results.size(); ++i) {
        if (i != 0) out += ", ";
        put_def(out, op->results[i]);
      }
      out += " = ";
    }
    out += op->opcode;
    for (std::size_t i = 0; i < op->operands.size(); ++i) {
      out += i == 0 ? " " : ", ";
      put_id(out, op->operands[i]);
    }
    put_attr_dict(out, *op);
    if (op->regions.empty()) {
      out += '\n';
      continue;
    }
    std::string head = out.substr(head_start);
    out.resize(head_start);
    const ir::OpDef& opdef = opdef_of(*op);
    for (std::size_t r = 0; r < op->regions.size(); ++r) {
      const Region& inner = *op->regions[r];
      out += head;
      out += ' ';
      out += opdef.regions.at(r).name;
      if (!inner.args.empty()) {
        out += '(';
        for (std::size_t i = 0; i < inner.args.size(); ++i) {
          if (i != 0) out += ", ";
          put_def(out, inner.args[i]);
        }
        out += ')';
      }
      out += " {\n";
      put_region(out, inner, depth + 1);
      head = std::string(pad, ' ') + "}";
    }
    out += head;
    out += '\n';
  }
}

std::string attr_list(const std::vector<AttrDef>& defs, const ir::AttrMap& attrs) {
  std::string out;
  for (std::size_t i = 0; i < defs.size(); ++i) {
    if (i != 0) out += ", ";
    ir::append_attr(out, defs[i], attr_at(attrs, defs[i].name), "?");
  }
  return out;
}

}  // namespace

std::string print_kernel(const KernelDef& kernel) {
  std::string out;
  out.reserve(4096);
  out += ir::format_facts().version;
  out += '\n';
  out += "kernel @" + kernel.name + " {" + attr_list(ir::kernel_attrs(), kernel.attrs) + "}\n";
  for (const ir::Param& param : kernel.params) {
    out += "param ";
    put_def(out, param.value);
    if (param.value->type.is_ptr()) out += std::string(" {") + attr_list(ir::param_attrs(), param.attrs) + "}";
    out += '\n';
  }
  out += "body {\n";
  put_region(out, *kernel.body, 1);
  out += "}\n";
  return out;
}

}  // namespace rocke::ir
