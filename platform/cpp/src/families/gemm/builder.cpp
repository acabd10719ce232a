// Python twin: rocke/families/gemm/builder.py
#include "rocke/families/gemm/builder.hpp"

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke/families/gemm/plan.hpp"
#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/tiles.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/ir/types.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::gemm {

namespace {

using helpers::add_i32;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

// The kernel's parameters, in signature order (bias is nullptr without spec.bias).
struct Params {
  Value* a = nullptr;
  Value* b = nullptr;
  Value* c = nullptr;
  Value* bias = nullptr;
  Value* m = nullptr;
  Value* n = nullptr;
  Value* k = nullptr;
  Value* alpha = nullptr;
};

// One thread's accesses of an operand copy, set up once before the K loop.
//
// k-contiguous operand (access = vec consecutive k of one line o):
//     index(k0) = gbase + k0, valid(k0) = line_ok ? kcap - k0 : 0, LDS o * stride + kc
// outer-contiguous operand (access = vec consecutive o at one k row kr):
//     index(k0) = (kr + k0) * outer_size + gbase, valid(k0) = kr + k0 < K ? ocap : 0,
//     LDS (o + j) * stride + kr for element j
class Copy {
 public:
  Copy(Builder& b, const OperandPlan& plan, Value* tid, Value* origin, Value* outer_size, Value* k)
      : plan(plan), outer_size_(outer_size), k_(k) {
    std::int64_t stride = plan.tile.stride();
    for (std::int64_t i = 0; i < plan.split.per_thread; ++i) {
      auto [line, first] = helpers::tile_access(b, plan.split, tid, i);
      if (plan.k_contiguous) {
        Value* outer = b.add(origin, line);
        gbase_.push_back(b.add(b.mul(outer, k), first, plan.name + "_gbase"));
        cap_.push_back(b.sub(k, first, plan.name + "_kcap"));
        line_ok_.push_back(b.cmpi("slt", outer, outer_size));
        lds_index_.push_back(b.add(mul_i32(b, line, stride), first, plan.name + "_lds"));
      } else {
        Value* outer = b.add(origin, first);
        gbase_.push_back(outer);
        cap_.push_back(b.sub(outer_size, outer, plan.name + "_ocap"));
        krow_.push_back(line);
        lds_index_.push_back(b.add(mul_i32(b, first, stride), line, plan.name + "_lds"));
      }
    }
  }

  // This thread's vectors of the K tile starting at k0 (nullptr: the first tile).
  Values load(Builder& b, Value* rsrc, Value* k0, Type elem) const {
    Values values;
    for (std::size_t i = 0; i < static_cast<std::size_t>(plan.split.per_thread); ++i) {
      Value* index = nullptr;
      Value* valid = nullptr;
      if (plan.k_contiguous) {
        index = k0 == nullptr ? gbase_[i] : b.add(gbase_[i], k0);
        valid = helpers::valid_if(b, line_ok_[i], k0 == nullptr ? cap_[i] : b.sub(cap_[i], k0));
      } else {
        Value* kr = k0 == nullptr ? krow_[i] : b.add(krow_[i], k0);
        index = b.add(b.mul(kr, outer_size_), gbase_[i]);
        valid = helpers::valid_if(b, b.cmpi("slt", kr, k_), cap_[i]);
      }
      values.push_back(helpers::load_guarded(b, rsrc, index, valid, elem, plan.split.vec, plan.name + "_vals"));
    }
    return values;
  }

