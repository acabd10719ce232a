// Python twin: rocke_library/kernels/attention/attention_bwd_dq/plan.py
#include "rocke_library/kernels/attention/attention_bwd_dq/plan.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

namespace {

std::string str(std::int64_t value) { return std::to_string(value); }

bool any_nonzero(const std::vector<std::int64_t>& values) {
  for (std::int64_t v : values) {
    if (v != 0) return true;
  }
  return false;
}

}  // namespace

DqPlan plan_dq(const AttentionBwdDqSpec& spec, const arch::ArchTarget& target) {
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
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  std::optional<helpers::TileSplit> kv_copy = helpers::split_tile(spec.block_n, spec.head_dim, threads, esize);
  if (!kv_copy) {
    spec.fail("block_n", cat("the K / V tile of ", str(spec.block_n), " x ", str(spec.head_dim),
                             " elements does not split evenly over ", str(threads), " threads"));
  }
  std::optional<helpers::PaddedTile> q_tile;
  std::optional<helpers::TileSplit> qdo_copy;
  if (spec.qdo_lds) {
    qdo_copy = helpers::split_tile(spec.block_m, spec.head_dim, threads, esize);
    if (!qdo_copy) {
      spec.fail("block_m", cat("the Q / dO tile of ", str(spec.block_m), " x ", str(spec.head_dim),
                               " elements does not split evenly over ", str(threads), " threads"));
    }
    q_tile = helpers::PaddedTile{spec.block_m, spec.head_dim, spec.lds_pad, 1};
  }
  helpers::PaddedTile k_tile{spec.block_n, spec.head_dim, spec.lds_pad, 1};
  std::int64_t key_reps = spec.block_n / op.m;
  std::optional<helpers::ChainPlan> chain = helpers::plan_chain(op, key_reps, op, "b");
  std::optional<helpers::PaddedTile> ds_tile;
  if (!chain) ds_tile = helpers::PaddedTile{spec.block_m, spec.block_n, spec.lds_pad, 1};
  std::vector<std::pair<std::string, helpers::PaddedTile>> used{{"K", k_tile}, {"V", k_tile}};
  if (q_tile) {
    used.emplace_back("Q", *q_tile);
    used.emplace_back("dO", *q_tile);
  }
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
  std::optional<helpers::FragmentPlan> k_frag = helpers::plan_fragment(op, "a", true, k_tile.stride());
  std::optional<helpers::FragmentPlan> kt_frag = helpers::plan_fragment(op, "a", false, k_tile.stride());
  std::optional<helpers::FragmentPlan> ds_store;
  std::optional<helpers::FragmentPlan> ds_load;
  if (ds_tile) {
    ds_store = helpers::plan_fragment(op, "c", false, ds_tile->stride());
    ds_load = helpers::plan_fragment(op, "b", false, ds_tile->stride());
  }
  std::optional<helpers::FragmentPlan> qt_frag;
  if (q_tile) qt_frag = helpers::plan_fragment(op, "b", false, q_tile->stride());
  auto b_row = helpers::split_formula(op.b.row_expr, op.wave_size, op.b.length);
  auto b_col = helpers::split_formula(op.b.col_expr, op.wave_size, op.b.length);
  auto c_row = helpers::split_formula(op.c.row_expr, op.wave_size, op.c.length);
  auto c_col = helpers::split_formula(op.c.col_expr, op.wave_size, op.c.length);
  if (!k_frag || !kt_frag || !b_row || !b_col || !c_row || !c_col || any_nonzero(b_col->slot_offsets) ||
      (ds_tile && (!ds_store || !ds_load)) || (q_tile && !qt_frag)) {
    spec.fail("op_id", "has fragment layouts this kernel cannot use (a B column that depends on the slot, or a "
                       "formula that is not lane/slot separable)");
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
  return DqPlan{.op = &op,
                .threads = threads,
                .q_reps = spec.wave_rows() / op.n,
                .key_reps = key_reps,
                .d_reps = spec.head_dim / op.m,
                .qk_steps = spec.head_dim / op.k,
                .key_steps = spec.block_n / op.k,
                .k_tile = k_tile,
                .ds_tile = ds_tile,
                .q_tile = q_tile,
                .kv_copy = *kv_copy,
                .qdo_copy = qdo_copy,
                .k_frag = std::move(*k_frag),
                .kt_frag = std::move(*kt_frag),
                .ds_store = std::move(ds_store),
                .ds_load = std::move(ds_load),
                .qt_frag = std::move(qt_frag),
                .chain = std::move(chain),
                .b_row = std::move(*b_row),
                .b_col = std::move(*b_col),
                .c_row = std::move(*c_row),
                .c_col = std::move(*c_col),
                .col_offsets = std::move(col_offsets),
                .col_slots = std::move(col_slots),
                .lds_bytes = lds_bytes};
}

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
