// Python twin: rocke/lower/dispatch.py
#include "rocke/lower/dispatch.hpp"

#include "rocke/errors.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/nvptx/ops_gpu.hpp"
#include "rocke/lower/nvptx/ops_math.hpp"
#include "rocke/lower/nvptx/ops_mem.hpp"
#include "rocke/lower/nvptx/ops_sync.hpp"
#include "rocke/lower/nvptx/ops_xlane.hpp"
#include "rocke/lower/ops_arith.hpp"
#include "rocke/lower/ops_gpu.hpp"
#include "rocke/lower/ops_math.hpp"
#include "rocke/lower/ops_mem.hpp"
#include "rocke/lower/ops_mma.hpp"
#include "rocke/lower/ops_scf.hpp"
#include "rocke/lower/ops_sync.hpp"
#include "rocke/lower/ops_vec.hpp"
#include "rocke/lower/ops_xlane.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower {

std::unordered_map<std::string, Lowering> merge_lowerings(std::initializer_list<const Lowerings*> tables) {
  std::unordered_map<std::string, Lowering> merged;
  for (const Lowerings* table : tables) {
    for (const auto& [opcode, lowering] : *table) {
      if (!merged.emplace(opcode, lowering).second) throw ValueError(util::cat("two lowerings for '", opcode, "'"));
    }
  }
  return merged;
}

namespace {

// One target's LOWERINGS: the shared tables merged with the target's own table per dialect
// (Python's SHARED_TABLES and TARGET_TABLES).
std::unordered_map<std::string, Lowering> target_lowerings(std::string_view target) {
  if (target == "amdgcn") {
    return merge_lowerings({&ops_arith::lowerings(), &ops_mem::shared_lowerings(), &ops_sync::shared_lowerings(),
                            &ops_mma::lowerings(), &ops_vec::lowerings(), &ops_scf::lowerings(),
                            &ops_math::lowerings(), &ops_gpu::lowerings(), &ops_mem::lowerings(),
                            &ops_xlane::lowerings(), &ops_sync::lowerings()});
  }
  if (target == "nvptx") {
    return merge_lowerings({&ops_arith::lowerings(), &ops_mem::shared_lowerings(), &ops_sync::shared_lowerings(),
                            &ops_mma::lowerings(), &ops_vec::lowerings(), &ops_scf::lowerings(),
                            &nvptx::ops_math::lowerings(), &nvptx::ops_gpu::lowerings(),
                            &nvptx::ops_mem::lowerings(), &nvptx::ops_xlane::lowerings(),
                            &nvptx::ops_sync::lowerings()});
  }
  throw KeyError(util::cat("'", target, "'"));
}

// A target's lowerings by name, and by op-table row (the index of its OpDef in ir::ops(); nullptr
// for an op without one).
struct TargetLowerings {
  std::unordered_map<std::string, Lowering> by_name;
  std::vector<Lowering> by_row;
};

TargetLowerings make_target_lowerings(const arch::Target& target) {
  TargetLowerings out{target_lowerings(target.name), {}};
  const std::vector<ir::OpDef>& ops = ir::ops();
  out.by_row.assign(ops.size(), nullptr);
  for (std::size_t row = 0; row < ops.size(); ++row) {
    auto found = out.by_name.find(ops[row].name);
    if (found != out.by_name.end()) out.by_row[row] = found->second;
  }
  return out;
}

// Every target's lowerings, in targets() order (made once; the tables never change).
const std::vector<TargetLowerings>& all_lowerings() {
  static const std::vector<TargetLowerings> tables = [] {
    std::vector<TargetLowerings> out;
    for (const arch::Target& target : arch::targets()) out.push_back(make_target_lowerings(target));
    return out;
  }();
  return tables;
}

}  // namespace

void lower_op(FunctionEmitter& em, const ir::Op& op) {
  // The op's table row, when it still names its opcode, finds the lowering without hashing the name.
  static const std::vector<ir::OpDef>& ops = ir::ops();  // the table is made once and never changes
  const TargetLowerings& lowerings = all_lowerings()[em.target.index];
  const ir::OpDef* def = op.own_def();
  if (def != nullptr && def >= ops.data() && def < ops.data() + ops.size()) {
    Lowering lowering = lowerings.by_row[static_cast<std::size_t>(def - ops.data())];
    if (lowering != nullptr) {
      lowering(em, op);
      return;
    }
  }
  const auto& table = lowerings.by_name;
  auto found = table.find(std::string(op.opcode));  // only for ops made without their table row
  if (found == table.end()) throw KeyError(util::cat("'", op.opcode, "'"));
  found->second(em, op);
}

}  // namespace rocke::lower