  // Write the vectors into the LDS stage starting at element stage_base (nullptr: stage 0).
  void store(Builder& b, Value* lds, Value* stage_base, const Values& values, std::int64_t esize) const {
    const helpers::PaddedTile& tile = plan.tile;
    std::int64_t vec = plan.split.vec;
    for (std::size_t i = 0; i < values.size(); ++i) {
      Value* value = values[i];
      Value* index = stage_base == nullptr ? lds_index_[i] : b.add(lds_index_[i], stage_base);
      if (plan.k_contiguous) {
        std::int64_t align =
            vec == 1 ? 0 : helpers::guaranteed_align(esize, vec * esize, {tile.stride(), vec, tile.stage_elems()});
        b.lds_store(lds, index, value, {.align = align});
        continue;
      }
      for (std::int64_t j = 0; j < vec; ++j) {
        Value* element = vec == 1 ? value : b.extract(value, j);
        Value* at = add_i32(b, index, j * tile.stride());
        b.lds_store(lds, at, element);
      }
    }
  }

  const OperandPlan& plan;

 private:
  Value* outer_size_;
  Value* k_;
  Values gbase_;
  Values cap_;
  Values line_ok_;  // k-contiguous only
  Values krow_;     // outer-contiguous only
  Values lds_index_;
};

// Per repeat r: the LDS element index of slot 0 of this lane's fragment in stage 0.
Values fragment_bases(Builder& b, const OperandPlan& plan, Value* lane, Value* wave_origin, std::int64_t reps,
                      std::int64_t atom) {
  Values bases;
  for (std::int64_t r = 0; r < reps; ++r) {
    bases.push_back(helpers::fragment_base(b, plan.frag, lane, add_i32(b, wave_origin, r * atom), plan.name + "_frag"));
  }
  return bases;
}

// Every MMA of one K tile: per atom-k step, load the fragments, then rep_m * rep_n MMAs.
Values mma_tile(Builder& b, const GemmSpec& spec, const GemmPlan& plan, Value* a_lds, Value* b_lds,
                const Values& a_bases, const Values& b_bases, Values accs, Type elem) {
  const arch::MmaOp& op = *plan.op;
  for (std::int64_t kk = 0; kk < spec.bk; kk += op.k) {
    Values afrags;
    for (Value* base : a_bases) {
      afrags.push_back(
          helpers::load_fragment(b, a_lds, base, plan.a.frag, kk, elem, {plan.a.tile.stage_elems()}, "a_frag"));
    }
    Values bfrags;
    for (Value* base : b_bases) {
      bfrags.push_back(
          helpers::load_fragment(b, b_lds, base, plan.b.frag, kk, elem, {plan.b.tile.stage_elems()}, "b_frag"));
    }
    for (std::int64_t rm = 0; rm < plan.rep_m; ++rm) {
      for (std::int64_t rn = 0; rn < plan.rep_n; ++rn) {
        auto i = static_cast<std::size_t>(rm * plan.rep_n + rn);
        accs[i] = b.mma(op.id, afrags[static_cast<std::size_t>(rm)], bfrags[static_cast<std::size_t>(rn)], accs[i],
                        "acc");
      }
    }
  }
  return accs;
}

Values staged(Builder& b, const Values& bases, Value* stage_base) {
  if (stage_base == nullptr) return bases;
  Values out;
  for (Value* base : bases) out.push_back(b.add(base, stage_base));
  return out;
}


// C = alpha * acc (+ bias[col]) for every accumulator element inside M x N.
void epilogue(Builder& b, const GemmSpec& spec, const GemmPlan& plan, const Values& accs, const Params& params,
              Value* lane, Value* row0, Value* col0) {
  const arch::MmaOp& op = *plan.op;
  Type out_t = helpers::ir_type(spec.c_dtype);
  std::int64_t out_size = helpers::elem_bytes(spec.c_dtype);
  Value* m = params.m;
  Value* n = params.n;
  Value* alpha = params.alpha;
  Value* scale = alpha;
  Value* scale_v = b.splat(scale, op.c.length, "alpha_v");
  Value* c_rsrc = helpers::buffer_rsrc(b, params.c, b.mul(m, n), out_size, "c_rsrc");
  Value* row_lane = helpers::emit_lane_part(b, plan.c_row.lane_part, lane);
  Value* col_lane = helpers::emit_lane_part(b, plan.c_col.lane_part, lane);
  Values rows;
  for (std::int64_t rm = 0; rm < plan.rep_m; ++rm) rows.push_back(b.add(add_i32(b, row0, rm * op.m), row_lane, "row"));
  Values cols;
  for (std::int64_t rn = 0; rn < plan.rep_n; ++rn) cols.push_back(b.add(add_i32(b, col0, rn * op.n), col_lane, "col"));
  std::map<std::pair<std::int64_t, std::int64_t>, Value*> bias;
  if (spec.bias) {
    Value* bias_rsrc = helpers::buffer_rsrc(b, params.bias, n, out_size, "bias_rsrc");
    for (std::int64_t rn = 0; rn < plan.rep_n; ++rn) {
      for (std::int64_t offset : plan.c_col.slot_offsets) {
        if (!bias.contains({rn, offset})) {
          Value* col = add_i32(b, cols[static_cast<std::size_t>(rn)], offset);
          Value* raw = helpers::load_guarded(b, bias_rsrc, col, b.sub(n, col), out_t, 1, "bias");
          bias[{rn, offset}] = helpers::to_f32(b, raw, out_t, 1);
        }
      }
    }
  }
  for (std::int64_t rm = 0; rm < plan.rep_m; ++rm) {
    for (std::int64_t rn = 0; rn < plan.rep_n; ++rn) {
      Value* scaled = b.mul(accs[static_cast<std::size_t>(rm * plan.rep_n + rn)], scale_v, "scaled");
      for (std::int64_t s = 0; s < op.c.length; ++s) {
        std::int64_t row_offset = plan.c_row.slot_offsets[static_cast<std::size_t>(s)];
        std::int64_t col_offset = plan.c_col.slot_offsets[static_cast<std::size_t>(s)];
        Value* row = add_i32(b, rows[static_cast<std::size_t>(rm)], row_offset);
        Value* col = add_i32(b, cols[static_cast<std::size_t>(rn)], col_offset);
        Value* value = b.extract(scaled, s);
        if (spec.bias) value = b.add(value, bias.at({rn, col_offset}));
        Value* ok = b.cmpi("slt", row, m);
        ok = b.and_(ok, b.cmpi("slt", col, n));
        Value* offset = helpers::masked_offset(b, ok, b.add(b.mul(row, n), col), out_size);
        b.buffer_store(c_rsrc, offset, helpers::from_f32(b, value, out_t, 1, "c_value"));
      }
    }
  }
}

}  // namespace

