// Python twin: rocke_library/kernels/attention/common/backward.py
#include "rocke_library/kernels/attention/common/backward.hpp"

#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke_library/kernels/attention/common/mask.hpp"

namespace rocke::library::kernels::attention::common {

using helpers::add_i32;
using helpers::const_i32;
using helpers::mul_i32;
using ir::Value;

Value* first_visible_row(ir::Builder& b, std::string_view mask, Value* key, Value* seqlen_q, Value* seqlen_k) {
  if (mask == "none") return const_i32(b, 0);
  Value* row = key;
  if (mask != "causal_tl") {
    Value* shift = b.sub(seqlen_k, seqlen_q);
    row = b.sub(key, shift);
  }
  Value* zero = const_i32(b, 0);
  return b.maxs(row, zero, "first_row");
}

std::pair<Value*, Value*> query_blocks(ir::Builder& b, std::string_view mask, Value* k0, std::int64_t block_m,
                                       Value* seqlen_q, Value* seqlen_k) {
  Value* rounded = add_i32(b, seqlen_q, block_m - 1);
  Value* end = helpers::divu_i32(b, rounded, block_m, "q_blocks");
  Value* row = first_visible_row(b, mask, k0, seqlen_q, seqlen_k);
  Value* first = helpers::divu_i32(b, row, block_m);
  Value* live = b.cmpi("slt", k0, seqlen_k);
  Value* clamped = b.minu(first, end);
  first = b.select(live, clamped, end, "q_first");
  return {first, end};
}

Value* row_limit(ir::Builder& b, std::string_view mask, Value* row, Value* seqlen_q, Value* seqlen_k) {
  Value* inside = b.cmpi("slt", row, seqlen_q);
  Value* limit = visible_limit(b, mask, row, seqlen_q, seqlen_k);
  Value* none = const_i32(b, -1);
  return b.select(inside, limit, none, "row_limit");
}

Value* recompute_p(ir::Builder& b, Value* s, Value* scale2, Value* lse2, Value* seen) {
  Value* scaled = b.mul(s, scale2);
  Value* shifted = b.sub(scaled, lse2);
  Value* p = b.exp2(shifted);
  Value* zero = helpers::f32_const(b, 0.0, 1);
  return b.select(seen, p, zero, "p");
}

Value* dscore(ir::Builder& b, Value* p, Value* dp, Value* delta) {
  Value* centered = b.sub(dp, delta);
  return b.mul(p, centered, "ds");
}

std::tuple<Value*, Value*, Value*> row_stats(ir::Builder& b, std::string_view seq_mode, const Params& params,
                                             const Work& work) {
  Value* rows = nullptr;
  Value* count = nullptr;
  if (seq_mode == "batched") {
    Value* heads = b.mul(work.batch, params.at("heads_q"));
    Value* seq = b.add(heads, work.head);
    rows = b.mul(seq, work.seqlen_q, "stat_row0");
    Value* all_heads = b.mul(params.at("batch"), params.at("heads_q"));
    count = b.mul(all_heads, work.seqlen_q);
  } else {
    Value* head_rows = b.mul(work.head, params.at("total_q"));
    rows = b.add(head_rows, work.q_start, "stat_row0");
    count = b.mul(params.at("heads_q"), params.at("total_q"));
  }
  Value* lse2 = helpers::buffer_rsrc(b, params.at("lse2"), count, 4, "lse2_rsrc");
  Value* delta = helpers::buffer_rsrc(b, params.at("delta"), count, 4, "delta_rsrc");
  return {rows, lse2, delta};
}

std::vector<ir::Values> load_rows_b(ir::Builder& b, const arch::MmaOp& op, const helpers::SplitFormula& d_part,
                                    const helpers::SplitFormula& row_part, std::int64_t reps, std::int64_t steps,
                                    Value* rsrc, Value* stride_s, Value* lane, Value* row0, Value* seqlen,
                                    ir::Type elem, std::int64_t most) {
  std::int64_t esize = elem.bits() / 8;
  Value* d_lane = helpers::emit_lane_part(b, d_part.lane_part, lane);
  Value* r_lane = helpers::emit_lane_part(b, row_part.lane_part, lane);
  auto pieces = slot_runs(d_part.slot_offsets, most);
  ir::Values oks;
  ir::Values lines;
  for (std::int64_t rep = 0; rep < reps; ++rep) {
    Value* first_row = add_i32(b, row0, rep * op.n);
    Value* row = b.add(first_row, r_lane, "b_row");
    oks.push_back(b.cmpi("slt", row, seqlen));
    Value* scaled = b.mul(row, stride_s);
    lines.push_back(b.add(scaled, d_lane));
  }
  std::vector<ir::Values> frags;
  for (std::int64_t step = 0; step < steps; ++step) {
    ir::Values row_frags;
    for (std::int64_t rep = 0; rep < reps; ++rep) {
      auto r = static_cast<std::size_t>(rep);
      Value* frag = b.splat(b.const_(0.0, elem), op.b.length);
      for (auto [first, count] : pieces) {
        Value* index = add_i32(b, lines[r], step * op.k + d_part.slot_offsets[static_cast<std::size_t>(first)]);
        Value* offset = helpers::masked_offset(b, oks[r], index, esize);
        Value* part = b.buffer_load(rsrc, offset, helpers::vector_type(elem, count));
        for (std::int64_t j = 0; j < count; ++j) {
          Value* element = count == 1 ? part : b.extract(part, j);
          frag = b.insert(frag, element, first + j);
        }
      }
      row_frags.push_back(frag);
    }
    frags.push_back(std::move(row_frags));
  }
  return frags;
}

std::vector<std::pair<std::int64_t, std::int64_t>> slot_runs(const std::vector<std::int64_t>& offsets,
                                                             std::int64_t most) {
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

TileCopy::TileCopy(ir::Builder& b, const helpers::TileSplit& split, std::int64_t stride, Value* tid,
                   const std::array<Value*, 2>& strides)
    : split_(split), stride_(stride) {
  for (std::int64_t i = 0; i < split.per_thread; ++i) {
    auto [line, first] = helpers::tile_access(b, split, tid, i);
    lines_.push_back(line);
    firsts_.push_back(first);
    Value* rows0 = b.mul(line, strides[0]);
    Value* index0 = b.add(rows0, first, "copy_index");
    Value* rows1 = b.mul(line, strides[1]);
    Value* index1 = b.add(rows1, first, "copy_index");
    bases_.push_back({index0, index1});
  }
}

void TileCopy::run(ir::Builder& b, const std::array<Value*, 2>& rsrcs, const std::array<Value*, 2>& strides,
                   Value* r0, Value* seqlen, const std::array<Value*, 2>& lds, ir::Type elem) const {
  std::int64_t vec = split_.vec;
  std::int64_t esize = elem.bits() / 8;
  ir::Type vtype = helpers::vector_type(elem, vec);
  Value* shift0 = b.mul(r0, strides[0]);
  Value* shift1 = b.mul(r0, strides[1]);
  const std::array<Value*, 2> shifts{shift0, shift1};
  std::vector<std::array<Value*, 2>> values;
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    Value* row = b.add(r0, lines_[i]);
    Value* ok = b.cmpi("slt", row, seqlen);
    std::array<Value*, 2> pair{};
    for (std::size_t t = 0; t < 2; ++t) {
      Value* index = b.add(bases_[i][t], shifts[t]);
      Value* offset = helpers::masked_offset(b, ok, index, esize);
      pair[t] = b.buffer_load(rsrcs[t], offset, vtype, "tile_vals");
    }
    values.push_back(pair);
  }
  std::int64_t align = vec == 1 ? 0 : helpers::guaranteed_align(esize, vec * esize, {stride_, vec});
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    Value* line = mul_i32(b, lines_[i], stride_);
    Value* index = b.add(line, firsts_[i]);
    for (std::size_t t = 0; t < 2; ++t) b.lds_store(lds[t], index, values[i][t], {.align = align});
  }
}

}  // namespace rocke::library::kernels::attention::common
