// Python twin: rocke_library/kernels/attention/attention_fwd/plan.py
#include "rocke_library/kernels/attention/attention_fwd/plan.hpp"

#include <set>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/common/softmax.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

namespace {

std::string str(std::int64_t value) { return std::to_string(value); }

bool any_nonzero(const std::vector<std::int64_t>& values) {
  for (std::int64_t v : values) {
    if (v != 0) return true;
  }
  return false;
}

// The S = Q K^T orientation's plan (P chained into the A operand of O = P V), or SpecError.
AttentionPlan plan_rows(const AttentionFwdSpec& spec, const arch::ArchTarget& target, const arch::MmaOp& op,
                        std::int64_t threads, std::int64_t esize, const helpers::TileSplit& copy) {
  using util::cat;
  std::int64_t stages = spec.double_buffer ? 2 : 1;
  helpers::PaddedTile k_tile{spec.block_n, spec.head_dim, spec.lds_pad, stages};
  helpers::PaddedTile v_tile{spec.head_dim, spec.block_n, spec.lds_pad, stages};
  std::int64_t key_reps = spec.block_n / op.n;
  std::optional<helpers::ChainPlan> chain = helpers::plan_chain(op, key_reps, op, "a");
  for (const helpers::PaddedTile& tile : {k_tile, v_tile}) {
    if (tile.count() > kMaxLdsAllocElems) {
      spec.fail("block_n", cat("an LDS tile holds ", str(tile.count()), " elements, over the allocation limit of ",
                               str(kMaxLdsAllocElems)));
    }
  }
  std::int64_t lds_bytes = k_tile.nbytes(esize) + v_tile.nbytes(esize);
  if (lds_bytes > target.lds_bytes) {
    std::int64_t one_stage = helpers::PaddedTile{spec.block_n, spec.head_dim, spec.lds_pad, 1}.nbytes(esize) +
                             helpers::PaddedTile{spec.head_dim, spec.block_n, spec.lds_pad, 1}.nbytes(esize);
    if (spec.double_buffer && one_stage <= target.lds_bytes) {
      spec.fail("double_buffer", cat("the LDS tiles (K and V^T) need ", str(lds_bytes),
                                     " bytes with two stages of K and V^T, over the ", str(target.lds_bytes),
                                     " bytes of ", target.name, " (one stage: ", str(one_stage), " bytes)"));
    }
    spec.fail("block_n", cat("the LDS tiles (K and V^T) need ", str(lds_bytes), " bytes, over the ",
                             str(target.lds_bytes), " bytes of ", target.name));
  }
  if (spec.wave_rows() % op.m != 0) {
    spec.fail("block_m", cat("must be a multiple of waves * atom m = ", str(spec.waves), " * ", str(op.m), " (", op.id,
                             "): the query rows of S = Q K^T are the atom's m"));
  }
  std::int64_t q_reps = spec.wave_rows() / op.m;
  std::int64_t d_reps = spec.head_dim / op.n;
  std::int64_t held = (d_reps + key_reps) * q_reps * op.c.length +
                      (spec.head_dim / op.k) * q_reps * ((op.a.length * esize + 3) / 4);
  if (held > kMaxHeldVgprs) {
    spec.fail("block_n", cat("the key loop holds ", str(held),
                             " VGPRs per lane (O and S accumulators, Q fragments), over the budget of ",
                             str(kMaxHeldVgprs)));
  }
  std::optional<std::vector<std::int64_t>> group = common::row_group(op);
  std::optional<helpers::FragmentPlan> k_frag = helpers::plan_fragment(op, "b", false, k_tile.stride());
  std::optional<helpers::FragmentPlan> v_frag = helpers::plan_fragment(op, "b", false, v_tile.stride());
  auto c_row = helpers::split_formula(op.c.row_expr, op.wave_size, op.c.length);
  auto c_col = helpers::split_formula(op.c.col_expr, op.wave_size, op.c.length);
  auto q_row = helpers::split_formula(op.a.col_expr, op.wave_size, op.a.length);
  auto q_col = helpers::split_formula(op.a.row_expr, op.wave_size, op.a.length);
  if (!group || !k_frag || !v_frag || !c_row || !c_col || !q_row || !q_col) {
    spec.fail("op_id", "has fragment layouts this kernel cannot use (a C row that is not the lane's plus an offset of "
                       "the slot, or a formula that is not lane/slot separable)");
  }
  std::set<std::int64_t> offsets(c_row->slot_offsets.begin(), c_row->slot_offsets.end());
  std::vector<std::int64_t> row_offsets(offsets.begin(), offsets.end());
  std::vector<std::vector<std::int64_t>> row_slots;
  for (std::int64_t offset : row_offsets) {
    std::vector<std::int64_t> slots;
    for (std::size_t s = 0; s < c_row->slot_offsets.size(); ++s) {
      if (c_row->slot_offsets[s] == offset) slots.push_back(static_cast<std::int64_t>(s));
    }
    row_slots.push_back(std::move(slots));
  }
  return AttentionPlan{.op = &op,
                       .threads = threads,
                       .q_reps = q_reps,
                       .key_reps = key_reps,
                       .d_reps = d_reps,
                       .qk_steps = spec.head_dim / op.k,
                       .pv_steps = spec.block_n / op.k,
                       .k_tile = k_tile,
                       .v_tile = v_tile,
                       .p_tile = std::nullopt,
                       .copy = copy,
                       .k_frag = std::move(*k_frag),
                       .v_frag = std::move(*v_frag),
                       .p_store = std::nullopt,
                       .p_load = std::nullopt,
                       .chain = std::move(chain),
                       .q_row = std::move(*q_row),
                       .q_col = std::move(*q_col),
                       .c_row = std::move(*c_row),
                       .c_col = std::move(*c_col),
                       .group = std::move(*group),
                       .col_offsets = std::move(row_offsets),
                       .col_slots = std::move(row_slots),
                       .lds_bytes = lds_bytes,
                       .rows = true};
}

}  // namespace

