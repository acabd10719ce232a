// Python twin: rocke_library/kernels/attention/attention_bwd_dq/builder.py
#include "rocke_library/kernels/attention/attention_bwd_dq/builder.hpp"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/chain.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/plan.hpp"
#include "rocke_library/kernels/attention/common/backward.hpp"
#include "rocke_library/kernels/attention/common/mask.hpp"
#include "rocke_library/kernels/attention/common/softmax.hpp"
#include "rocke_library/kernels/attention/common/work.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

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
using Grid = std::vector<Values>;
using Operand = std::function<Value*(std::int64_t, std::int64_t)>;  // (k step, query rep) -> a B fragment

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

// Declare the kernel arguments in launch-contract order; returns them by name.
Params kernel_params(Builder& b, const AttentionBwdDqSpec& spec) {
  Type elem = helpers::ir_type(spec.dtype);
  Params params;
  for (std::size_t t = 0; t < 4; ++t) {
    std::string name(kTensors[t]);
    params[name] = b.param(name, ir::ptr(elem, "global"), {.noalias = true, .readonly = true});
  }
  for (const std::string name : {"lse2", "delta"}) {
    params[name] = b.param(name, ir::ptr(ir::f32, "global"), {.noalias = true, .readonly = true});
  }
  params["dq"] = b.param("dq", ir::ptr(elem, "global"), {.noalias = true, .writeonly = true});
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
  for (std::string_view tensor : kTensors) {
    for (const std::string& dim : dims) {
      std::string name = std::string(tensor) + "_stride_" + dim;
      params[name] = b.param(name, ir::i32);
    }
  }
  return params;
}

// (row-0 pointer, buffer resource) of the workgroup's sequence of every tensor.
Views views_of(Builder& b, const AttentionBwdDqSpec& spec, const Params& params, const Work& work) {
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Views views;
  for (std::string_view tensor_view : kTensors) {
    std::string tensor(tensor_view);
    bool is_q = tensor == "q" || tensor == "do" || tensor == "dq";
    Value* head = is_q ? work.head : work.kv_head;
    Value* seqlen = is_q ? work.seqlen_q : work.seqlen_k;
    Value* start = is_q ? work.q_start : work.k_start;
    Value* batch_offset = nullptr;
    if (spec.seq_mode == "batched") batch_offset = b.mul(work.batch, params.at(tensor + "_stride_b"));
    views[tensor] = common::seq_view(b, params.at(tensor), batch_offset, start, params.at(tensor + "_stride_s"), head,
                                     params.at(tensor + "_stride_h"), seqlen, spec.head_dim, esize, tensor);
  }
  return views;
}

// The Q^T and dO^T B operands of the wave's rows: fragments held in registers (read from global
// memory here), or with qdo_lds the block's rows copied into their LDS tiles here and each fragment
// read from its tile where the product uses it.
std::pair<Operand, Operand> row_operands(Builder& b, const AttentionBwdDqSpec& spec, const DqPlan& plan,
                                         const Params& params, const Work& work, const Views& views,
                                         const std::optional<std::array<Value*, 2>>& tiles, Value* tid, Value* lane,
                                         Value* wave_row0, Value* block_row0) {
  const arch::MmaOp& op = *plan.op;
  Type elem = helpers::ir_type(spec.dtype);
  if (!tiles) {
    auto held = std::make_shared<std::array<Grid, 2>>();
    const std::array<std::string, 2> names{"q", "do"};
    for (std::size_t t = 0; t < 2; ++t) {
      (*held)[t] = common::load_rows_b(b, op, plan.b_row, plan.b_col, plan.q_reps, plan.qk_steps,
                                       views.at(names[t]).second, params.at(names[t] + "_stride_s"), lane, block_row0,
                                       work.seqlen_q, elem, common::kMaxAccessElems);
    }
    return {[held](std::int64_t step, std::int64_t rq) { return (*held)[0][at(step)][at(rq)]; },
            [held](std::int64_t step, std::int64_t rq) { return (*held)[1][at(step)][at(rq)]; }};
  }
  const std::array<Value*, 2> strides{params.at("q_stride_s"), params.at("do_stride_s")};
  const common::TileCopy copy(b, *plan.qdo_copy, plan.q_tile->stride(), tid, strides);
  copy.run(b, {views.at("q").second, views.at("do").second}, strides, work.q0, work.seqlen_q, *tiles, elem);
  const helpers::FragmentPlan& frag = *plan.qt_frag;
  Values bases;
  for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
    Value* line = add_i32(b, wave_row0, rq * op.n);
    bases.push_back(helpers::fragment_base(b, frag, lane, line, "qt_base"));
  }
  auto reader = [&b, &frag, bases, elem, k = op.k](Value* tile) -> Operand {
    return [&b, &frag, bases, elem, k, tile](std::int64_t step, std::int64_t rq) {
      return helpers::load_fragment(b, tile, bases[at(rq)], frag, step * k, elem, {}, "qt_frag");
    };
  };
  return {reader((*tiles)[0]), reader((*tiles)[1])};
}

