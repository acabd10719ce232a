// Python twin: rocke_library/kernels/attention/attention_bwd_main/builder.py
#include "rocke_library/kernels/attention/attention_bwd_main/builder.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/chain.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/tiles.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/plan.hpp"
#include "rocke_library/kernels/attention/common/backward.hpp"
#include "rocke_library/kernels/attention/common/softmax.hpp"
#include "rocke_library/kernels/attention/common/work.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

namespace {

using common::Params;
using common::Work;
using helpers::add_i32;
using helpers::const_i32;
using helpers::f32_const;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

using Views = std::map<std::string, std::pair<Value*, Value*>, std::less<>>;
using Grid = std::vector<Values>;  // [rep][rep]
using Slots = std::vector<std::vector<Values>>;  // [q_rep][key_rep][slot]

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

bool is_query_side(std::string_view tensor) { return tensor == "q" || tensor == "do" || tensor == "dq_acc"; }

// The dK and dV arguments: the outputs dk, dv (direct) or the f32 workspaces dk_acc, dv_acc
// (atomic, split).
std::array<std::string, 2> dkv_names(const AttentionBwdMainSpec& spec) {
  if (spec.dkv_mode == "direct") return {"dk", "dv"};
  return {"dk_acc", "dv_acc"};
}

// Whether a tensor has one head per query head: the query side, and the dK / dV workspaces of
// dkv_mode=split (one slice per query head, rows of the key sequence).
bool query_heads(const AttentionBwdMainSpec& spec, std::string_view tensor) {
  return is_query_side(tensor) || (spec.dkv_mode == "split" && (tensor == "dk_acc" || tensor == "dv_acc"));
}

// The tensors with stride arguments, in argument order.
std::vector<std::string> tensors(const AttentionBwdMainSpec& spec) {
  std::vector<std::string> out(kInputs.begin(), kInputs.end());
  for (const std::string& name : dkv_names(spec)) out.push_back(name);
  if (spec.dq_mode == "atomic") out.emplace_back("dq_acc");
  return out;
}

// Declare the kernel arguments in launch-contract order; returns them by name.
Params kernel_params(Builder& b, const AttentionBwdMainSpec& spec) {
  Type elem = helpers::ir_type(spec.dtype);
  Params params;
  for (std::string_view input : kInputs) {
    std::string name(input);
    params[name] = b.param(name, ir::ptr(elem, "global"), {.noalias = true, .readonly = true});
  }
  for (const std::string name : {"lse2", "delta"}) {
    params[name] = b.param(name, ir::ptr(ir::f32, "global"), {.noalias = true, .readonly = true});
  }
  for (const std::string& name : dkv_names(spec)) {
    if (spec.dkv_mode == "direct") {
      params[name] = b.param(name, ir::ptr(elem, "global"), {.noalias = true, .writeonly = true});
    } else if (spec.dkv_mode == "split") {
      params[name] = b.param(name, ir::ptr(ir::f32, "global"), {.noalias = true, .writeonly = true});
    } else {
      params[name] = b.param(name, ir::ptr(ir::f32, "global"), {.noalias = true});
    }
  }
  if (spec.dq_mode == "atomic") params["dq_acc"] = b.param("dq_acc", ir::ptr(ir::f32, "global"), {.noalias = true});
  if (spec.seq_mode == "varlen") {
    for (const std::string name : {"cu_seqlens_q", "cu_seqlens_k"}) {
      params[name] = b.param(name, ir::ptr(ir::i32, "global"), {.noalias = true, .readonly = true});
    }
  }
  params["scale"] = b.param("scale", ir::f32);
  std::vector<std::string> sizes;
  if (spec.seq_mode == "batched") {
    sizes = {"batch", "seqlen_q", "seqlen_k"};
  } else {
    sizes = {"batch", "total_q"};
  }
  sizes.emplace_back("heads_q");
  sizes.emplace_back("group");
  for (const std::string& name : sizes) params[name] = b.param(name, ir::i32);
  std::vector<std::string> dims;
  if (spec.seq_mode == "batched") {
    dims = {"b", "s", "h"};
  } else {
    dims = {"s", "h"};
  }
  for (const std::string& tensor : tensors(spec)) {
    for (const std::string& dim : dims) {
      std::string name = tensor + "_stride_" + dim;
      params[name] = b.param(name, ir::i32);
    }
  }
  return params;
}

// (row-0 pointer, buffer resource) of the workgroup's sequence of every tensor.
Views views_of(Builder& b, const AttentionBwdMainSpec& spec, const Params& params, const Work& work) {
  Views views;
  for (const std::string& tensor : tensors(spec)) {
    bool is_q = is_query_side(tensor);
    Value* head = query_heads(spec, tensor) ? work.head : work.kv_head;
    Value* seqlen = is_q ? work.seqlen_q : work.seqlen_k;
    Value* start = is_q ? work.q_start : work.k_start;
    bool f32_out = tensor.ends_with("_acc");
    std::int64_t esize = f32_out ? 4 : helpers::elem_bytes(spec.dtype);
    Value* batch_offset = nullptr;
    if (spec.seq_mode == "batched") batch_offset = b.mul(work.batch, params.at(tensor + "_stride_b"));
    views[tensor] = common::seq_view(b, params.at(tensor), batch_offset, start, params.at(tensor + "_stride_s"), head,
                                     params.at(tensor + "_stride_h"), seqlen, spec.head_dim, esize, tensor);
  }
  return views;
}

// acc[q_rep][key_rep]: rows (Q or dO) times lines^T (K or V) over head_dim, in f32.
Grid products(Builder& b, const MainPlan& plan, Value* rows_lds, Value* lines_lds, const Values& row_bases,
              const Values& line_bases, Type elem, const std::string& name) {
  const arch::MmaOp& op = *plan.op;
  Value* zero = f32_const(b, 0.0, op.c.length, name + "_acc");
  Grid accs(at(plan.q_reps), Values(at(plan.key_reps), zero));
  for (std::int64_t step = 0; step < plan.qk_steps; ++step) {
    Values afrags;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
      afrags.push_back(
          helpers::load_fragment(b, rows_lds, row_bases[at(rq)], plan.rows_a, step * op.k, elem, {}, name + "_a"));
    }
    for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
      Value* bfrag =
          helpers::load_fragment(b, lines_lds, line_bases[at(rk)], plan.lines_b, step * op.k, elem, {}, name + "_b");
      for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
        Value*& acc = accs[at(rq)][at(rk)];
        acc = b.mma(op.id, afrags[at(rq)], bfrag, acc, name);
      }
    }
  }
  return accs;
}

