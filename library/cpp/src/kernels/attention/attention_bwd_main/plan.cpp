// Python twin: rocke_library/kernels/attention/attention_bwd_main/plan.py
#include "rocke_library/kernels/attention/attention_bwd_main/plan.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

namespace {

std::string str(std::int64_t value) { return std::to_string(value); }

}  // namespace

MainPlan plan_main(const AttentionBwdMainSpec& spec, const arch::ArchTarget& target) {
  using util::cat;
  const arch::MmaOp& op = spec.atom();
  if (!target.mma_signature(spec.op_id)) {
    spec.fail("op_id", cat("is not available on ", target.name, " (it runs on ", util::join(op.archs, ", "), ")"));
  }
  std::int64_t threads = spec.threads();
  if (threads > target.max_workgroup_size) {
    spec.fail("waves", cat(str(spec.waves), " waves of ", str(op.wave_size), " lanes exceed the ",
                           str(target.max_workgroup_size), "-thread workgroup limit of ", target.name));
  }
  const std::vector<std::pair<std::string, std::string>> modes{{"dq_mode", spec.dq_mode},
                                                               {"dkv_mode", spec.dkv_mode}};
  for (const auto& [field, mode] : modes) {
    if (mode == "atomic" && !target.has_feature(kAtomicFeature)) {
      spec.fail(field, cat("needs ", std::string(kAtomicFeature), ", which ", target.name, " does not have"));
    }
  }
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  std::optional<helpers::TileSplit> kv_copy = helpers::split_tile(spec.block_n, spec.head_dim, threads, esize);
  if (!kv_copy) {
    spec.fail("block_n", cat("the K / V tile of ", str(spec.block_n), " x ", str(spec.head_dim),
                             " elements does not split evenly over ", str(threads), " threads"));
  }
  std::optional<helpers::TileSplit> qd_copy = helpers::split_tile(spec.block_m, spec.head_dim, threads, esize);
  if (!qd_copy) {
    spec.fail("block_m", cat("the Q / dO tile of ", str(spec.block_m), " x ", str(spec.head_dim),
                             " elements does not split evenly over ", str(threads), " threads"));
  }
  helpers::PaddedTile k_tile{spec.block_n, spec.head_dim, spec.lds_pad, 1};
  helpers::PaddedTile q_tile{spec.block_m, spec.head_dim, spec.lds_pad, 1};
  std::int64_t q_reps = spec.block_m / op.m;
  std::optional<helpers::ChainPlan> chain = helpers::plan_chain(op, q_reps, op, "b");
  bool atomic_dq = spec.dq_mode == "atomic";
  helpers::PaddedTile s_tile{spec.block_n, spec.block_m, spec.lds_pad, 1};
  std::optional<helpers::PaddedTile> p_tile;
  std::optional<helpers::PaddedTile> ds_tile;
  if (!chain) p_tile = s_tile;
  if (!chain || atomic_dq) ds_tile = s_tile;
  std::vector<std::pair<std::string, helpers::PaddedTile>> used{{"K", k_tile}, {"V", k_tile}, {"Q", q_tile},
                                                                {"dO", q_tile}};
  if (p_tile) used.emplace_back("P", *p_tile);
  if (ds_tile) used.emplace_back("dS", *ds_tile);
  for (const auto& [label, tile] : used) {
    if (tile.count() > kMaxLdsAllocElems) {
      spec.fail("block_n", cat("an LDS tile holds ", str(tile.count()), " elements, over the allocation limit of ",
                               str(kMaxLdsAllocElems)));
    }
  }
  std::int64_t lds_bytes = 0;
  for (const auto& [label, tile] : used) lds_bytes += tile.nbytes(esize);
  if (lds_bytes > target.lds_bytes) {
    std::vector<std::string> labels;
    for (const auto& [label, tile] : used) labels.push_back(label);
    spec.fail("block_n", cat("the LDS tiles (", util::join(labels, ", "), ") need ", str(lds_bytes),
                             " bytes, over the ", str(target.lds_bytes), " bytes of ", target.name));
  }
  std::optional<helpers::FragmentPlan> rows_a = helpers::plan_fragment(op, "a", true, q_tile.stride());
  std::optional<helpers::FragmentPlan> lines_b = helpers::plan_fragment(op, "b", false, k_tile.stride());
  std::optional<helpers::FragmentPlan> cols_a = helpers::plan_fragment(op, "a", false, q_tile.stride());
  std::optional<helpers::FragmentPlan> kt_a;
  if (atomic_dq) kt_a = helpers::plan_fragment(op, "a", false, k_tile.stride());
  std::optional<helpers::FragmentPlan> p_store;
  std::optional<helpers::FragmentPlan> p_load;
  std::optional<helpers::FragmentPlan> dst_load;
  if (ds_tile) {
    p_store = helpers::plan_fragment(op, "c", false, ds_tile->stride());
    p_load = helpers::plan_fragment(op, "b", false, ds_tile->stride());
    if (atomic_dq) dst_load = helpers::plan_fragment(op, "b", true, ds_tile->stride());
  }
  auto c_row = helpers::split_formula(op.c.row_expr, op.wave_size, op.c.length);
  auto c_col = helpers::split_formula(op.c.col_expr, op.wave_size, op.c.length);
  if (!rows_a || !lines_b || !cols_a || !c_row || !c_col || (atomic_dq && (!kt_a || !dst_load)) ||
      (ds_tile && (!p_store || !p_load))) {
    spec.fail("op_id", "has fragment layouts this kernel cannot use (a formula that is not lane/slot separable)");
  }
  std::set<std::int64_t> offsets(c_col->slot_offsets.begin(), c_col->slot_offsets.end());
  std::vector<std::int64_t> col_offsets(offsets.begin(), offsets.end());
  std::vector<std::vector<std::int64_t>> col_slots;
  for (std::int64_t offset : col_offsets) {
    std::vector<std::int64_t> slots;
    for (std::size_t s = 0; s < c_col->slot_offsets.size(); ++s) {
      if (c_col->slot_offsets[s] == offset) slots.push_back(static_cast<std::int64_t>(s));
    }
    col_slots.push_back(std::move(slots));
  }
  return MainPlan{.op = &op,
                  .threads = threads,
                  .q_reps = q_reps,
                  .key_reps = spec.wave_keys() / op.n,
                  .d_reps = spec.d_chunk / op.m,
                  .qk_steps = spec.head_dim / op.k,
                  .q_steps = spec.block_m / op.k,
                  .key_steps = spec.wave_keys() / op.k,
                  .dq_cols = spec.block_m / op.n,
                  .k_tile = k_tile,
                  .q_tile = q_tile,
                  .p_tile = p_tile,
                  .ds_tile = ds_tile,
                  .kv_copy = *kv_copy,
                  .qd_copy = *qd_copy,
                  .rows_a = std::move(*rows_a),
                  .lines_b = std::move(*lines_b),
                  .cols_a = std::move(*cols_a),
                  .kt_a = std::move(kt_a),
                  .p_store = std::move(p_store),
                  .p_load = std::move(p_load),
                  .dst_load = std::move(dst_load),
                  .chain = std::move(chain),
                  .c_row = std::move(*c_row),
                  .c_col = std::move(*c_col),
                  .col_offsets = std::move(col_offsets),
                  .col_slots = std::move(col_slots),
                  .lds_bytes = lds_bytes};
}

}  // namespace rocke::library::kernels::attention::attention_bwd_main
