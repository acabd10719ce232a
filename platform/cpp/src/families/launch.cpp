// Python twin: rocke/families/launch.py (launch_template, template_json)
#include "rocke/families/launch.hpp"

#include "rocke/util/strings.hpp"

namespace rocke::families {

namespace {

// json.dumps of a str (ensure_ascii): the texts here are identifiers, spec text and type text.
std::string json_string(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
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

}  // namespace

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
