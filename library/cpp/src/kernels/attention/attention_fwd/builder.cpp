// Python twin: rocke_library/kernels/attention/attention_fwd/builder.py
#include "rocke_library/kernels/attention/attention_fwd/builder.hpp"

#include <limits>
#include <set>
#include <string>
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
#include "rocke/helpers/tiles.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke_library/kernels/attention/attention_fwd/plan.hpp"
#include "rocke_library/kernels/attention/common/mask.hpp"
#include "rocke_library/kernels/attention/common/softmax.hpp"
#include "rocke_library/kernels/attention/common/work.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

namespace {

using common::Work;
using helpers::add_i32;
using helpers::const_i32;
using helpers::f32_const;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

// One tensor's element strides: batch (nullptr when varlen), token, head.
struct Strides {
  Value* b = nullptr;
  Value* s = nullptr;
  Value* h = nullptr;
};

// The kernel's parameters, in signature order (nullptr where the seq_mode has no such argument:
// cu_seqlens_q/k and total_q are varlen's, seqlen_q/k and the batch strides batched's).
struct Params {
  Value* q = nullptr;
  Value* k = nullptr;
  Value* v = nullptr;
  Value* o = nullptr;
  Value* lse = nullptr;
  Value* cu_seqlens_q = nullptr;
  Value* cu_seqlens_k = nullptr;
  Value* scale = nullptr;
  Value* batch = nullptr;
  Value* seqlen_q = nullptr;
  Value* seqlen_k = nullptr;
  Value* total_q = nullptr;
  Value* heads_q = nullptr;
  Value* group = nullptr;
  Strides q_strides;
  Strides k_strides;
  Strides v_strides;
  Strides o_strides;
};

// The buffer resources over the workgroup's Q, K, V and O sequences.
struct Views {
  Value* q = nullptr;
  Value* k = nullptr;
  Value* v = nullptr;
  Value* o = nullptr;
};

// One thread's vectors of a K / V block, loaded and not yet stored to LDS.
struct KvValues {
  Values k;
  Values v;
};

// Declare one tensor's stride arguments: {tensor}_stride_b (batched only), _s, _h.
Strides strides_of(Builder& b, const AttentionFwdSpec& spec, const std::string& tensor) {
  Value* batch = spec.seq_mode == "batched" ? b.param(tensor + "_stride_b", ir::i32) : nullptr;
  Value* seq = b.param(tensor + "_stride_s", ir::i32);
  Value* head = b.param(tensor + "_stride_h", ir::i32);
  return Strides{batch, seq, head};
}

// Declare the kernel arguments in launch-contract order.
Params kernel_params(Builder& b, const AttentionFwdSpec& spec) {
  Type elem = helpers::ir_type(spec.dtype);
  bool batched = spec.seq_mode == "batched";
  bool varlen = spec.seq_mode == "varlen";
  const ir::ParamOpts input{.noalias = true, .readonly = true};
  const ir::ParamOpts output{.noalias = true, .writeonly = true};
  return Params{
      .q = b.param("q", ir::ptr(elem, "global"), input),
      .k = b.param("k", ir::ptr(elem, "global"), input),
      .v = b.param("v", ir::ptr(elem, "global"), input),
      .o = b.param("o", ir::ptr(elem, "global"), output),
      .lse = b.param("lse", ir::ptr(ir::f32, "global"), output),
      .cu_seqlens_q = varlen ? b.param("cu_seqlens_q", ir::ptr(ir::i32, "global"), input) : nullptr,
      .cu_seqlens_k = varlen ? b.param("cu_seqlens_k", ir::ptr(ir::i32, "global"), input) : nullptr,
      .scale = b.param("scale", ir::f32),
      .batch = b.param("batch", ir::i32),
      .seqlen_q = batched ? b.param("seqlen_q", ir::i32) : nullptr,
      .seqlen_k = batched ? b.param("seqlen_k", ir::i32) : nullptr,
      .total_q = varlen ? b.param("total_q", ir::i32) : nullptr,
      .heads_q = b.param("heads_q", ir::i32),
      .group = b.param("group", ir::i32),
      .q_strides = strides_of(b, spec, "q"),
      .k_strides = strides_of(b, spec, "k"),
      .v_strides = strides_of(b, spec, "v"),
      .o_strides = strides_of(b, spec, "o"),
  };
}

// The kernel arguments common::decode_work reads, by name.
common::Params work_args(const AttentionFwdSpec& spec, const Params& params) {
  common::Params args{{"batch", params.batch}, {"heads_q", params.heads_q}, {"group", params.group}};
  if (spec.seq_mode == "batched") {
    args["seqlen_q"] = params.seqlen_q;
    args["seqlen_k"] = params.seqlen_k;
  } else {
    args["cu_seqlens_q"] = params.cu_seqlens_q;
    args["cu_seqlens_k"] = params.cu_seqlens_k;
  }
  return args;
}

// The buffer resource over the workgroup's sequence of one tensor (is_q: Q or O, else K or V).
Value* view(Builder& b, const AttentionFwdSpec& spec, const Work& work, Value* base, const Strides& strides, bool is_q,
            const std::string& name) {
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* head = is_q ? work.head : work.kv_head;
  Value* seqlen = is_q ? work.seqlen_q : work.seqlen_k;
  Value* start = is_q ? work.q_start : work.k_start;
  Value* batch_offset = nullptr;
  if (spec.seq_mode == "batched") batch_offset = b.mul(work.batch, strides.b);
  auto [row0, rsrc] = common::seq_view(b, base, batch_offset, start, strides.s, head, strides.h, seqlen, spec.head_dim,
                                       esize, name);
  return rsrc;
}

// frags[step][rep]: the Q^T (B operand) fragments of the wave's rows, from global memory.
std::vector<Values> load_q(Builder& b, const AttentionFwdSpec& spec, const AttentionPlan& plan, Value* rsrc,
                           Value* stride_s, Value* lane, Value* row0, Value* seqlen_q, Type elem) {
  const arch::MmaOp& op = *plan.op;
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* d_lane = helpers::emit_lane_part(b, plan.q_row.lane_part, lane);
  Value* q_lane = helpers::emit_lane_part(b, plan.q_col.lane_part, lane);
  auto pieces = runs(plan.q_row.slot_offsets, kMaxAccessElems);
  Values oks;
  Values lines;
  for (std::int64_t rep = 0; rep < plan.q_reps; ++rep) {
    Value* first_row = add_i32(b, row0, rep * op.n);
    Value* row = b.add(first_row, q_lane, "q_row");
    oks.push_back(b.cmpi("slt", row, seqlen_q));
    Value* scaled = b.mul(row, stride_s);
    lines.push_back(b.add(scaled, d_lane));
  }
  std::vector<Values> frags;
  for (std::int64_t step = 0; step < plan.qk_steps; ++step) {
    Values row_frags;
    for (std::int64_t rep = 0; rep < plan.q_reps; ++rep) {
      Value* ok = oks[at(rep)];
      Value* line = lines[at(rep)];
      Value* frag = b.splat(b.const_(0.0, elem), op.b.length);
      for (auto [first, count] : pieces) {
        Value* index = add_i32(b, line, step * op.k + plan.q_row.slot_offsets[at(first)]);
        Value* offset = helpers::masked_offset(b, ok, index, esize);
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

// frags[step][rep]: the Q (A operand) fragments of the wave's rows (S = Q K^T), from global memory;
// an A slot's query is the lane's plus the slot's offset (plan.q_col).
std::vector<Values> load_q_rows(Builder& b, const AttentionFwdSpec& spec, const AttentionPlan& plan, Value* rsrc,
                                Value* stride_s, Value* lane, Value* row0, Value* seqlen_q, Type elem) {
  const arch::MmaOp& op = *plan.op;
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* d_lane = helpers::emit_lane_part(b, plan.q_row.lane_part, lane);
  Value* q_lane = helpers::emit_lane_part(b, plan.q_col.lane_part, lane);
  std::set<std::int64_t> offset_set(plan.q_col.slot_offsets.begin(), plan.q_col.slot_offsets.end());
  std::vector<std::int64_t> offsets(offset_set.begin(), offset_set.end());
  std::int64_t classes = static_cast<std::int64_t>(offsets.size());
  Values oks;
  Values lines;
  for (std::int64_t rep = 0; rep < plan.q_reps; ++rep) {
    for (std::int64_t offset : offsets) {
      Value* first_row = add_i32(b, row0, rep * op.m + offset);
      Value* row = b.add(first_row, q_lane, "q_row");
      oks.push_back(b.cmpi("slt", row, seqlen_q));
      Value* scaled = b.mul(row, stride_s);
      lines.push_back(b.add(scaled, d_lane));
    }
  }
  std::vector<std::vector<std::int64_t>> class_slots;
  for (std::int64_t offset : offsets) {
    std::vector<std::int64_t> slots;
    for (std::int64_t slot = 0; slot < op.a.length; ++slot) {
      if (plan.q_col.slot_offsets[at(slot)] == offset) slots.push_back(slot);
    }
    class_slots.push_back(std::move(slots));
  }
  std::vector<Values> frags;
  for (std::int64_t step = 0; step < plan.qk_steps; ++step) {
    Values row_frags;
    for (std::int64_t rep = 0; rep < plan.q_reps; ++rep) {
      Value* frag = b.splat(b.const_(0.0, elem), op.a.length);
      for (std::int64_t oi = 0; oi < classes; ++oi) {
        std::int64_t idx = rep * classes + oi;
        const std::vector<std::int64_t>& slots = class_slots[at(oi)];
        std::vector<std::int64_t> d_offsets;
        for (std::int64_t slot : slots) d_offsets.push_back(plan.q_row.slot_offsets[at(slot)]);
        for (auto [first, count] : runs(d_offsets, kMaxAccessElems)) {
          Value* index = add_i32(b, lines[at(idx)], step * op.k + plan.q_row.slot_offsets[at(slots[at(first)])]);
          Value* offset_at = helpers::masked_offset(b, oks[at(idx)], index, esize);
          Value* part = b.buffer_load(rsrc, offset_at, helpers::vector_type(elem, count));
          for (std::int64_t j = 0; j < count; ++j) {
            Value* element = count == 1 ? part : b.extract(part, j);
            frag = b.insert(frag, element, slots[at(first + j)]);
          }
        }
      }
      row_frags.push_back(frag);
    }
    frags.push_back(std::move(row_frags));
  }
  return frags;
}

// One thread's share of the K / V tile copy, set up once before the key loop.
class KvCopy {
 public:
  KvCopy(Builder& b, const AttentionPlan& plan, Value* tid, Value* k_stride, Value* v_stride)
      : plan_(plan), k_stride_(k_stride), v_stride_(v_stride) {
    for (std::int64_t i = 0; i < plan.copy.per_thread; ++i) {
      auto [line, first] = helpers::tile_access(b, plan.copy, tid, i);
      lines_.push_back(line);
      firsts_.push_back(first);
      Value* k_rows = b.mul(line, k_stride);
      k_bases_.push_back(b.add(k_rows, first, "k_index"));
      Value* v_rows = b.mul(line, v_stride);
      v_bases_.push_back(b.add(v_rows, first, "v_index"));
    }
  }

  // This thread's vectors of the key block at k0 (keys past seqlen_k read 0).
  KvValues load(Builder& b, const Views& views, Value* k0, Value* seqlen_k, Type elem) const {
    std::int64_t esize = elem.bits() / 8;
    Type vtype = helpers::vector_type(elem, plan_.copy.vec);
    Value* k_shift = b.mul(k0, k_stride_);
    Value* v_shift = b.mul(k0, v_stride_);
    KvValues values;
    for (std::int64_t i = 0; i < plan_.copy.per_thread; ++i) {
      Value* key = b.add(k0, lines_[at(i)]);
      Value* ok = b.cmpi("slt", key, seqlen_k);
      Value* k_index = b.add(k_bases_[at(i)], k_shift);
      Value* k_offset = helpers::masked_offset(b, ok, k_index, esize);
      values.k.push_back(b.buffer_load(views.k, k_offset, vtype, "k_vals"));
      Value* v_index = b.add(v_bases_[at(i)], v_shift);
      Value* v_offset = helpers::masked_offset(b, ok, v_index, esize);
      values.v.push_back(b.buffer_load(views.v, v_offset, vtype, "v_vals"));
    }
    return values;
  }

  // Write the vectors into the K tile ([key][head_dim + pad]) and the V^T tile ([head_dim][key + pad]),
  // at the element offsets k_stage / v_stage of a stage (nullptr: stage 0).
  void store(Builder& b, Value* k_lds, Value* v_lds, Value* k_stage, Value* v_stage, const KvValues& values,
             Type elem) const {
    std::int64_t vec = plan_.copy.vec;
    std::int64_t esize = elem.bits() / 8;
    std::vector<std::int64_t> k_multiples{plan_.k_tile.stride(), vec};
    if (k_stage != nullptr) k_multiples.push_back(plan_.k_tile.stage_elems());
    std::int64_t k_align = vec == 1 ? 0 : helpers::guaranteed_align(esize, vec * esize, k_multiples);
    for (std::int64_t i = 0; i < plan_.copy.per_thread; ++i) {
      Value* k_line = mul_i32(b, lines_[at(i)], plan_.k_tile.stride());
      Value* k_index = b.add(k_line, firsts_[at(i)]);
      if (k_stage != nullptr) k_index = b.add(k_index, k_stage);
      b.lds_store(k_lds, k_index, values.k[at(i)], {.align = k_align});
      Value* v_line = mul_i32(b, firsts_[at(i)], plan_.v_tile.stride());
      Value* v_index = b.add(v_line, lines_[at(i)]);
      if (v_stage != nullptr) v_index = b.add(v_index, v_stage);
      for (std::int64_t j = 0; j < vec; ++j) {
        Value* element = vec == 1 ? values.v[at(i)] : b.extract(values.v[at(i)], j);
        Value* index = add_i32(b, v_index, j * plan_.v_tile.stride());
        b.lds_store(v_lds, index, element);
      }
    }
  }

 private:
  const AttentionPlan& plan_;
  Value* k_stride_;
  Value* v_stride_;
  Values lines_;
  Values firsts_;
  Values k_bases_;  // element index of the K access at key block 0
  Values v_bases_;
};

// acc[key_rep][q_rep]: S^T = K Q^T of the key block, in f32.
std::vector<Values> scores_of(Builder& b, const AttentionPlan& plan, Value* k_lds, const Values& k_bases,
                              const std::vector<std::int64_t>& k_multiples, const std::vector<Values>& qfrags,
                              Type elem) {
  const arch::MmaOp& op = *plan.op;
  Value* zero = f32_const(b, 0.0, op.c.length, "s_acc");
  std::vector<Values> accs(at(plan.key_reps), Values(at(plan.q_reps), zero));
  for (std::int64_t step = 0; step < plan.qk_steps; ++step) {
    for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
      Value* kfrag = helpers::load_fragment(b, k_lds, k_bases[at(rk)], plan.k_frag, step * op.k, elem, k_multiples,
                                             "k_frag");
      for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
        Value*& acc = accs[at(rk)][at(rq)];
        if (plan.rows) {
          acc = b.mma(op.id, qfrags[at(step)][at(rq)], kfrag, acc, "s");
        } else {
          acc = b.mma(op.id, kfrag, qfrags[at(step)][at(rq)], acc, "s");
        }
      }
    }
  }
  return accs;
}

// frags[step][q_rep]: P^T as the B operand of O^T += V^T P^T, rounded to the input dtype.
// probs[q_rep][key_rep][slot] are the f32 probabilities in the S^T C layout.
std::vector<Values> p_operands(Builder& b, const AttentionPlan& plan, const std::vector<std::vector<Values>>& probs,
                               Value* p_lds, const Values& p_store_bases, const Values& p_load_bases, Type elem) {
  const arch::MmaOp& op = *plan.op;
  std::vector<std::vector<Values>> rounded;
  for (const auto& reps : probs) {
    std::vector<Values> per_rep;
    for (const Values& slots : reps) {
      Values out;
      for (Value* p : slots) out.push_back(b.truncf(p, elem));
      per_rep.push_back(std::move(out));
    }
    rounded.push_back(std::move(per_rep));
  }
  std::vector<Values> frags;
  if (plan.chain) {
    for (std::int64_t step = 0; step < plan.pv_steps; ++step) {
      Values row;
      for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
        row.push_back(helpers::chain_fragment(b, *plan.chain, step, rounded[at(rq)], elem, "p_frag"));
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
      helpers::store_fragment(b, p_lds, p_store_bases[at(rq)], *plan.p_store, rk * op.m, frag, elem, {});
    }
  }
  b.barrier();
  for (std::int64_t step = 0; step < plan.pv_steps; ++step) {
    Values row;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
      row.push_back(
          helpers::load_fragment(b, p_lds, p_load_bases[at(rq)], *plan.p_load, step * op.k, elem, {}, "p_frag"));
    }
    frags.push_back(std::move(row));
  }
  return frags;
}

// O = O^T / l in the input dtype and LSE (natural log) of every row inside the sequence.
void epilogue(Builder& b, const AttentionFwdSpec& spec, const AttentionPlan& plan, const Params& params,
              const Work& work, const Views& views, Value* lane, const Values& rows,
              const std::vector<Values>& accs, const Values& ms, const Values& ls) {
  const arch::MmaOp& op = *plan.op;
  Type elem = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Value* o_rsrc = views.o;
  const helpers::SplitFormula& d_form = plan.rows ? plan.c_col : plan.c_row;  // the C formula of the head_dim index
  std::int64_t d_atom = plan.rows ? op.n : op.m;
  Value* d_lane = helpers::emit_lane_part(b, d_form.lane_part, lane);
  std::int64_t classes = static_cast<std::int64_t>(plan.col_offsets.size());
  Value* lse_rows = nullptr;
  Value* lse_count = nullptr;
  if (spec.seq_mode == "batched") {
    Value* heads = b.mul(work.batch, params.heads_q);
    Value* seq = b.add(heads, work.head);
    lse_rows = b.mul(seq, work.seqlen_q);
    Value* all_heads = b.mul(params.batch, params.heads_q);
    lse_count = b.mul(all_heads, work.seqlen_q);
  } else {
    Value* head_rows = b.mul(work.head, params.total_q);
    lse_rows = b.add(head_rows, work.q_start);
    lse_count = b.mul(params.heads_q, params.total_q);
  }
  Value* lse_bytes = mul_i32(b, lse_count, 4);
  Value* lse_rsrc = b.make_rsrc(params.lse, lse_bytes, "lse_rsrc");
  std::int64_t leader_bits = 0;
  for (std::int64_t mask : plan.group) leader_bits |= mask;
  Value* bits = const_i32(b, leader_bits);
  Value* low = b.and_(lane, bits);
  Value* leader = b.cmpi("eq", low, const_i32(b, 0), "leader");
  for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
    for (std::int64_t ci = 0; ci < classes; ++ci) {
      const std::vector<std::int64_t>& slots = plan.col_slots[at(ci)];
      std::int64_t idx = rq * classes + ci;
      auto [inv, lse] = common::finalize(b, ms[at(idx)], ls[at(idx)], plan.group);
      Value* row = rows[at(idx)];
      Value* ok = b.cmpi("slt", row, work.seqlen_q, "row_ok");
      Value* row_at = b.mul(row, params.o_strides.s);
      Value* line = b.add(row_at, d_lane);
      std::vector<std::int64_t> slot_offsets;
      for (std::int64_t slot : slots) slot_offsets.push_back(d_form.slot_offsets[at(slot)]);
      auto pieces = runs(slot_offsets, kMaxAccessElems);
      for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
        Value* inv_v = b.splat(inv, op.c.length);
        Value* scaled = b.mul(accs[at(rd)][at(rq)], inv_v, "o");
        for (auto [first, count] : pieces) {
          Value* index = add_i32(b, line, rd * d_atom + d_form.slot_offsets[at(slots[at(first)])]);
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
          b.buffer_store(o_rsrc, offset, value);
        }
      }
      Value* lse_ok = b.and_(ok, leader);
      Value* lse_index = b.add(lse_rows, row);
      Value* lse_offset = helpers::masked_offset(b, lse_ok, lse_index, 4);
      b.buffer_store(lse_rsrc, lse_offset, lse);
    }
  }
}

}  // namespace