// frags[key_rep][step] of P or dS (values[q_rep][key_rep][slot], f32, C layout) as the B operand
// of dV^T / dK^T, rounded to the input dtype: through registers (plan.chain) or the wave's lines of
// the LDS tile. With a tile and no chain, only stores here (nullopt): the caller loads after the
// barrier (load_b).
std::optional<Grid> b_operands(Builder& b, const MainPlan& plan, const Slots& values, Value* tile,
                               const Values& store_bases, Type elem, const std::string& name) {
  const arch::MmaOp& op = *plan.op;
  Slots rounded;
  for (const auto& reps : values) {
    std::vector<Values> per_rep;
    for (const Values& slots : reps) {
      Values out;
      for (Value* v : slots) out.push_back(b.truncf(v, elem));
      per_rep.push_back(std::move(out));
    }
    rounded.push_back(std::move(per_rep));
  }
  if (tile != nullptr) {
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
      for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
        Value* frag = b.splat(b.const_(0.0, elem), op.c.length);
        const Values& slots = rounded[at(rq)][at(rk)];
        for (std::size_t slot = 0; slot < slots.size(); ++slot) {
          frag = b.insert(frag, slots[slot], static_cast<std::int64_t>(slot));
        }
        helpers::store_fragment(b, tile, store_bases[at(rk)], *plan.p_store, rq * op.m, frag, elem, {});
      }
    }
  }
  if (!plan.chain) return std::nullopt;
  Grid frags;
  for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
    std::vector<Values> per_q;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) per_q.push_back(rounded[at(rq)][at(rk)]);
    Values steps;
    for (std::int64_t step = 0; step < plan.q_steps; ++step) {
      steps.push_back(helpers::chain_fragment(b, *plan.chain, step, per_q, elem, name + "_frag"));
    }
    frags.push_back(std::move(steps));
  }
  return frags;
}

// frags[key_rep][step] of P or dS read back from the wave's lines of its tile.
Grid load_b(Builder& b, const MainPlan& plan, Value* tile, const Values& load_bases, Type elem,
            const std::string& name) {
  const arch::MmaOp& op = *plan.op;
  Grid frags;
  for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
    Values steps;
    for (std::int64_t step = 0; step < plan.q_steps; ++step) {
      steps.push_back(
          helpers::load_fragment(b, tile, load_bases[at(rk)], *plan.p_load, step * op.k, elem, {}, name + "_frag"));
    }
    frags.push_back(std::move(steps));
  }
  return frags;
}

