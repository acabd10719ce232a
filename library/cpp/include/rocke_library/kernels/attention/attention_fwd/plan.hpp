// rocKE library: host-time plan of an attention_fwd kernel on one arch -- every derived number, and
// the arch refusals (atom not on the arch, workgroup too large, tiles that do not split, LDS over
// capacity).
// Python twin: rocke_library/kernels/attention/attention_fwd/plan.py
//
// S^T = K Q^T (A = K tile [block_n][head_dim + pad] in LDS, B = Q^T fragments from global memory)
// and O^T = V^T P^T (A = V^T tile [head_dim][block_n + pad]); with double_buffer the K and V^T tiles
// have two stages. P stays in registers where
// plan_chain finds a register path, else it goes through an LDS tile [block_m][block_n + pad]. A C
// column (one query) may depend on the slot as an offset added to the lane's column (mma.sync): the
// slots of one offset form a query class, with one softmax row per query repeat and class. Where
// S^T has no register path into P^T but S = Q K^T has one into the A operand of O = P V (mma.sync),
// the plan takes that orientation (rows): P stays in registers, a query is a C row.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/helpers/chain.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/tiles.hpp"
#include "rocke_library/kernels/attention/attention_fwd/spec.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

inline constexpr std::int64_t kMaxLdsAllocElems = 65536;  // mem.lds_alloc count limit
inline constexpr std::int64_t kMaxAccessElems = 8;  // 16 bytes of f16 / bf16: the widest buffer access
// VGPRs per lane the key loop may hold across iterations (O and S^T accumulators, Q^T fragments),
// calibrated with LLVM 20 and 22 on the tightest target (gfx1100 wave32).
inline constexpr std::int64_t kMaxHeldVgprs = 140;

struct AttentionPlan {
  const arch::MmaOp* op = nullptr;
  std::int64_t threads = 0;
  std::int64_t q_reps = 0;    // atoms along the wave's query rows
  std::int64_t key_reps = 0;  // S^T atoms along the key block
  std::int64_t d_reps = 0;    // O^T atoms along head_dim
  std::int64_t qk_steps = 0;  // k steps of S^T (over head_dim)
  std::int64_t pv_steps = 0;  // k steps of O^T (over the key block)
  helpers::PaddedTile k_tile;
  helpers::PaddedTile v_tile;  // V^T
  std::optional<helpers::PaddedTile> p_tile;  // nullopt: P through registers
  helpers::TileSplit copy;  // the K / V copy: block_n lines of head_dim
  helpers::FragmentPlan k_frag;
  helpers::FragmentPlan v_frag;
  std::optional<helpers::FragmentPlan> p_store;  // LDS path: the S^T C fragment into the P tile
  std::optional<helpers::FragmentPlan> p_load;   // LDS path: the P^T B fragment
  std::optional<helpers::ChainPlan> chain;       // register path
  helpers::SplitFormula q_row;  // B (Q^T) fragment: head_dim index
  helpers::SplitFormula q_col;  // B (Q^T) fragment: query index
  helpers::SplitFormula c_row;  // C fragment: key (S^T) or head_dim (O^T) index
  helpers::SplitFormula c_col;  // C fragment: query index
  std::vector<std::int64_t> group;  // lane-xor masks of the lanes sharing a C column
  std::vector<std::int64_t> col_offsets;  // the C column offsets of the slots (query classes), ascending
  std::vector<std::vector<std::int64_t>> col_slots;  // the C slots of each class
  std::int64_t lds_bytes = 0;
  // S = Q K^T orientation (see plan.py): k_frag / v_frag are B fragments, q_row / q_col the A (Q)
  // fragment's head_dim / query formulas, the C columns keys (S) or head_dim (O), the C rows
  // queries, col_offsets / col_slots the C row offsets' classes and group a row's lanes.
  bool rows = false;
};

// (first slot, count) of the runs of consecutive slots whose offsets step by +1, at most `most` long.
std::vector<std::pair<std::int64_t, std::int64_t>> runs(const std::vector<std::int64_t>& offsets, std::int64_t most);

// The plan, or SpecError for a spec the arch refuses.
AttentionPlan plan_attention(const AttentionFwdSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::attention::attention_fwd