// acc[key_rep][q_rep]: the key block's rows (K or V) times the B operand, in f32.
Grid products(Builder& b, const DqPlan& plan, Value* lds, const Values& bases, const Operand& operand, Type elem,
              const std::string& name) {
  const arch::MmaOp& op = *plan.op;
  Value* zero = f32_const(b, 0.0, op.c.length, name + "_acc");
  Grid accs(at(plan.key_reps), Values(at(plan.q_reps), zero));
  for (std::int64_t step = 0; step < plan.qk_steps; ++step) {
    Values bfrags;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) bfrags.push_back(operand(step, rq));
    for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
      Value* afrag = helpers::load_fragment(b, lds, bases[at(rk)], plan.k_frag, step * op.k, elem, {}, name + "_a");
      for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
        Value*& acc = accs[at(rk)][at(rq)];
        acc = b.mma(op.id, afrag, bfrags[at(rq)], acc, name);
      }
    }
  }
  return accs;
}

// frags[step][q_rep]: dS^T as the B operand of dQ^T, rounded to the input dtype.
// dss[q_rep][key_rep][slot] are the f32 values in the S^T C layout.
Grid ds_operands(Builder& b, const DqPlan& plan, const std::vector<Grid>& dss, Value* ds_lds,
                 const std::array<Values, 2>& ds_bases, Type elem) {
  const arch::MmaOp& op = *plan.op;
  std::vector<Grid> rounded;
  for (const Grid& reps : dss) {
    Grid per_rep;
    for (const Values& slots : reps) {
      Values out;
      for (Value* v : slots) out.push_back(b.truncf(v, elem));
      per_rep.push_back(std::move(out));
    }
    rounded.push_back(std::move(per_rep));
  }
  Grid frags;
  if (plan.chain) {
    for (std::int64_t step = 0; step < plan.key_steps; ++step) {
      Values row;
      for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
        row.push_back(helpers::chain_fragment(b, *plan.chain, step, rounded[at(rq)], elem, "ds_frag"));
      }
      frags.push_back(std::move(row));
    }
    return frags;
  }
  for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
    for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
      Value* frag = b.splat(b.const_(0.0, elem), op.c.length);
      const Values& values = rounded[at(rq)][at(rk)];
      for (std::size_t slot = 0; slot < values.size(); ++slot) {
        frag = b.insert(frag, values[slot], static_cast<std::int64_t>(slot));
      }
      helpers::store_fragment(b, ds_lds, ds_bases[0][at(rq)], *plan.ds_store, rk * op.m, frag, elem, {});
    }
  }
  b.barrier();
  for (std::int64_t step = 0; step < plan.key_steps; ++step) {
    Values row;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
      row.push_back(helpers::load_fragment(b, ds_lds, ds_bases[1][at(rq)], *plan.ds_load, step * op.k, elem, {},
                                           "ds_frag"));
    }
    frags.push_back(std::move(row));
  }
  return frags;
}

// dQ = dQ^T * scale in the input dtype, every row inside the sequence.
void epilogue(Builder& b, const AttentionBwdDqSpec& spec, const DqPlan& plan, const Params& params, const Work& work,
              const Views& views, Value* row_lane, const Values& rows, const Grid& accs, Value* dq_scale) {
  const arch::MmaOp& op = *plan.op;
  Type elem = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* rsrc = views.at("dq").second;
  std::int64_t classes = static_cast<std::int64_t>(plan.col_offsets.size());
  Value* scale_v = b.splat(dq_scale, op.c.length, "dq_scale_v");
  for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
    for (std::int64_t ci = 0; ci < classes; ++ci) {
      const std::vector<std::int64_t>& slots = plan.col_slots[at(ci)];
      Value* row = rows[at(rq * classes + ci)];
      Value* ok = b.cmpi("slt", row, work.seqlen_q, "row_ok");
      Value* row_at = b.mul(row, params.at("dq_stride_s"));
      Value* line = b.add(row_at, row_lane);
      std::vector<std::int64_t> slot_offsets;
      for (std::int64_t slot : slots) slot_offsets.push_back(plan.c_row.slot_offsets[at(slot)]);
      auto pieces = common::slot_runs(slot_offsets, common::kMaxAccessElems);
      for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
        Value* scaled = b.mul(accs[at(rd)][at(rq)], scale_v, "dq");
        for (auto [first, count] : pieces) {
          Value* index = add_i32(b, line, rd * op.m + plan.c_row.slot_offsets[at(slots[at(first)])]);
          Value* value = nullptr;
          if (count == 1) {
            Value* element = b.extract(scaled, slots[at(first)]);
            value = b.truncf(element, elem);
          } else {
            Value* part = b.splat(b.const_(0.0, ir::f32), count);
            for (std::int64_t j = 0; j < count; ++j) {
              Value* element = b.extract(scaled, slots[at(first + j)]);
              part = b.insert(part, element, j);
            }
            value = b.truncf(part, helpers::vector_type(elem, count));
          }
          Value* offset = helpers::masked_offset(b, ok, index, esize);
          b.buffer_store(rsrc, offset, value);
        }
      }
    }
  }
}

}  // namespace