// dQ^T = K^T dS^T over the wave's keys, times scale, added into the f32 dQ workspace at the chunk's
// columns d0 .. (kt_base already holds d0).
void dq_atomic(Builder& b, const AttentionBwdMainSpec& spec, const MainPlan& plan, const Params& params,
               const Views& views, Value* k_lds, Value* ds_lds, Value* kt_base, Value* dst_base, Value* q0,
               Value* row_lane, Value* col_lane, Value* seqlen_q, Value* scale, Type elem, Value* d0) {
  const arch::MmaOp& op = *plan.op;
  Value* zero = f32_const(b, 0.0, op.c.length, "dq_acc");
  Grid accs(at(plan.d_reps), Values(at(plan.dq_cols), zero));
  std::int64_t stride = plan.k_tile.stride();
  std::int64_t ds_stride = plan.ds_tile->stride();
  for (std::int64_t step = 0; step < plan.key_steps; ++step) {
    Values bfrags;
    for (std::int64_t cq = 0; cq < plan.dq_cols; ++cq) {
      bfrags.push_back(helpers::load_fragment(b, ds_lds, dst_base, *plan.dst_load, step * op.k * ds_stride + cq * op.n,
                                              elem, {}, "dst_frag"));
    }
    for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
      Value* afrag = helpers::load_fragment(b, k_lds, kt_base, *plan.kt_a, step * op.k * stride + rd * op.m, elem,
                                            {spec.d_chunk}, "kt_frag");
      for (std::int64_t cq = 0; cq < plan.dq_cols; ++cq) {
        Value*& acc = accs[at(rd)][at(cq)];
        acc = b.mma(op.id, afrag, bfrags[at(cq)], acc, "dq_acc");
      }
    }
  }
  Value* dq_row0 = views.at("dq_acc").first;
  Value* scale_v = b.splat(scale, op.c.length, "scale_v");
  for (std::int64_t cq = 0; cq < plan.dq_cols; ++cq) {
    for (std::size_t ci = 0; ci < plan.col_offsets.size(); ++ci) {
      const std::vector<std::int64_t>& slots = plan.col_slots[ci];
      Value* first_row = add_i32(b, q0, cq * op.n + plan.col_offsets[ci]);
      Value* row = b.add(first_row, col_lane, "dq_row");
      Value* ok = b.cmpi("slt", row, seqlen_q, "dq_ok");
      Value* row_at = b.mul(row, params.at("dq_acc_stride_s"));
      Value* line = b.add(row_at, row_lane);
      if (d0 != nullptr) line = b.add(line, d0, "dq_line");
      Values scaled;
      for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) scaled.push_back(b.mul(accs[at(rd)][at(cq)], scale_v, "dq"));
      b.if_(ok, [&] {
        for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
          for (std::int64_t slot : slots) {
            Value* index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[at(slot)]);
            Value* value = b.extract(scaled[at(rd)], slot);
            b.atomic_add_f32(dq_row0, index, value);
          }
        }
      });
    }
  }
}

