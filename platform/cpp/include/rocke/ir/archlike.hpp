// rocKE C++ engine: what verify(kernel, arch) asks of a target.
// Python twin: rocke/ir/archlike.py (rocke::arch::ArchTarget implements it)
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "rocke/ir/types.hpp"

namespace rocke::ir {

class ArchLike {
 public:
  virtual ~ArchLike() = default;
  virtual const std::string& arch_name() const = 0;
  // Whether the target has the named feature (e.g. "global_atomic_fadd_f32").
  virtual bool has_feature(std::string_view feature) const = 0;
  // (A, B, C/D) fragment types of MMA op_id on this target; nullopt if unknown or unavailable.
  virtual std::optional<std::array<Type, 3>> mma_signature(std::string_view op_id) const = 0;
};

}  // namespace rocke::ir
