// Python twin: rocke/lower/dispatch.py
#include "rocke/lower/dispatch.hpp"

#include "rocke/errors.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/lower/emitter.hpp"
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

// LOWERINGS
const std::unordered_map<std::string, Lowering>& all_lowerings() {
  static const std::unordered_map<std::string, Lowering> table =
      merge_lowerings({&ops_arith::lowerings(), &ops_math::lowerings(), &ops_gpu::lowerings(), &ops_mem::lowerings(),
                       &ops_xlane::lowerings(), &ops_sync::lowerings(), &ops_mma::lowerings(), &ops_vec::lowerings(),
                       &ops_scf::lowerings()});
  return table;
}

// LOWERINGS by op-table row (the index of its OpDef in ir::ops()); nullptr for an op without one.
const std::vector<Lowering>& lowerings_by_row() {
  static const std::vector<Lowering> rows = [] {
    const std::vector<ir::OpDef>& ops = ir::ops();
    std::vector<Lowering> out(ops.size(), nullptr);
    for (std::size_t row = 0; row < ops.size(); ++row) {
      auto found = all_lowerings().find(ops[row].name);
      if (found != all_lowerings().end()) out[row] = found->second;
    }
    return out;
  }();
  return rows;
}

}  // namespace

void lower_op(FunctionEmitter& em, const ir::Op& op) {
  // The op's table row, when it still names its opcode, finds the lowering without hashing the name.
  static const std::vector<ir::OpDef>& ops = ir::ops();  // the table is made once and never changes
  const ir::OpDef* def = op.own_def();
  if (def != nullptr && def >= ops.data() && def < ops.data() + ops.size()) {
    Lowering lowering = lowerings_by_row()[static_cast<std::size_t>(def - ops.data())];
    if (lowering != nullptr) {
      lowering(em, op);
      return;
    }
  }
  const auto& table = all_lowerings();
  auto found = table.find(std::string(op.opcode));  // only for ops made without their table row
  if (found == table.end()) throw KeyError(util::cat("'", op.opcode, "'"));
  found->second(em, op);
}

}  // namespace rocke::lower
