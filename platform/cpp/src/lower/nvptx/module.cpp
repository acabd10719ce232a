// Python twin: rocke/lower/nvptx/module.py
#include "rocke/lower/nvptx/module.hpp"

#include "rocke/util/strings.hpp"

namespace rocke::lower::nvptx {

std::vector<std::string> kernel_attributes(const ir::KernelDef&, const arch::ArchTarget& arch) {
  return {util::cat("\"target-cpu\"=\"", arch.llvm_cpu, "\"")};
}

std::vector<std::string> module_metadata(const ir::KernelDef& kernel, const arch::ArchTarget&) {
  std::int64_t max_wg = kernel.attrs.at("max_workgroup_size").i;
  return {"!nvvm.annotations = !{!0}",
          util::cat("!0 = !{ptr @", kernel.name, ", !\"maxntidx\", i32 ", std::to_string(max_wg), "}")};
}

}  // namespace rocke::lower::nvptx