ir::KernelDef build(const AttentionFwdSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  AttentionPlan plan = plan_attention(spec, target);
  const arch::MmaOp& op = *plan.op;
  Type elem = helpers::ir_type(spec.dtype);
  const std::string& mask = spec.mask;
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Params params = kernel_params(b, spec);
  Value* k_lds = helpers::alloc_tile(b, plan.k_tile, elem, "k_lds");
  Value* v_lds = helpers::alloc_tile(b, plan.v_tile, elem, "vt_lds");
  Value* p_lds = plan.p_tile ? helpers::alloc_tile(b, *plan.p_tile, elem, "p_lds") : nullptr;

  Value* tid = b.thread_id_x("tid");
  Value* lane = b.lane_id("lane");
  Value* wave = b.wave_id("wave");
  Work work = common::decode_work(b, spec.seq_mode, spec.block_m, work_args(spec, params));
  const Views views{
      .q = view(b, spec, work, params.q, params.q_strides, true, "q"),
      .k = view(b, spec, work, params.k, params.k_strides, false, "k"),
      .v = view(b, spec, work, params.v, params.v_strides, false, "v"),
      .o = view(b, spec, work, params.o, params.o_strides, true, "o"),
  };
  Value* scale = params.scale;
  Value* scale2 = b.mul(scale, f32_const(b, common::kLog2e, 1), "scale_log2");
  Value* wave_row0 = mul_i32(b, wave, spec.wave_rows(), "wave_row0");
  Value* block_row0 = b.add(work.q0, wave_row0, "row0");
  std::vector<Values> qfrags =
      plan.rows ? load_q_rows(b, spec, plan, views.q, params.q_strides.s, lane, block_row0, work.seqlen_q, elem)
                : load_q(b, spec, plan, views.q, params.q_strides.s, lane, block_row0, work.seqlen_q, elem);

  // The C formulas of the key and the query (S^T: rows and columns; S: columns and rows) and the
  // extents of an atom along the queries, the keys of S and head_dim of O.
  const helpers::SplitFormula& key_form = plan.rows ? plan.c_col : plan.c_row;
  const helpers::SplitFormula& query_form = plan.rows ? plan.c_row : plan.c_col;
  std::int64_t q_atom = plan.rows ? op.m : op.n;
  std::int64_t key_atom = plan.rows ? op.n : op.m;
  std::int64_t d_atom = plan.rows ? op.n : op.m;
  Value* key_lane = helpers::emit_lane_part(b, key_form.lane_part, lane);
  Value* q_lane = helpers::emit_lane_part(b, query_form.lane_part, lane);
  std::int64_t classes = static_cast<std::int64_t>(plan.col_offsets.size());
  Values rows;  // per query repeat and class
  for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
    for (std::int64_t offset : plan.col_offsets) {
      Value* first_row = add_i32(b, block_row0, rq * q_atom + offset);
      rows.push_back(b.add(first_row, q_lane, "row"));
    }
  }
  Values rooms;
  for (Value* row : rows) {
    Value* limit = common::visible_limit(b, mask, row, work.seqlen_q, work.seqlen_k);
    rooms.push_back(b.sub(limit, key_lane, "room"));
  }
  const KvCopy copy(b, plan, tid, params.k_strides.s, params.v_strides.s);
  Values k_bases;
  for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
    Value* line0 = const_i32(b, rk * key_atom);
    k_bases.push_back(helpers::fragment_base(b, plan.k_frag, lane, line0, "k_frag_base"));
  }
  Values v_bases;
  for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
    Value* line0 = const_i32(b, rd * d_atom);
    v_bases.push_back(helpers::fragment_base(b, plan.v_frag, lane, line0, "vt_frag_base"));
  }
  Values p_store_bases;
  Values p_load_bases;
  if (plan.p_store && plan.p_load) {
    Values lines;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) lines.push_back(add_i32(b, wave_row0, rq * op.n));
    for (Value* line : lines) {
      p_store_bases.push_back(helpers::fragment_base(b, *plan.p_store, lane, line, "p_store_base"));
    }
    for (Value* line : lines) p_load_bases.push_back(helpers::fragment_base(b, *plan.p_load, lane, line, "p_load_base"));
  }
  Value* blocks = common::key_blocks(b, mask, work.q0, spec.block_m, spec.block_n, work.seqlen_q, work.seqlen_k);

  Value* o_zero = f32_const(b, 0.0, op.c.length, "o_acc");
  std::int64_t count_o = plan.d_reps * plan.q_reps;
  Values inits(at(count_o), o_zero);
  Value* m0 = f32_const(b, kNegInf, 1, "m");
  std::int64_t count_rows = plan.q_reps * classes;
  inits.insert(inits.end(), at(count_rows), m0);
  Value* l0 = f32_const(b, 0.0, 1, "l");
  inits.insert(inits.end(), at(count_rows), l0);

  std::vector<std::int64_t> k_multiples;
  std::vector<std::int64_t> v_multiples;
  if (spec.double_buffer) {
    k_multiples.push_back(plan.k_tile.stage_elems());
    v_multiples.push_back(plan.v_tile.stage_elems());
    KvValues first = copy.load(b, views, const_i32(b, 0), work.seqlen_k, elem);
    copy.store(b, k_lds, v_lds, nullptr, nullptr, first, elem);
    b.barrier();
  }

  auto body = [&](Value* kt, const Values& carried) -> Values {
    std::vector<Values> o_accs;
    for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
      o_accs.emplace_back(carried.begin() + rd * plan.q_reps, carried.begin() + (rd + 1) * plan.q_reps);
    }
    Values ms(carried.begin() + count_o, carried.begin() + count_o + count_rows);
    Values ls(carried.begin() + count_o + count_rows, carried.end());
    Value* k0 = mul_i32(b, kt, spec.block_n, "k0");
    Values k_now = k_bases;
    Values v_now = v_bases;
    Value* stage = nullptr;
    KvValues values;
    if (spec.double_buffer) {
      // Block kt sits in stage kt & 1 (the previous iteration copied it); load block kt + 1 now,
      // store it into the other stage after the products of block kt.
      stage = b.and_(kt, const_i32(b, 1), "stage");
      Value* next_k0 = add_i32(b, k0, spec.block_n, "next_k0");
      values = copy.load(b, views, next_k0, work.seqlen_k, elem);
      Value* k_offset = mul_i32(b, stage, plan.k_tile.stage_elems(), "k_stage");
      Value* v_offset = mul_i32(b, stage, plan.v_tile.stage_elems(), "v_stage");
      for (Value*& base : k_now) base = b.add(base, k_offset);
      for (Value*& base : v_now) base = b.add(base, v_offset);
    } else {
      values = copy.load(b, views, k0, work.seqlen_k, elem);
      copy.store(b, k_lds, v_lds, nullptr, nullptr, values, elem);
      b.barrier();
    }
    std::vector<Values> s_accs = scores_of(b, plan, k_lds, k_now, k_multiples, qfrags, elem);
    std::vector<std::vector<Values>> probs;
    for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
      std::vector<Values> per_rep(at(plan.key_reps), Values(at(op.c.length), nullptr));
      Values alphas;
      for (std::int64_t ci = 0; ci < classes; ++ci) {
        const std::vector<std::int64_t>& slots = plan.col_slots[at(ci)];
        std::int64_t idx = rq * classes + ci;
        Value* room = b.sub(rooms[at(idx)], k0, "room_k0");
        Values scores;
        for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
          for (std::int64_t slot : slots) {
            std::int64_t key = rk * key_atom + key_form.slot_offsets[at(slot)];
            Value* visible = b.cmpi("sle", const_i32(b, key), room);
            Value* raw = b.extract(s_accs[at(rk)][at(rq)], slot);
            Value* value = b.mul(raw, scale2);
            Value* masked = f32_const(b, kNegInf, 1);
            scores.push_back(b.select(visible, value, masked, "score"));
          }
        }
        common::Update update = common::online_update(b, scores, ms[at(idx)], ls[at(idx)], plan.group);
        ms[at(idx)] = update.m_new;
        ls[at(idx)] = update.l_new;
        std::int64_t width = static_cast<std::int64_t>(slots.size());
        for (std::int64_t rk = 0; rk < plan.key_reps; ++rk) {
          for (std::int64_t j = 0; j < width; ++j) per_rep[at(rk)][at(slots[at(j)])] = update.probs[at(rk * width + j)];
        }
        alphas.push_back(update.alpha);
      }
      probs.push_back(std::move(per_rep));
      Value* alpha_v = nullptr;
      if (classes == 1) {
        alpha_v = b.splat(alphas[0], op.c.length, "alpha_v");
      } else {
        alpha_v = b.splat(f32_const(b, 1.0, 1), op.c.length);
        for (std::int64_t ci = 0; ci < classes; ++ci) {
          for (std::int64_t slot : plan.col_slots[at(ci)]) alpha_v = b.insert(alpha_v, alphas[at(ci)], slot, "alpha_v");
        }
      }
      for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
        o_accs[at(rd)][at(rq)] = b.mul(o_accs[at(rd)][at(rq)], alpha_v, "o_acc");
      }
    }
    std::vector<Values> pfrags = p_operands(b, plan, probs, p_lds, p_store_bases, p_load_bases, elem);
    for (std::int64_t step = 0; step < plan.pv_steps; ++step) {
      for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
        Value* vfrag =
            helpers::load_fragment(b, v_lds, v_now[at(rd)], plan.v_frag, step * op.k, elem, v_multiples, "vt_frag");
        for (std::int64_t rq = 0; rq < plan.q_reps; ++rq) {
          Value*& acc = o_accs[at(rd)][at(rq)];
          if (plan.rows) {
            acc = b.mma(op.id, pfrags[at(step)][at(rq)], vfrag, acc, "o_acc");
          } else {
            acc = b.mma(op.id, vfrag, pfrags[at(step)][at(rq)], acc, "o_acc");
          }
        }
      }
    }
    if (stage != nullptr) {
      Value* other = b.xor_(stage, const_i32(b, 1), "next_stage");
      Value* k_next = mul_i32(b, other, plan.k_tile.stage_elems(), "k_next");
      Value* v_next = mul_i32(b, other, plan.v_tile.stage_elems(), "v_next");
      copy.store(b, k_lds, v_lds, k_next, v_next, values, elem);
    }
    b.barrier();
    Values out;
    for (const Values& accs : o_accs) out.insert(out.end(), accs.begin(), accs.end());
    out.insert(out.end(), ms.begin(), ms.end());
    out.insert(out.end(), ls.begin(), ls.end());
    return out;
  };

  ir::Names names(at(count_o), "o_acc");
  names.insert(names.end(), at(count_rows), "m");
  names.insert(names.end(), at(count_rows), "l");
  Value* lb = const_i32(b, 0);
  Value* step = const_i32(b, 1);
  Values out = b.for_(lb, blocks, step, inits, body, {.names = names, .iv_name = "kt"});
  std::vector<Values> o_accs;
  for (std::int64_t rd = 0; rd < plan.d_reps; ++rd) {
    o_accs.emplace_back(out.begin() + rd * plan.q_reps, out.begin() + (rd + 1) * plan.q_reps);
  }
  Values ms(out.begin() + count_o, out.begin() + count_o + count_rows);
  Values ls(out.begin() + count_o + count_rows, out.end());
  epilogue(b, spec, plan, params, work, views, lane, rows, o_accs, ms, ls);
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(AttentionFwdSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::attention::attention_fwd
