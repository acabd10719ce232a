// rocKE library: host-time plan of an attention_bwd_dq kernel on one arch -- every derived number,
// and the arch refusals (atom not on the arch, workgroup too large, tiles that do not split, LDS
// over capacity).
// Python twin: rocke_library/kernels/attention/attention_bwd_dq/plan.py
//
// Wave w keeps the Q^T / dO^T B fragments of its rows in registers, or with qdo_lds reads them at
// every key block from LDS tiles [block_m][head_dim + pad] filled once before the key loop; per key
// block K and V sit in LDS ([block_n][head_dim + pad]): S^T = K Q^T, dP^T = V dO^T, dQ^T += K^T dS^T
// with dS^T as the B operand through registers (plan_chain) or an LDS tile [block_m][block_n + pad].
// A C column (one query) may depend on the slot as an offset added to the lane's column (mma.sync):
// the slots of one offset form a query class, with one query row per query repeat and class.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/helpers/chain.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/tiles.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

inline constexpr std::int64_t kMaxLdsAllocElems = 65536;  // mem.lds_alloc count limit

struct DqPlan {
  const arch::MmaOp* op = nullptr;
  std::int64_t threads = 0;
  std::int64_t q_reps = 0;     // atoms along the wave's query rows (C columns)
  std::int64_t key_reps = 0;   // S^T atoms along the key block (C rows)
  std::int64_t d_reps = 0;     // dQ^T atoms along head_dim (C rows)
  std::int64_t qk_steps = 0;   // k steps of S^T and dP^T (over head_dim)
  std::int64_t key_steps = 0;  // k steps of dQ^T (over the key block)
  helpers::PaddedTile k_tile;  // K and V
  std::optional<helpers::PaddedTile> ds_tile;  // nullopt: dS^T through registers
  std::optional<helpers::PaddedTile> q_tile;   // qdo_lds: Q and dO, [block_m][head_dim + pad]
  helpers::TileSplit kv_copy;
  std::optional<helpers::TileSplit> qdo_copy;  // qdo_lds: the Q / dO tile copy
  helpers::FragmentPlan k_frag;   // K / V as the A operand of S^T / dP^T
  helpers::FragmentPlan kt_frag;  // K^T as the A operand of dQ^T
  std::optional<helpers::FragmentPlan> ds_store;  // LDS path: the dS^T C fragment into the dS tile
  std::optional<helpers::FragmentPlan> ds_load;   // LDS path: the dS^T B fragment
  std::optional<helpers::FragmentPlan> qt_frag;   // qdo_lds: the Q^T / dO^T B fragment from its tile
  std::optional<helpers::ChainPlan> chain;        // register path
  helpers::SplitFormula b_row;  // B (Q^T / dO^T) fragment: head_dim index
  helpers::SplitFormula b_col;  // B fragment: query index
  helpers::SplitFormula c_row;  // C fragment: key (S^T) or head_dim (dQ^T) index
  helpers::SplitFormula c_col;  // C fragment: query index
  std::vector<std::int64_t> col_offsets;  // the C column offsets of the slots (query classes), ascending
  std::vector<std::vector<std::int64_t>> col_slots;  // the C slots of each class
  std::int64_t lds_bytes = 0;
};

// The plan, or SpecError for a spec the arch refuses.
DqPlan plan_dq(const AttentionBwdDqSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