ir::KernelDef build(const GemmSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  GemmPlan plan = plan_gemm(spec, target);
  const arch::MmaOp& op = *plan.op;
  Type elem = helpers::ir_type(spec.a_dtype);
  std::int64_t esize = helpers::elem_bytes(spec.a_dtype);
  Type out_t = helpers::ir_type(spec.c_dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = plan.threads});
  Params params{
      .a = b.param("a", ir::ptr(elem, "global"), {.noalias = true, .readonly = true}),
      .b = b.param("b", ir::ptr(elem, "global"), {.noalias = true, .readonly = true}),
      .c = b.param("c", ir::ptr(out_t, "global"), {.noalias = true, .writeonly = true}),
      .bias = spec.bias ? b.param("bias", ir::ptr(out_t, "global"), {.noalias = true, .readonly = true}) : nullptr,
      .m = b.param("m", ir::i32),
      .n = b.param("n", ir::i32),
      .k = b.param("k", ir::i32),
      .alpha = b.param("alpha", ir::f32),
  };
  Value* m = params.m;
  Value* n = params.n;
  Value* k = params.k;
  Value* a_lds = helpers::alloc_tile(b, plan.a.tile, elem, "a_lds");
  Value* b_lds = helpers::alloc_tile(b, plan.b.tile, elem, "b_lds");

  Value* tid = b.thread_id_x("tid");
  Value* lane = b.lane_id("lane");
  Value* wave = b.wave_id("wave");
  Value* row0 = mul_i32(b, b.block_id_y(), spec.bm, "row0");
  Value* col0 = mul_i32(b, b.block_id_x(), spec.bn, "col0");
  Value* wave_row = mul_i32(b, helpers::divu_i32(b, wave, spec.wn), plan.wave_tile_m, "wave_row");
  Value* wave_col = mul_i32(b, helpers::remu_i32(b, wave, spec.wn), plan.wave_tile_n, "wave_col");
  Value* a_rsrc = helpers::buffer_rsrc(b, params.a, b.mul(m, k), esize, "a_rsrc");
  Value* b_rsrc = helpers::buffer_rsrc(b, params.b, b.mul(k, n), esize, "b_rsrc");
  const Copy a_copy(b, plan.a, tid, row0, m, k);
  const Copy b_copy(b, plan.b, tid, col0, n, k);
  Values a_bases = fragment_bases(b, plan.a, lane, wave_row, plan.rep_m, op.m);
  Values b_bases = fragment_bases(b, plan.b, lane, wave_col, plan.rep_n, op.n);
  Value* tiles = helpers::ceil_div_i32(b, k, spec.bk, "k_tiles");
  Value* zero = helpers::f32_const(b, 0.0, op.c.length, "acc");
  Values accs0(static_cast<std::size_t>(plan.rep_m * plan.rep_n), zero);

  // Copy the K tile at k0 (nullptr: the first) into LDS stage 0.
  auto copy_tile = [&](Value* k0) {
    Values a_values = a_copy.load(b, a_rsrc, k0, elem);
    Values b_values = b_copy.load(b, b_rsrc, k0, elem);
    a_copy.store(b, a_lds, nullptr, a_values, esize);
    b_copy.store(b, b_lds, nullptr, b_values, esize);
  };

  std::function<Values(Value*, const Values&)> body;
  if (spec.double_buffer) {
    copy_tile(nullptr);
    b.barrier();
    body = [&](Value* kt, const Values& accs) {
      Value* stage = b.and_(kt, helpers::const_i32(b, 1), "stage");
      Value* next_k0 = mul_i32(b, add_i32(b, kt, 1), spec.bk, "next_k0");
      Values a_values = a_copy.load(b, a_rsrc, next_k0, elem);
      Values b_values = b_copy.load(b, b_rsrc, next_k0, elem);
      Values a_staged = staged(b, a_bases, mul_i32(b, stage, plan.a.tile.stage_elems()));
      Values b_staged = staged(b, b_bases, mul_i32(b, stage, plan.b.tile.stage_elems()));
      Values accs_out = mma_tile(b, spec, plan, a_lds, b_lds, a_staged, b_staged, accs, elem);
      Value* other = b.xor_(stage, helpers::const_i32(b, 1), "next_stage");
      a_copy.store(b, a_lds, mul_i32(b, other, plan.a.tile.stage_elems()), a_values, esize);
      b_copy.store(b, b_lds, mul_i32(b, other, plan.b.tile.stage_elems()), b_values, esize);
      b.barrier();
      return accs_out;
    };
  } else {
    body = [&](Value* kt, const Values& accs) {
      copy_tile(mul_i32(b, kt, spec.bk, "k0"));
      b.barrier();
      Values accs_out = mma_tile(b, spec, plan, a_lds, b_lds, a_bases, b_bases, accs, elem);
      b.barrier();
      return accs_out;
    };
  }

  Value* lb = helpers::const_i32(b, 0);
  Value* step = helpers::const_i32(b, 1);
  Values accs = b.for_(lb, tiles, step, accs0, body, {.names = ir::Names(accs0.size(), "acc"), .iv_name = "kt"});
  Value* row_origin = b.add(row0, wave_row);
  Value* col_origin = b.add(col0, wave_col);
  epilogue(b, spec, plan, accs, params, lane, row_origin, col_origin);
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) { return build(GemmSpec::from_kv(kv), arch); }

}  // namespace rocke::families::gemm
