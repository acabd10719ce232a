// rocKE library: backward machinery shared by the attention backward kernels -- P / dS recompute
// from S, dP and the forward's statistics in log2 units, the query-block loop bound of a key block,
// and the LSE2 / D addressing.
// Python twin: rocke_library/kernels/attention/common/backward.py
//
// P = exp2(S * scale * log2(e) - LSE2_i) where key j is visible from row i (else 0);
// dS = P * (dP - D_i). LSE2 / D are laid out like the forward's LSE: batched [B, H_q, S_q],
// varlen [H_q, total_q]. TileCopy stages two same-shaped row blocks into row-major LDS tiles.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/tiles.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke_library/kernels/attention/common/work.hpp"

namespace rocke::library::kernels::attention::common {

inline constexpr std::int64_t kMaxAccessElems = 8;  // 16 bytes of f16 / bf16: the widest buffer access

// The first query row that sees key `key` (0 without a mask), clamped at 0.
ir::Value* first_visible_row(ir::Builder& b, std::string_view mask, ir::Value* key, ir::Value* seqlen_q,
                             ir::Value* seqlen_k);

// (first, end) query blocks of block_m rows the key block at k0 visits; first == end when k0 >= s_k.
std::pair<ir::Value*, ir::Value*> query_blocks(ir::Builder& b, std::string_view mask, ir::Value* k0,
                                               std::int64_t block_m, ir::Value* seqlen_q, ir::Value* seqlen_k);

// The largest key index visible from query row `row`, -1 for a row past the sequence.
ir::Value* row_limit(ir::Builder& b, std::string_view mask, ir::Value* row, ir::Value* seqlen_q, ir::Value* seqlen_k);

// P = exp2(s * scale2 - lse2) where seen, else 0.
ir::Value* recompute_p(ir::Builder& b, ir::Value* s, ir::Value* scale2, ir::Value* lse2, ir::Value* seen);

// dS = P * (dP - D).
ir::Value* dscore(ir::Builder& b, ir::Value* p, ir::Value* dp, ir::Value* delta);

// (index of the sequence's row 0, LSE2 resource, D resource) over the whole f32 arrays.
std::tuple<ir::Value*, ir::Value*, ir::Value*> row_stats(ir::Builder& b, std::string_view seq_mode,
                                                         const Params& params, const Work& work);

// frags[step][rep]: the B operand fragments (k = head_dim, n = rows) of rows row0 + rep * n .. of a
// [S, head_dim] sequence view, from global memory (rows past seqlen read 0), at most `most` elements
// per access.
std::vector<ir::Values> load_rows_b(ir::Builder& b, const arch::MmaOp& op, const helpers::SplitFormula& d_part,
                                    const helpers::SplitFormula& row_part, std::int64_t reps, std::int64_t steps,
                                    ir::Value* rsrc, ir::Value* stride_s, ir::Value* lane, ir::Value* row0,
                                    ir::Value* seqlen, ir::Type elem, std::int64_t most);

// (first slot, count) of the runs of consecutive slots whose offsets step by +1, at most `most` long.
std::vector<std::pair<std::int64_t, std::int64_t>> slot_runs(const std::vector<std::int64_t>& offsets,
                                                             std::int64_t most);

// One thread's share of copying two same-shaped row blocks (K and V, or Q and dO) into their LDS
// tiles ([lines][head_dim + pad], row-major), set up once before the loops.
class TileCopy {
 public:
  TileCopy(ir::Builder& b, const helpers::TileSplit& split, std::int64_t stride, ir::Value* tid,
           const std::array<ir::Value*, 2>& strides);

  // Copy rows r0 .. r0 + lines - 1 of both tensors into their tiles (rows past seqlen read 0).
  void run(ir::Builder& b, const std::array<ir::Value*, 2>& rsrcs, const std::array<ir::Value*, 2>& strides,
           ir::Value* r0, ir::Value* seqlen, const std::array<ir::Value*, 2>& lds, ir::Type elem) const;

 private:
  helpers::TileSplit split_;
  std::int64_t stride_;
  ir::Values lines_;
  ir::Values firsts_;
  std::vector<std::array<ir::Value*, 2>> bases_;
};

}  // namespace rocke::library::kernels::attention::common
