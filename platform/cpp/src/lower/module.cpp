// Python twin: rocke/lower/module.py
#include "rocke/lower/module.hpp"

#include <algorithm>
#include <utility>

#include "rocke/errors.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/lower/dispatch.hpp"
#include "rocke/lower/lds.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/lower/nvptx/module.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower {

namespace {

std::vector<std::string> no_metadata(const ir::KernelDef&, const arch::ArchTarget&) { return {}; }

// The kernel attributes and closing metadata of a target's modules (Python's MODULE_PARTS).
struct ModuleParts {
  std::vector<std::string> (*attributes)(const ir::KernelDef&, const arch::ArchTarget&);
  std::vector<std::string> (*metadata)(const ir::KernelDef&, const arch::ArchTarget&);
};

const ModuleParts& module_parts(const arch::Target& target) {
  static const ModuleParts amdgcn{&kernel_attributes, &no_metadata};
  static const ModuleParts nvptx{&nvptx::kernel_attributes, &nvptx::module_metadata};
  if (target.name == "nvptx") return nvptx;
  if (target.name == "amdgcn") return amdgcn;
  throw KeyError(util::cat("'", target.name, "'"));
}

}  // namespace

std::string lower(const ir::KernelDef& kernel, std::string_view arch, std::string_view flavor) {
  arch::get_flavor(flavor);  // an unknown flavor is reported before an unknown arch, as in Python
  return lower(kernel, arch::get_arch(arch), flavor);
}

std::string lower(const ir::KernelDef& kernel, const arch::ArchTarget& target, std::string_view flavor) {
  arch::get_flavor(flavor);
  ir::verify(kernel, &target);
  return lower_verified(kernel, target, flavor);
}

std::string lower_verified(const ir::KernelDef& kernel, const arch::ArchTarget& target, std::string_view flavor) {
  const arch::Flavor& row = arch::get_flavor(flavor);
  LdsPlan lds = plan_lds(kernel, target);
  FunctionEmitter em(target, row, lds.offsets, &lower_op);

  // The module is written into the emitter's buffer, which the body is then appended to: one
  // buffer, sized like the last module this thread lowered. Its lines are appended in place (the
  // params too, bound before the body's ops, as the Python twin binds them): no string per line.
  thread_local std::size_t last_size = 0;
  std::string& out = em.body;
  out.reserve(last_size + last_size / 8 + 1024);
  const arch::Target& vendor = em.target;
  out.append("target datalayout = \"").append(vendor.datalayout(row.name)).append("\"\n");
  out.append("target triple = \"").append(vendor.triple).append("\"\n\n");
  if (lds.size != 0) out.append(pool_global(lds, vendor)).append("\n\n");
  out.append("define ").append(vendor.kernel_cc).append(" void @").append(kernel.name).append("(");
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    if (i != 0) out.append(", ");
    append_param_text(out, kernel.params[i], row, em);
  }
  out.append(") #0 {\n");
  em.label("entry");
  em.lower_ops(kernel.body->ops, "body");
  em.emit("ret void");
  out.append("}\n\n");

  std::vector<const arch::IntrinsicDecl*> decls = em.decls;
  std::sort(decls.begin(), decls.end(), [](const arch::IntrinsicDecl* a, const arch::IntrinsicDecl* b) {
    return a->index != b->index ? a->index < b->index : a->name < b->name;
  });
  if (!decls.empty()) {
    for (const arch::IntrinsicDecl* decl : decls) out.append(decl->text()).append("\n");
    out.append("\n");
  }
  const ModuleParts& parts = module_parts(vendor);
  out.append("attributes #0 = { ").append(util::join(parts.attributes(kernel, target), " ")).append(" }\n");
  std::vector<std::string> tail = parts.metadata(kernel, target);
  if (!tail.empty()) {
    out.append("\n");
    for (const std::string& line : tail) out.append(line).append("\n");
  }
  last_size = out.size();
  return std::move(out);
}

std::string param_text(const ir::Param& param, const arch::Flavor& flavor, FunctionEmitter& em) {
  std::string out;
  out.reserve(96);  // a pointer param's text is 50-90 bytes: one block, not three growths
  append_param_text(out, param, flavor, em);
  return out;
}

void append_param_text(std::string& out, const ir::Param& param, const arch::Flavor& flavor, FunctionEmitter& em) {
  const ir::Value& value = *param.value;
  out += em.llvm_type(value.type);
  auto part = [&out](std::string_view text) {  // the parts joined with " "
    out += ' ';
    out += text;
  };
  if (value.type.is_ptr()) {
    const ir::AttrMap& attrs = param.attrs;
    if (attrs.at("noalias").truthy()) part("noalias");
    part(flavor.nocapture);  // rocke.ir cannot store a pointer, so no param is captured
    if (attrs.at("readonly").truthy()) part("readonly");
    if (attrs.at("writeonly").truthy()) part("writeonly");
    const ir::AttrValue& align = attrs.at("align");
    if (align.truthy()) {
      part("align ");
      util::append_int(out, align.i);
    }
  }
  part(em.bind(value));
}

std::vector<std::string> kernel_attributes(const ir::KernelDef& kernel, const arch::ArchTarget& arch) {
  std::int64_t max_wg = kernel.attrs.at("max_workgroup_size").i;
  std::vector<std::pair<std::string, std::string>> attrs{
      {"amdgpu-flat-work-group-size",
       util::cat(std::to_string(std::min(arch.wave_size, max_wg)), ",", std::to_string(max_wg))},
      {"target-cpu", arch.llvm_cpu},
  };
  std::int64_t waves = kernel.attrs.at("waves_per_eu").i;
  if (waves != 0) attrs.emplace_back("amdgpu-waves-per-eu", std::to_string(waves));
  std::sort(attrs.begin(), attrs.end());
  std::vector<std::string> out;
  for (const auto& [name, value] : attrs) out.push_back(util::cat("\"", name, "\"=\"", value, "\""));
  return out;
}

}  // namespace rocke::lower
