// rocKE C++ engine: the LDS pool, every mem.lds_alloc of a kernel packed into one addrspace(3)
// global.
// Python twin: rocke/lower/lds.py
//
// Allocations are placed in definition order (they only appear directly in the kernel body), each
// at the next offset that is a multiple of its alignment: max(align attribute, natural alignment
// of the pointee). The pool is aligned to the largest of those and is exactly as large as the end
// of the last allocation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "rocke/arch/target.hpp"
#include "rocke/ir/core.hpp"

namespace rocke::lower {


struct LdsPlan {
  std::unordered_map<std::int64_t, std::int64_t> offsets;  // result id of each mem.lds_alloc -> byte offset
  std::int64_t size = 0;                                    // bytes; 0 when the kernel allocates no LDS
  std::int64_t align = 1;
};

// LowerError "kernel @NAME: allocates N bytes of LDS; ARCH allows M per workgroup" when too large.
LdsPlan plan_lds(const ir::KernelDef& kernel, const arch::ArchTarget& arch);
// Whether the pool is larger than the target declares statically: an external array sized at launch
// (NVIDIA's dynamic shared memory above 48 KiB).
bool is_dynamic(const LdsPlan& plan, const arch::Target& target);
std::string pool_global(const LdsPlan& plan, const arch::Target& target);

}  // namespace rocke::lower