ir::KernelDef build(const AttentionBwdDqSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  DqPlan plan = plan_dq(spec, target);
  const arch::MmaOp& op = *plan.op;
  Type elem = helpers::ir_type(spec.dtype);
  const std::string& mask = spec.mask;
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Params params = kernel_params(b, spec);
  Value* k_lds = helpers::alloc_tile(b, plan.k_tile, elem, "k_lds");
  Value* v_lds = helpers::alloc_tile(b, plan.k_tile, elem, "v_lds");
  std::optional<std::array<Value*, 2>> qdo_tiles;
  if (plan.q_tile) {
    Value* q_lds = helpers::alloc_tile(b, *plan.q_tile, elem, "q_lds");
    Value* do_lds = helpers::alloc_tile(b, *plan.q_tile, elem, "do_lds");
    qdo_tiles = std::array<Value*, 2>{q_lds, do_lds};
  }
  Value* ds_lds = plan.ds_tile ? helpers::alloc_tile(b, *plan.ds_tile, elem, "ds_lds") : nullptr;

  Value* tid = b.thread_id_x("tid");
  Value* lane = b.lane_id("lane");
  Value* wave = b.wave_id("wave");
  Work work = common::decode_work(b, spec.seq_mode, spec.block_m, params);
  Views views = views_of(b, spec, params, work);
  Value* scale = params.at("scale");
  Value* scale2 = b.mul(scale, f32_const(b, common::kLog2e, 1), "scale_log2");
  Value* dq_scale = scale;
  Value* stat_row0 = nullptr;
  Value* lse2_rsrc = nullptr;
  Value* delta_rsrc = nullptr;
  std::tie(stat_row0, lse2_rsrc, delta_rsrc) = common::row_stats(b, spec.seq_mode, params, work);
  Value* wave_row0 = mul_i32(b, wave, spec.wave_rows(), "wave_row0");
  Value* block_row0 = b.add(work.q0, wave_row0, "row0");
  const std::pair<Operand, Operand> operands =
      row_operands(b, spec, plan, params, work, views, qdo_tiles, tid, lane, wave_row0, block_row0);
  const Operand& q_operand = operands.first;
  const Operand& do_operand = operands.second;

  Value* row_lane = helpers::emit_lane_part(b, plan.c_row.lane_part, lane);
  Value* q_lane = helpers::emit_lane_part(b, plan.c_col.lane_part, lane);
  std::int64_t classes = static_cast<std::int64_t>(plan.col_offsets.size());
  std::vector<std::int64_t> class_of(at(op.c.length), 0);
  for (std::int64_t ci = 0; ci < classes; ++ci) {
    for (std::int64_t slot : plan.col_slots[at(ci)]) class_of[at(slot)] = ci;
  }
  Values rows;  // per query repeat and class
  for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
    for (std::int64_t offset : plan.col_offsets) {
      Value* first_row = add_i32(b, block_row0, rq * op.n + offset);
      rows.push_back(b.add(first_row, q_lane, "row"));
    }
  }
  Values rooms;
  Values lse2s;
  Values deltas;
  for (Value* row : rows) {
    Value* stat = b.add(stat_row0, row);
    Value* index = mul_i32(b, stat, 4);
    lse2s.push_back(b.buffer_load(lse2_rsrc, index, ir::f32, "lse2"));
    deltas.push_back(b.buffer_load(delta_rsrc, index, ir::f32, "delta"));
    Value* limit = common::row_limit(b, mask, row, work.seqlen_q, work.seqlen_k);
    rooms.push_back(b.sub(limit, row_lane, "room"));
  }
  const std::array<Value*, 2> kv_strides{params.at("k_stride_s"), params.at("v_stride_s")};
  const common::TileCopy kv(b, plan.kv_copy, plan.k_tile.stride(), tid, kv_strides);
  Values k_bases;
  for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
    Value* line0 = const_i32(b, rk * op.m);
    k_bases.push_back(helpers::fragment_base(b, plan.k_frag, lane, line0, "k_frag_base"));
  }
  Value* kt_line0 = const_i32(b, 0);
  Value* kt_base = helpers::fragment_base(b, plan.kt_frag, lane, kt_line0, "kt_base");
  std::array<Values, 2> ds_bases;
  if (plan.ds_store && plan.ds_load) {
    Values lines;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) lines.push_back(add_i32(b, wave_row0, rq * op.n));
    for (Value* line : lines) ds_bases[0].push_back(helpers::fragment_base(b, *plan.ds_store, lane, line, "ds_store_base"));
    for (Value* line : lines) ds_bases[1].push_back(helpers::fragment_base(b, *plan.ds_load, lane, line, "ds_load_base"));
  }
  Value* blocks = common::key_blocks(b, mask, work.q0, spec.block_m, spec.block_n, work.seqlen_q, work.seqlen_k);

  Value* zero = f32_const(b, 0.0, op.c.length, "dq_acc");
  Values inits(at(plan.d_reps * plan.q_reps), zero);

  auto body = [&](Value* kt, const Values& carried) -> Values {
    Grid accs;
    for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
      accs.emplace_back(carried.begin() + rd * plan.q_reps, carried.begin() + (rd + 1) * plan.q_reps);
    }
    Value* k0 = mul_i32(b, kt, spec.block_n, "k0");
    kv.run(b, {views.at("k").second, views.at("v").second}, kv_strides, k0, work.seqlen_k, {k_lds, v_lds}, elem);
    b.barrier();
    Grid s_accs = products(b, plan, k_lds, k_bases, q_operand, elem, "s");
    Grid dp_accs = products(b, plan, v_lds, k_bases, do_operand, elem, "dp");
    std::vector<Grid> dss;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
      Values room;
      for (std::int64_t ci = 0; ci < classes; ++ci) room.push_back(b.sub(rooms[at(rq * classes + ci)], k0, "room_k0"));
      Grid per_key;
      for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
        Values slots;
        for (std::int64_t slot = 0; slot < op.c.length; ++slot) {
          std::int64_t idx = rq * classes + class_of[at(slot)];
          std::int64_t key = rk * op.m + plan.c_row.slot_offsets[at(slot)];
          Value* key_value = const_i32(b, key);
          Value* seen = b.cmpi("sle", key_value, room[at(class_of[at(slot)])], "seen");
          Value* s = b.extract(s_accs[at(rk)][at(rq)], slot);
          Value* p = common::recompute_p(b, s, scale2, lse2s[at(idx)], seen);
          Value* dp = b.extract(dp_accs[at(rk)][at(rq)], slot);
          Value* ds = common::dscore(b, p, dp, deltas[at(idx)]);
          Value* none = f32_const(b, 0.0, 1);
          slots.push_back(b.select(seen, ds, none, "ds"));
        }
        per_key.push_back(std::move(slots));
      }
      dss.push_back(std::move(per_key));
    }
    Grid dsfrags = ds_operands(b, plan, dss, ds_lds, ds_bases, elem);
    std::int64_t stride = plan.k_tile.stride();
    for (std::int64_t step = 0; step < plan.key_steps; ++step) {
      for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
        Value* afrag = helpers::load_fragment(b, k_lds, kt_base, plan.kt_frag, step * op.k * stride + rd * op.m, elem,
                                              {}, "kt_frag");
        for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
          Value*& acc = accs[at(rd)][at(rq)];
          acc = b.mma(op.id, afrag, dsfrags[at(step)][at(rq)], acc, "dq_acc");
        }
      }
    }
    b.barrier();
    Values out;
    for (const Values& row : accs) out.insert(out.end(), row.begin(), row.end());
    return out;
  };

  ir::Names names(inits.size(), "dq_acc");
  Value* lb = const_i32(b, 0);
  Value* step = const_i32(b, 1);
  Values out = b.for_(lb, blocks, step, inits, body, {.names = names, .iv_name = "kt"});
  Grid accs;
  for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
    accs.emplace_back(out.begin() + rd * plan.q_reps, out.begin() + (rd + 1) * plan.q_reps);
  }
  epilogue(b, spec, plan, params, work, views, row_lane, rows, accs, dq_scale);
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(AttentionBwdDqSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
