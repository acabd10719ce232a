// rocKE library: attention masks as index bounds -- key j is visible from query row i iff
// j <= limit(i): none s_k - 1, causal_tl min(s_k - 1, i), causal_br min(s_k - 1, i + s_k - s_q).
// Python twin: rocke_library/kernels/attention/common/mask.py
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "rocke/ir/builder.hpp"

namespace rocke::library::kernels::attention::common {

inline constexpr std::array<std::string_view, 3> kMaskKinds = {"none", "causal_tl", "causal_br"};

// The largest key index visible from query row `row` (below 0 when none is).
ir::Value* visible_limit(ir::Builder& b, std::string_view mask, ir::Value* row, ir::Value* seqlen_q,
                         ir::Value* seqlen_k, ir::Hint name = {});

// Key blocks the query block at row q0 visits: ceil(kv_end / block_n), kv_end one past the last key
// visible from the block's last row (clamped to 0 .. s_k); 0 when q0 >= s_q.
ir::Value* key_blocks(ir::Builder& b, std::string_view mask, ir::Value* q0, std::int64_t block_m,
                      std::int64_t block_n, ir::Value* seqlen_q, ir::Value* seqlen_k);

}  // namespace rocke::library::kernels::attention::common