// dV and dK * scale (accs[name][d_rep][key_rep], C layout of dV^T / dK^T) of the wave's keys inside
// the sequence at the chunk's columns d0 ..: stored in the input dtype (direct), added to the f32
// workspaces (atomic) or stored in f32 to the query head's slice (split).
void epilogue(Builder& b, const AttentionBwdMainSpec& spec, const MainPlan& plan, const Params& params,
              const Views& views, const Values& keys, Value* row_lane, Value* seqlen_k,
              const std::map<std::string, Grid>& accs, Value* dk_scale, Value* d0) {
  const arch::MmaOp& op = *plan.op;
  bool split = spec.dkv_mode == "split";
  Type elem = split ? ir::f32 : helpers::ir_type(spec.dtype);
  std::int64_t esize = split ? 4 : helpers::elem_bytes(spec.dtype);
  std::int64_t most = split ? families::kMaxAccessBytes / 4 : common::kMaxAccessElems;
  std::int64_t classes = static_cast<std::int64_t>(plan.col_offsets.size());
  Value* factor = b.splat(dk_scale, op.c.length, "dk_scale_v");
  const std::array<std::string, 2> args = dkv_names(spec);
  const std::array<std::pair<std::string, std::string>, 2> outputs{{{"dv", args[1]}, {"dk", args[0]}}};
  for (const auto& [name, arg] : outputs) {
    auto [row0, rsrc] = views.at(arg);
    for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
      for (std::int64_t ci = 0; ci < classes; ++ci) {
        const std::vector<std::int64_t>& slots = plan.col_slots[at(ci)];
        Value* key = keys[at(rk * classes + ci)];
        Value* ok = b.cmpi("slt", key, seqlen_k, "key_ok");
        Value* key_at = b.mul(key, params.at(arg + "_stride_s"));
        Value* line = b.add(key_at, row_lane);
        if (d0 != nullptr) line = b.add(line, d0, "dkv_line");
        Values values;
        for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) values.push_back(accs.at(name)[at(rd)][at(rk)]);
        if (name == "dk") {
          for (Value*& value : values) value = b.mul(value, factor, name);
        }
        if (spec.dkv_mode != "atomic") {
          std::vector<std::int64_t> slot_offsets;
          for (std::int64_t slot : slots) slot_offsets.push_back(plan.c_row.slot_offsets[at(slot)]);
          auto pieces = common::slot_runs(slot_offsets, most);
          for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
            for (auto [first, count] : pieces) {
              Value* index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[at(slots[at(first)])]);
              Value* value = nullptr;
              if (count == 1) {
                value = b.extract(values[at(rd)], slots[at(first)]);
              } else {
                value = b.splat(b.const_(0.0, ir::f32), count);
                for (std::int64_t j = 0; j < count; ++j) {
                  Value* element = b.extract(values[at(rd)], slots[at(first + j)]);
                  value = b.insert(value, element, j);
                }
              }
              if (!split) value = b.truncf(value, count == 1 ? elem : helpers::vector_type(elem, count));
              Value* offset = helpers::masked_offset(b, ok, index, esize);
              b.buffer_store(rsrc, offset, value);
            }
          }
          continue;
        }
        Value* base = row0;
        b.if_(ok, [&] {
          for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
            for (std::int64_t slot : slots) {
              Value* index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[at(slot)]);
              Value* value = b.extract(values[at(rd)], slot);
              b.atomic_add_f32(base, index, value);
            }
          }
        });
      }
    }
  }
}

Grid split_grid(const Values& flat, std::size_t offset, std::int64_t rows, std::int64_t cols) {
  Grid out;
  for (std::int64_t r = 0; r < rows; ++r) {
    auto begin = flat.begin() + static_cast<std::ptrdiff_t>(offset + at(r * cols));
    out.emplace_back(begin, begin + cols);
  }
  return out;
}

}  // namespace