std::vector<std::pair<std::int64_t, std::int64_t>> runs(const std::vector<std::int64_t>& offsets, std::int64_t most) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (std::size_t s = 0; s < offsets.size(); ++s) {
    if (!out.empty()) {
      auto& [first, count] = out.back();
      if (count < most && offsets[s] == offsets[static_cast<std::size_t>(first)] + count) {
        count += 1;
        continue;
      }
    }
    out.emplace_back(static_cast<std::int64_t>(s), 1);
  }
  return out;
}

AttentionPlan plan_attention(const AttentionFwdSpec& spec, const arch::ArchTarget& target) {
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
  std::optional<helpers::TileSplit> copy = helpers::split_tile(spec.block_n, spec.head_dim, threads, esize);
  if (!copy) {
    spec.fail("block_n", cat("the K / V tile of ", str(spec.block_n), " x ", str(spec.head_dim),
                             " elements does not split evenly over ", str(threads), " threads"));
  }
  std::int64_t stages = spec.double_buffer ? 2 : 1;
  helpers::PaddedTile k_tile{spec.block_n, spec.head_dim, spec.lds_pad, stages};
  helpers::PaddedTile v_tile{spec.head_dim, spec.block_n, spec.lds_pad, stages};
  std::int64_t key_reps = spec.block_n / op.m;
  std::optional<helpers::ChainPlan> chain = helpers::plan_chain(op, key_reps, op, "b");
  if (!chain && helpers::plan_chain(op, spec.block_n / op.n, op, "a")) {
    return plan_rows(spec, target, op, threads, esize, *copy);
  }
  std::optional<helpers::PaddedTile> p_tile;
  if (!chain) p_tile = helpers::PaddedTile{spec.block_m, spec.block_n, spec.lds_pad, 1};
  std::vector<helpers::PaddedTile> tiles{k_tile, v_tile};
  if (p_tile) tiles.push_back(*p_tile);
  for (const helpers::PaddedTile& tile : tiles) {
    if (tile.count() > kMaxLdsAllocElems) {
      spec.fail("block_n", cat("an LDS tile holds ", str(tile.count()), " elements, over the allocation limit of ",
                               str(kMaxLdsAllocElems)));
    }
  }
  std::int64_t lds_bytes = 0;
  for (const helpers::PaddedTile& tile : tiles) lds_bytes += tile.nbytes(esize);
  if (lds_bytes > target.lds_bytes) {
    std::string path = p_tile ? "K, V^T and P" : "K and V^T";
    std::int64_t one_stage = lds_bytes - k_tile.nbytes(esize) - v_tile.nbytes(esize);
    one_stage += helpers::PaddedTile{spec.block_n, spec.head_dim, spec.lds_pad, 1}.nbytes(esize);
    one_stage += helpers::PaddedTile{spec.head_dim, spec.block_n, spec.lds_pad, 1}.nbytes(esize);
    if (spec.double_buffer && one_stage <= target.lds_bytes) {
      spec.fail("double_buffer", cat("the LDS tiles (", path, ") need ", str(lds_bytes),
                                     " bytes with two stages of K and V^T, over the ", str(target.lds_bytes),
                                     " bytes of ", target.name, " (one stage: ", str(one_stage), " bytes)"));
    }
    spec.fail("block_n", cat("the LDS tiles (", path, ") need ", str(lds_bytes), " bytes, over the ",
                             str(target.lds_bytes), " bytes of ", target.name));
  }
  std::int64_t q_reps = spec.wave_rows() / op.n;
  std::int64_t held = (spec.head_dim / op.m + key_reps) * q_reps * op.c.length +
                      (spec.head_dim / op.k) * q_reps * ((op.b.length * esize + 3) / 4);
  if (held > kMaxHeldVgprs) {
    spec.fail("block_n", cat("the key loop holds ", str(held),
                             " VGPRs per lane (O and S^T accumulators, Q^T fragments), over the budget of ",
                             str(kMaxHeldVgprs)));
  }
  std::optional<std::vector<std::int64_t>> group = common::column_group(op);
  std::optional<helpers::FragmentPlan> k_frag = helpers::plan_fragment(op, "a", true, k_tile.stride());
  std::optional<helpers::FragmentPlan> v_frag = helpers::plan_fragment(op, "a", true, v_tile.stride());
  auto c_row = helpers::split_formula(op.c.row_expr, op.wave_size, op.c.length);
  auto c_col = helpers::split_formula(op.c.col_expr, op.wave_size, op.c.length);
  auto q_row = helpers::split_formula(op.b.row_expr, op.wave_size, op.b.length);
  auto q_col = helpers::split_formula(op.b.col_expr, op.wave_size, op.b.length);
  std::optional<helpers::FragmentPlan> p_store;
  std::optional<helpers::FragmentPlan> p_load;
  if (p_tile) {
    p_store = helpers::plan_fragment(op, "c", false, p_tile->stride());
    p_load = helpers::plan_fragment(op, "b", false, p_tile->stride());
  }
  if (!group || !k_frag || !v_frag || !c_row || !c_col || !q_row || !q_col || any_nonzero(q_col->slot_offsets) ||
      (p_tile && (!p_store || !p_load))) {
    spec.fail("op_id", "has fragment layouts this kernel cannot use (a B column that depends on the slot, a C column "
                       "that is not the lane's plus an offset of the slot, or a formula that is not lane/slot "
                       "separable)");
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
  return AttentionPlan{.op = &op,
                       .threads = threads,
                       .q_reps = q_reps,
                       .key_reps = key_reps,
                       .d_reps = spec.head_dim / op.m,
                       .qk_steps = spec.head_dim / op.k,
                       .pv_steps = spec.block_n / op.k,
                       .k_tile = k_tile,
                       .v_tile = v_tile,
                       .p_tile = p_tile,
                       .copy = *copy,
                       .k_frag = std::move(*k_frag),
                       .v_frag = std::move(*v_frag),
                       .p_store = std::move(p_store),
                       .p_load = std::move(p_load),
                       .chain = std::move(chain),
                       .q_row = std::move(*q_row),
                       .q_col = std::move(*q_col),
                       .c_row = std::move(*c_row),
                       .c_col = std::move(*c_col),
                       .group = std::move(*group),
                       .col_offsets = std::move(col_offsets),
                       .col_slots = std::move(col_slots),
                       .lds_bytes = lds_bytes};
}

}  // namespace rocke::library::kernels::attention::attention_fwd
