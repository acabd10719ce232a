// Python twin: rocke/families/launch.py (KernelArg, LaunchContract, problem_sizes, check_size,
// check_buffer, launch_template, template_json)
#include "rocke/families/launch.hpp"

#include <algorithm>

#include "rocke/util/strings.hpp"

namespace rocke::families {

namespace {

// json.dumps of a str (ensure_ascii): the texts here are identifiers, spec text and type text.
std::string json_string(std::string_view text) { return util::json_quote(text); }

}  // namespace

util::Json KernelArg::to_dict() const {
  util::Json out = util::Json::object();
  out.set("bytes", util::Json::of(bytes));
  out.set("name", util::Json::of(name));
  out.set("role", util::Json::of(role));
  out.set("type", util::Json::of(type));
  out.set("value", value.has_value() ? util::Json::of(*value) : util::Json::null());
  return out;
}

util::Json LaunchContract::to_dict() const {
  auto triple = [](const std::array<std::int64_t, 3>& xs) {
    util::Json out = util::Json::array();
    for (std::int64_t x : xs) out.push(util::Json::of(x));
    return out;
  };
  util::Json arg_list = util::Json::array();
  for (const KernelArg& arg : args) arg_list.push(arg.to_dict());
  util::Json sizes = util::Json::object();
  for (const auto& [name, value] : problem) sizes.set(name, util::Json::of(value));
  util::Json zeros = util::Json::array();
  for (const std::string& name : zero_init) zeros.push(util::Json::of(name));
  util::Json out = util::Json::object();
  out.set("args", std::move(arg_list));
  out.set("block", triple(block));
  out.set("family", util::Json::of(family));
  out.set("format", util::Json::of(kContractFormat));
  out.set("grid", triple(grid));
  out.set("kernel", util::Json::of(kernel));
  out.set("problem", std::move(sizes));
  out.set("spec", util::Json::of(spec));
  out.set("workspace_bytes", util::Json::of(workspace_bytes));
  out.set("zero_init", std::move(zeros));
  return out;
}

std::string LaunchContract::to_json() const { return util::dump_json(to_dict()) + "\n"; }

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
  if (value > MAX_SIZE) {
    throw LaunchError(util::cat(family, ": problem size ", key, "=", std::to_string(value), " exceeds ",
                                std::to_string(MAX_SIZE), " (sizes are i32 kernel arguments)"));
  }
  return value;
}

std::int64_t check_buffer(std::string_view family, std::string_view name, __int128 nbytes) {
  if (nbytes > MAX_BUFFER_BYTES) {
    throw LaunchError(util::cat(family, ": buffer ", name, " needs ", util::int_text(nbytes), " bytes; at most ",
                                std::to_string(MAX_BUFFER_BYTES), " are addressable"));
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
