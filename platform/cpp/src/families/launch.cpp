// Python twin: rocke/families/launch.py (KernelArg, LaunchContract, problem_sizes, check_size,
// check_buffer, launch_template, template_json; Json/dump_json: the json.dumps they call)
#include "rocke/families/launch.hpp"

#include <algorithm>
#include <utility>

#include "rocke/util/strings.hpp"

namespace rocke::families {

namespace {

// json.dumps of a str (ensure_ascii): the texts here are identifiers, spec text and type text.
std::string json_string(std::string_view text) { return json_quote(text); }

}  // namespace

Json Json::of(bool value) {
  Json out;
  out.kind = Kind::Bool;
  out.boolean = value;
  return out;
}

Json Json::of(std::int64_t value) {
  Json out;
  out.kind = Kind::Int;
  out.integer = value;
  return out;
}

Json Json::of(std::string_view value) {
  Json out;
  out.kind = Kind::String;
  out.text = std::string(value);
  return out;
}

Json Json::array() {
  Json out;
  out.kind = Kind::Array;
  return out;
}

Json Json::object() {
  Json out;
  out.kind = Kind::Object;
  return out;
}

Json& Json::push(Json value) {
  items.push_back(std::move(value));
  return *this;
}

Json& Json::set(std::string_view key, Json value) {
  members.insert_or_assign(std::string(key), std::move(value));
  return *this;
}

std::string json_quote(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\b') {
      out += "\\b";
    } else if (ch == '\f') {
      out += "\\f";
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += "\\u00";
      out += hex[byte >> 4];
      out += hex[byte & 0xF];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

namespace {

void write(const Json& value, std::size_t depth, std::string& out) {
  const std::string inner((depth + 1) * 2, ' ');
  const std::string outer(depth * 2, ' ');
  switch (value.kind) {
    case Json::Kind::Null:
      out += "null";
      return;
    case Json::Kind::Bool:
      out += value.boolean ? "true" : "false";
      return;
    case Json::Kind::Int:
      out += std::to_string(value.integer);
      return;
    case Json::Kind::String:
      out += json_quote(value.text);
      return;
    case Json::Kind::Array: {
      if (value.items.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        out += inner;
        write(value.items[i], depth + 1, out);
        out += i + 1 < value.items.size() ? ",\n" : "\n";
      }
      out += outer + "]";
      return;
    }
    case Json::Kind::Object: {
      if (value.members.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      std::size_t i = 0;
      for (const auto& [key, member] : value.members) {
        out += inner + json_quote(key) + ": ";
        write(member, depth + 1, out);
        out += ++i < value.members.size() ? ",\n" : "\n";
      }
      out += outer + "}";
      return;
    }
  }
}

}  // namespace

std::string dump_json(const Json& value) {
  std::string out;
  write(value, 0, out);
  return out;
}

Json KernelArg::to_dict() const {
  Json out = Json::object();
  out.set("bytes", Json::of(bytes));
  out.set("name", Json::of(name));
  out.set("role", Json::of(role));
  out.set("type", Json::of(type));
  out.set("value", value.has_value() ? Json::of(*value) : Json::null());
  return out;
}

Json LaunchContract::to_dict() const {
  auto triple = [](const std::array<std::int64_t, 3>& xs) {
    Json out = Json::array();
    for (std::int64_t x : xs) out.push(Json::of(x));
    return out;
  };
  Json arg_list = Json::array();
  for (const KernelArg& arg : args) arg_list.push(arg.to_dict());
  Json sizes = Json::object();
  for (const auto& [name, value] : problem) sizes.set(name, Json::of(value));
  Json zeros = Json::array();
  for (const std::string& name : zero_init) zeros.push(Json::of(name));
  Json out = Json::object();
  out.set("args", std::move(arg_list));
  out.set("block", triple(block));
  out.set("family", Json::of(family));
  out.set("format", Json::of(kContractFormat));
  out.set("grid", triple(grid));
  out.set("kernel", Json::of(kernel));
  out.set("problem", std::move(sizes));
  out.set("spec", Json::of(spec));
  out.set("workspace_bytes", Json::of(workspace_bytes));
  out.set("zero_init", std::move(zeros));
  return out;
}

std::string LaunchContract::to_json() const { return dump_json(to_dict()) + "\n"; }

std::vector<std::int64_t> problem_sizes(std::string_view family, const ProblemSizes& problem,
                                        const std::vector<std::string_view>& keys) {
  std::vector<std::string> names;
  for (const auto& [name, value] : problem) names.push_back(name);
  std::vector<std::string> wanted(keys.begin(), keys.end());
  std::sort(wanted.begin(), wanted.end());
  if (names != wanted) {
    throw LaunchError(util::cat(family, ": the problem needs exactly the sizes ", util::join(keys, ", "), "; got ",
                                util::join(names, ", ")));
  }
  std::vector<std::int64_t> values;
  for (std::string_view key : keys) {
    std::int64_t value = problem.find(key)->second;
    if (value < 1) throw LaunchError(util::cat(family, ": problem size ", key, " must be a positive int"));
    check_size(family, key, value);
    values.push_back(value);
  }
  return values;
}

std::int64_t check_size(std::string_view family, std::string_view key, std::int64_t value) {
  if (value > kMaxSize) {
    throw LaunchError(util::cat(family, ": problem size ", key, "=", std::to_string(value), " exceeds ",
                                std::to_string(kMaxSize), " (sizes are i32 kernel arguments)"));
  }
  return value;
}

std::int64_t check_buffer(std::string_view family, std::string_view name, __int128 nbytes) {
  if (nbytes > kMaxBufferBytes) {
    throw LaunchError(util::cat(family, ": buffer ", name, " needs ", util::int_text(nbytes), " bytes; at most ",
                                std::to_string(kMaxBufferBytes), " are addressable"));
  }
  return static_cast<std::int64_t>(nbytes);
}

std::string launch_template_json(const ir::KernelDef& kernel, std::string_view family, std::string_view spec,
                                 std::string_view arch) {
  std::string out = util::cat("{\n  \"arch\": ", json_string(arch), ",\n");
  if (kernel.params.empty()) {
    out += "  \"args\": [],\n";
  } else {
    out += "  \"args\": [\n";
    for (std::size_t i = 0; i < kernel.params.size(); ++i) {
      const ir::Param& param = kernel.params[i];
      std::string name = param.name().has_value() ? json_string(*param.name()) : "null";
      out += util::cat("    {\n      \"name\": ", name, ",\n      \"type\": ", json_string(param.type().text()),
                       "\n    }", i + 1 < kernel.params.size() ? ",\n" : "\n");
    }
    out += "  ],\n";
  }
  out += util::cat("  \"family\": ", json_string(family), ",\n");
  out += util::cat("  \"format\": ", json_string(kTemplateFormat), ",\n");
  out += util::cat("  \"kernel\": ", json_string(kernel.name), ",\n");
  auto wg = kernel.attrs.find("max_workgroup_size");
  std::string bound = wg != kernel.attrs.end() && wg->second.is_int() ? std::to_string(wg->second.i) : "null";
  out += util::cat("  \"max_workgroup_size\": ", bound, ",\n");
  out += util::cat("  \"spec\": ", json_string(spec), "\n}\n");
  return out;
}

}  // namespace rocke::families
