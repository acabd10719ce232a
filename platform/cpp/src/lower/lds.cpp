// Python twin: rocke/lower/lds.py
#include "rocke/lower/lds.hpp"

#include <algorithm>

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/errors.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower {

LdsPlan plan_lds(const ir::KernelDef& kernel, const arch::ArchTarget& arch) {
  LdsPlan plan;
  std::int64_t end = 0;
  std::int64_t pool_align = 1;
  for (const ir::Op* op : kernel.body->ops) {
    if (op->opcode != "mem.lds_alloc") continue;
    const ir::Value& result = *op->results[0];
    ir::Type pointee = pointee_of(result.type);
    std::int64_t count = int_attr(*op, "count");
    std::int64_t align = std::max(int_attr(*op, "align"), natural_align(pointee));
    std::int64_t offset = (end + align - 1) / align * align;
    plan.offsets[result.id] = offset;
    end = offset + count * byte_size(pointee);
    pool_align = std::max(pool_align, align);
  }
  if (end > arch.lds_bytes) {
    throw LowerError(util::cat("kernel @", kernel.name),
                     util::cat("allocates ", std::to_string(end), " bytes of LDS; ", arch.name, " allows ",
                               std::to_string(arch.lds_bytes), " per workgroup"));
  }
  plan.size = end;
  plan.align = pool_align;
  return plan;
}

bool is_dynamic(const LdsPlan& plan, const arch::Target& target) {
  return 0 < target.static_lds_bytes && target.static_lds_bytes < plan.size;
}

std::string pool_global(const LdsPlan& plan, const arch::Target& target) {
  if (is_dynamic(plan, target)) {
    return util::cat(target.lds_pool, " = external addrspace(3) global [0 x i8], align ", std::to_string(plan.align));
  }
  return util::cat(target.lds_pool, " = internal addrspace(3) global [", std::to_string(plan.size), " x i8] poison, align ",
                   std::to_string(plan.align));
}

}  // namespace rocke::lower
