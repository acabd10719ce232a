// Python twin: rocke/lower/dispatch.py
#include "rocke/lower/dispatch.hpp"

#include <unordered_map>

#include "rocke/errors.hpp"
#include "rocke/lower/emitter.hpp"
#include "rocke/lower/ops_arith.hpp"
#include "rocke/lower/ops_gpu.hpp"
#include "rocke/lower/ops_mem.hpp"
#include "rocke/lower/ops_scf.hpp"
#include "rocke/lower/ops_vec.hpp"
#include "rocke/lower/ops_xlane.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower {

namespace {

// LOWERINGS: every ops_* table merged (a later table wins, as in a dict display).
const std::unordered_map<std::string, Lowering>& all_lowerings() {
  static const std::unordered_map<std::string, Lowering> table = [] {
    std::unordered_map<std::string, Lowering> out;
    for (const Lowerings* part : {&ops_arith::lowerings(), &ops_gpu::lowerings(), &ops_mem::lowerings(),
                                  &ops_xlane::lowerings(), &ops_vec::lowerings(), &ops_scf::lowerings()}) {
      for (const auto& [opcode, lowering] : *part) out[opcode] = lowering;
    }
    return out;
  }();
  return table;
}

}  // namespace

void lower_op(FunctionEmitter& em, const ir::Op& op) {
  const auto& table = all_lowerings();
  auto found = table.find(op.opcode);
  if (found == table.end()) throw KeyError(util::cat("'", op.opcode, "'"));
  found->second(em, op);
}

}  // namespace rocke::lower