ir::KernelDef build(const AttentionBwdMainSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  MainPlan plan = plan_main(spec, target);
  const arch::MmaOp& op = *plan.op;
  Type elem = helpers::ir_type(spec.dtype);
  const std::string& mask = spec.mask;
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Params params = kernel_params(b, spec);
  Value* k_lds = helpers::alloc_tile(b, plan.k_tile, elem, "k_lds");
  Value* v_lds = helpers::alloc_tile(b, plan.k_tile, elem, "v_lds");
  Value* q_lds = helpers::alloc_tile(b, plan.q_tile, elem, "q_lds");
  Value* do_lds = helpers::alloc_tile(b, plan.q_tile, elem, "do_lds");
  Value* p_lds = plan.p_tile ? helpers::alloc_tile(b, *plan.p_tile, elem, "p_lds") : nullptr;
  Value* ds_lds = plan.ds_tile ? helpers::alloc_tile(b, *plan.ds_tile, elem, "ds_lds") : nullptr;

  Value* tid = b.thread_id_x("tid");
  Value* lane = b.lane_id("lane");
  Value* wave = b.wave_id("wave");
  Work work = common::decode_work(b, spec.seq_mode, spec.block_n, params, spec.chunks());
  Value* k0 = work.q0;  // the decode's block origin: the first key of the workgroup's block
  Value* d0 = nullptr;  // the chunk's first head_dim column (nullptr: one chunk, column 0)
  if (work.part != nullptr) d0 = mul_i32(b, work.part, spec.d_chunk, "d0");
  Views views = views_of(b, spec, params, work);
  Value* scale = params.at("scale");
  Value* scale2 = b.mul(scale, f32_const(b, common::kLog2e, 1), "scale_log2");
  Value* dk_scale = scale;
  Value* stat_row0 = nullptr;
  Value* lse2_rsrc = nullptr;
  Value* delta_rsrc = nullptr;
  std::tie(stat_row0, lse2_rsrc, delta_rsrc) = common::row_stats(b, spec.seq_mode, params, work);
  Value* wave_key0 = mul_i32(b, wave, spec.wave_keys(), "wave_key0");

  const std::array<Value*, 2> kv_strides{params.at("k_stride_s"), params.at("v_stride_s")};
  const common::TileCopy kv(b, plan.kv_copy, plan.k_tile.stride(), tid, kv_strides);
  kv.run(b, {views.at("k").second, views.at("v").second}, kv_strides, k0, work.seqlen_k, {k_lds, v_lds}, elem);
  b.barrier();

  Value* row_lane = helpers::emit_lane_part(b, plan.c_row.lane_part, lane);
  Value* col_lane = helpers::emit_lane_part(b, plan.c_col.lane_part, lane);
  Values key_lines;
  for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) key_lines.push_back(add_i32(b, wave_key0, rk * op.n));
  std::int64_t classes = static_cast<std::int64_t>(plan.col_offsets.size());
  std::vector<std::int64_t> class_of(at(op.c.length), 0);
  for (std::int64_t ci = 0; ci < classes; ++ci) {
    for (std::int64_t slot : plan.col_slots[at(ci)]) class_of[at(slot)] = ci;
  }
  Values keys;  // per key atom and class
  for (Value* line : key_lines) {
    for (std::int64_t offset : plan.col_offsets) {
      Value* class_line = add_i32(b, line, offset);
      Value* block_key = b.add(k0, class_line);
      keys.push_back(b.add(block_key, col_lane, "key"));
    }
  }
  Values row_bases;
  for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
    Value* line0 = const_i32(b, rq * op.m);
    row_bases.push_back(helpers::fragment_base(b, plan.rows_a, lane, line0, "rows_base"));
  }
  Values line_bases;
  for (Value* line : key_lines) line_bases.push_back(helpers::fragment_base(b, plan.lines_b, lane, line, "lines_base"));
  Value* cols_line0 = const_i32(b, 0);
  Value* cols_base = helpers::fragment_base(b, plan.cols_a, lane, cols_line0, "cols_base");
  if (d0 != nullptr) cols_base = b.add(cols_base, d0, "cols_base_d0");
  Values store_bases;
  Values load_bases;
  if (plan.p_store && plan.p_load) {
    for (Value* line : key_lines) store_bases.push_back(helpers::fragment_base(b, *plan.p_store, lane, line, "s_store_base"));
    for (Value* line : key_lines) load_bases.push_back(helpers::fragment_base(b, *plan.p_load, lane, line, "s_load_base"));
  }
  Value* kt_base = nullptr;
  Value* dst_base = nullptr;
  if (plan.kt_a && plan.dst_load) {
    kt_base = helpers::fragment_base(b, *plan.kt_a, lane, wave_key0, "kt_base");
    if (d0 != nullptr) kt_base = b.add(kt_base, d0, "kt_base_d0");
    dst_base = helpers::fragment_base(b, *plan.dst_load, lane, wave_key0, "dst_base");
  }
  auto [first, end] = common::query_blocks(b, mask, k0, spec.block_m, work.seqlen_q, work.seqlen_k);
  const std::array<Value*, 2> qd_strides{params.at("q_stride_s"), params.at("do_stride_s")};
  const common::TileCopy qd(b, plan.qd_copy, plan.q_tile.stride(), tid, qd_strides);

  Value* zero = f32_const(b, 0.0, op.c.length, "dkv_acc");
  std::int64_t count = plan.d_reps * plan.key_reps;
  Values inits(at(2 * count), zero);

  auto body = [&](Value* qt, const Values& carried) -> Values {
    Grid dv = split_grid(carried, 0, plan.d_reps, plan.key_reps);
    Grid dk = split_grid(carried, at(count), plan.d_reps, plan.key_reps);
    Value* q0 = mul_i32(b, qt, spec.block_m, "q0");
    qd.run(b, {views.at("q").second, views.at("do").second}, qd_strides, q0, work.seqlen_q, {q_lds, do_lds}, elem);
    b.barrier();
    Grid s_accs = products(b, plan, q_lds, k_lds, row_bases, line_bases, elem, "s");
    Grid dp_accs = products(b, plan, do_lds, v_lds, row_bases, line_bases, elem, "dp");
    Slots probs;
    Slots dss;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
      std::vector<Values> p_rows;
      std::vector<Values> ds_rows;
      Value* first_row = add_i32(b, q0, rq * op.m);
      Value* base_row = b.add(first_row, row_lane, "row");
      Values limits;
      Values lse2s;
      Values deltas;
      for (std::int64_t slot = 0; slot < op.c.length; ++slot) {
        Value* row = add_i32(b, base_row, plan.c_row.slot_offsets[at(slot)]);
        Value* stat = b.add(stat_row0, row);
        Value* index = mul_i32(b, stat, 4);
        Value* lse2 = b.buffer_load(lse2_rsrc, index, ir::f32, "lse2");
        Value* delta = b.buffer_load(delta_rsrc, index, ir::f32, "delta");
        limits.push_back(common::row_limit(b, mask, row, work.seqlen_q, work.seqlen_k));
        lse2s.push_back(lse2);
        deltas.push_back(delta);
      }
      for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
        Values p_slots;
        Values ds_slots;
        for (std::int64_t slot = 0; slot < op.c.length; ++slot) {
          Value* seen = b.cmpi("sle", keys[at(rk * classes + class_of[at(slot)])], limits[at(slot)], "seen");
          Value* s = b.extract(s_accs[at(rq)][at(rk)], slot);
          Value* p = common::recompute_p(b, s, scale2, lse2s[at(slot)], seen);
          Value* dp = b.extract(dp_accs[at(rq)][at(rk)], slot);
          Value* ds = common::dscore(b, p, dp, deltas[at(slot)]);
          p_slots.push_back(p);
          Value* none = f32_const(b, 0.0, 1);
          ds_slots.push_back(b.select(seen, ds, none, "ds"));
        }
        p_rows.push_back(std::move(p_slots));
        ds_rows.push_back(std::move(ds_slots));
      }
      probs.push_back(std::move(p_rows));
      dss.push_back(std::move(ds_rows));
    }
    std::optional<Grid> pfrags = b_operands(b, plan, probs, p_lds, store_bases, elem, "p");
    std::optional<Grid> dsfrags = b_operands(b, plan, dss, ds_lds, store_bases, elem, "ds");
    if (ds_lds != nullptr) b.barrier();
    if (!pfrags) pfrags = load_b(b, plan, p_lds, load_bases, elem, "p");
    if (!dsfrags) dsfrags = load_b(b, plan, ds_lds, load_bases, elem, "ds");
    std::int64_t qstride = plan.q_tile.stride();
    for (std::int64_t step = 0; step < plan.q_steps; ++step) {
      for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
        std::int64_t extra = step * op.k * qstride + rd * op.m;
        Value* do_t =
            helpers::load_fragment(b, do_lds, cols_base, plan.cols_a, extra, elem, {spec.d_chunk}, "dot_frag");
        Value* q_t = helpers::load_fragment(b, q_lds, cols_base, plan.cols_a, extra, elem, {spec.d_chunk}, "qt_frag");
        for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
          dv[at(rd)][at(rk)] = b.mma(op.id, do_t, (*pfrags)[at(rk)][at(step)], dv[at(rd)][at(rk)], "dv_acc");
          dk[at(rd)][at(rk)] = b.mma(op.id, q_t, (*dsfrags)[at(rk)][at(step)], dk[at(rd)][at(rk)], "dk_acc");
        }
      }
    }
    if (spec.dq_mode == "atomic") {
      dq_atomic(b, spec, plan, params, views, k_lds, ds_lds, kt_base, dst_base, q0, row_lane, col_lane,
                work.seqlen_q, scale, elem, d0);
    }
    b.barrier();
    Values out;
    for (const Values& accs : dv) out.insert(out.end(), accs.begin(), accs.end());
    for (const Values& accs : dk) out.insert(out.end(), accs.begin(), accs.end());
    return out;
  };

  ir::Names names(at(count), "dv_acc");
  names.insert(names.end(), at(count), "dk_acc");
  Value* step = const_i32(b, 1);
  Values out = b.for_(first, end, step, inits, body, {.names = names, .iv_name = "qt"});
  std::map<std::string, Grid> accs{{"dv", split_grid(out, 0, plan.d_reps, plan.key_reps)},
                                   {"dk", split_grid(out, at(count), plan.d_reps, plan.key_reps)}};
  epilogue(b, spec, plan, params, views, keys, row_lane, work.seqlen_k, accs, dk_scale, d0);
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(AttentionBwdMainSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::attention::attention_bwd_main
