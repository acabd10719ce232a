// rocKE library: online softmax over the C fragments of S^T = K Q^T, in the exp2 domain with f32
// statistics (one query row = one column of the C tile).
// Python twin: rocke_library/kernels/attention/common/softmax.py
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/ir/builder.hpp"

namespace rocke::library::kernels::attention::common {

inline constexpr double kLog2e = 1.4426950408889634;  // log2(e)
inline constexpr double kLn2 = 0.6931471805599453;    // ln(2)

// The lane-xor masks (ascending powers of two) joining the lanes whose C slots share a column, or
// nullopt when a slot's column is not the lane's column (at slot 0) plus an offset of the slot, when
// two (lane column, slot offset) pairs name one column, or when the lanes of a column are not such
// a group.
std::optional<std::vector<std::int64_t>> column_group(const arch::MmaOp& op);
// The same for the lanes whose C slots share a row (S = Q K^T: one query row is one row of C).
std::optional<std::vector<std::int64_t>> row_group(const arch::MmaOp& op);

// Reduce x ("add" or "max") over the lanes joined by the xor masks; every lane gets the result.
ir::Value* group_reduce(ir::Builder& b, ir::Value* x, std::string_view kind, const std::vector<std::int64_t>& masks,
                        ir::Hint name = {});

struct Update {
  ir::Values probs;
  ir::Value* m_new = nullptr;
  ir::Value* l_new = nullptr;
  ir::Value* alpha = nullptr;
};

// One key block of one query row, from the lane's scaled, masked scores (f32 scalars), the
// running max m_old and the lane's partial sum l_old.
Update online_update(ir::Builder& b, const ir::Values& scores, ir::Value* m_old, ir::Value* l_old,
                     const std::vector<std::int64_t>& masks);

// (1 / l or 0, LSE in natural log or -inf) of a row from its max and the lane's partial sum.
std::pair<ir::Value*, ir::Value*> finalize(ir::Builder& b, ir::Value* m, ir::Value* l_part,
                                           const std::vector<std::int64_t>& masks);

}  // namespace rocke::library::kernels::attention::common
