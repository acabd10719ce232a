// rocKE library: host-time plan of an attention_bwd_main kernel on one arch -- every derived number,
// and the arch refusals (atom not on the arch, workgroup too large, atomics the arch lacks, tiles
// that do not split, LDS over capacity).
// Python twin: rocke_library/kernels/attention/attention_bwd_main/plan.py
//
// K, V [block_n][head_dim + pad] stay in LDS; Q, dO [block_m][head_dim + pad] per query block.
// S = Q K^T and dP = dO V^T; dV^T += dO^T P and dK^T += Q^T dS with P / dS as the B operands
// (registers where plan_chain finds the path, else LDS tiles [block_n][block_m + pad]); with
// dq_mode=atomic, dQ^T = K^T dS^T reading dS^T from the dS tile. A C column may depend on the slot
// as an offset added to the lane's column (mma.sync): the slots of one offset form a column class,
// with one key (and one dQ row) per atom and class.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/helpers/chain.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/tiles.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

inline constexpr std::int64_t kMaxLdsAllocElems = 65536;  // mem.lds_alloc count limit
inline constexpr std::string_view kAtomicFeature = "global_atomic_fadd_f32";

struct MainPlan {
  const arch::MmaOp* op = nullptr;
  std::int64_t threads = 0;
  std::int64_t q_reps = 0;     // S / dP atoms along the query block (C rows)
  std::int64_t key_reps = 0;   // atoms along the wave's keys (C columns)
  std::int64_t d_reps = 0;     // dV^T / dK^T / dQ^T atoms along the workgroup's d_chunk columns (C rows)
  std::int64_t qk_steps = 0;   // k steps of S and dP (over head_dim)
  std::int64_t q_steps = 0;    // k steps of dV^T and dK^T (over the query block)
  std::int64_t key_steps = 0;  // k steps of dQ^T (over the wave's keys)
  std::int64_t dq_cols = 0;    // dQ^T atoms along the query block (C columns)
  helpers::PaddedTile k_tile;  // K and V
  helpers::PaddedTile q_tile;  // Q and dO
  std::optional<helpers::PaddedTile> p_tile;   // P, LDS path only
  std::optional<helpers::PaddedTile> ds_tile;  // dS, LDS path or dq_mode=atomic
  helpers::TileSplit kv_copy;
  helpers::TileSplit qd_copy;
  helpers::FragmentPlan rows_a;   // Q / dO as the A operand of S / dP
  helpers::FragmentPlan lines_b;  // K^T / V^T as the B operand of S / dP
  helpers::FragmentPlan cols_a;   // dO^T / Q^T as the A operand of dV^T / dK^T
  std::optional<helpers::FragmentPlan> kt_a;      // K^T as the A operand of dQ^T
  std::optional<helpers::FragmentPlan> p_store;   // a C fragment into a P / dS tile
  std::optional<helpers::FragmentPlan> p_load;    // P / dS as the B operand, from its tile
  std::optional<helpers::FragmentPlan> dst_load;  // dS^T as the B operand of dQ^T
  std::optional<helpers::ChainPlan> chain;        // register path of P / dS into the B operand
  helpers::SplitFormula c_row;
  helpers::SplitFormula c_col;
  std::vector<std::int64_t> col_offsets;  // the C column offsets of the slots (column classes), ascending
  std::vector<std::vector<std::int64_t>> col_slots;  // the C slots of each class
  std::int64_t lds_bytes = 0;
};

// The plan, or SpecError for a spec the arch refuses.
MainPlan plan_main(const AttentionBwdMainSpec& spec, const arch::ArchTarget& target);

}  // namespace rocke::library::kernels::attention::attention_bwd_main
