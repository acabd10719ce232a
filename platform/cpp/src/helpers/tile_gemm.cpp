// Python twin: rocke/helpers/tile_gemm.py
#include "rocke/helpers/tile_gemm.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::helpers {

namespace {

using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

std::string str(std::int64_t value) { return std::to_string(value); }

// fail() throws; the C++ side states it so the code after a refusal is unreachable.
[[noreturn]] void refuse(const Fail& fail, std::string_view field, std::string_view rule) {
  fail(field, rule);
  throw std::logic_error("tile_gemm: the fail callback returned");
}

OperandPlan operand(const TileShape& shape, const Fail& fail, const std::string& name, std::int64_t outer,
                    bool k_contiguous, std::int64_t max_vec, std::int64_t stages, std::int64_t threads,
                    bool outer_is_row) {
  std::int64_t esize = elem_bytes(shape.dtype);
  PaddedTile tile{outer, shape.bk, shape.lds_pad, stages};
  std::int64_t max_bytes = std::min<std::int64_t>(16, max_vec * esize);
  std::optional<TileSplit> split;
  if (k_contiguous) {
    split = split_tile(outer, shape.bk, threads, esize, max_bytes);
  } else {
    split = split_tile(shape.bk, outer, threads, esize, max_bytes);
  }
  std::string_view field = name == "a" ? "bm" : "bn";
  std::string upper = name == "a" ? "A" : "B";
  if (!split) {
    refuse(fail, field, util::cat("the ", upper, " tile of ", str(outer), " x ", str(shape.bk),
                                  " elements does not split evenly over ", str(threads), " threads"));
  }
  if (tile.count() > kMaxLdsAllocElems) {
    refuse(fail, field, util::cat("the ", upper, " LDS tile holds ", str(tile.count()),
                                  " elements, over the allocation limit of ", str(kMaxLdsAllocElems)));
  }
  std::optional<FragmentPlan> frag = plan_fragment(*shape.op, name, outer_is_row, tile.stride());
  if (!frag) refuse(fail, "op_id", util::cat("has a ", upper, " fragment layout that is not lane/slot separable"));
  return OperandPlan{
      .name = name, .k_contiguous = k_contiguous, .tile = tile, .split = *split, .frag = std::move(*frag)};
}

// One thread's accesses of an operand copy, set up once before the K loop; LDS element of access
// (o, k): o * stride + k (k-contiguous: the vector's elements at + 0, 1, ...; else at + j * stride).
class Copy {
 public:
  Copy(Builder& b, const OperandPlan& plan, const OperandAddress& gen, Value* tid) : plan_(plan), gen_(gen) {
    std::int64_t stride = plan.tile.stride();
    for (std::int64_t i = 0; i < plan.split.per_thread; ++i) {
      auto [line, first] = tile_access(b, plan.split, tid, i);
      if (plan.k_contiguous) {
        states_.push_back(gen.setup(b, line, first));
        lds_index_.push_back(b.add(mul_i32(b, line, stride), first, plan.name + "_lds"));
      } else {
        states_.push_back(gen.setup(b, first, line));
        lds_index_.push_back(b.add(mul_i32(b, first, stride), line, plan.name + "_lds"));
      }
    }
  }

  // This thread's vectors of the K tile starting at k0 (nullptr: the first tile).
  Values load(Builder& b, Value* k0, Type elem) const {
    Values values;
    for (const Values& state : states_) {
      auto [index, valid] = gen_.address(b, state, k0);
      values.push_back(load_guarded(b, gen_.rsrc(), index, valid, elem, plan_.split.vec, plan_.name + "_vals"));
    }
    return values;
  }

  // Write the vectors into the LDS stage starting at element stage_base (nullptr: stage 0).
  void store(Builder& b, Value* lds, Value* stage_base, const Values& values, std::int64_t esize) const {
    const PaddedTile& tile = plan_.tile;
    std::int64_t vec = plan_.split.vec;
    for (std::size_t i = 0; i < values.size(); ++i) {
      Value* value = values[i];
      Value* index = stage_base == nullptr ? lds_index_[i] : b.add(lds_index_[i], stage_base);
      if (plan_.k_contiguous) {
        std::int64_t align =
            vec == 1 ? 0 : guaranteed_align(esize, vec * esize, {tile.stride(), vec, tile.stage_elems()});
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

 private:
  const OperandPlan& plan_;
  const OperandAddress& gen_;
  std::vector<Values> states_;
  Values lds_index_;
};

Values staged(Builder& b, const Values& bases, Value* stage_base) {
  if (stage_base == nullptr) return bases;
  Values out;
  for (Value* base : bases) out.push_back(b.add(base, stage_base));
  return out;
}

}  // namespace

TileGemmPlan plan_tile_gemm(const TileShape& shape, const arch::ArchTarget& target, const Fail& fail) {
  const arch::MmaOp& op = *shape.op;
  if (!target.mma_signature(op.id)) {
    refuse(fail, "op_id",
           util::cat("is not available on ", target.name, " (it runs on ", util::join(op.archs, ", "), ")"));
  }
  std::int64_t threads = shape.wm * shape.wn * op.wave_size;
  if (threads > target.max_workgroup_size) {
    refuse(fail, "wm", util::cat("wm * wn = ", str(shape.wm * shape.wn), " waves of ", str(op.wave_size),
                                 " lanes exceed the ", str(target.max_workgroup_size),
                                 "-thread workgroup limit of ", target.name));
  }
  std::int64_t stages = shape.double_buffer ? 2 : 1;
  OperandPlan a = operand(shape, fail, "a", shape.bm, shape.a_k_contiguous, shape.a_max_vec, stages, threads, true);
  OperandPlan b = operand(shape, fail, "b", shape.bn, shape.b_k_contiguous, shape.b_max_vec, stages, threads, false);
  std::int64_t esize = elem_bytes(shape.dtype);
  std::int64_t lds_bytes = a.tile.nbytes(esize) + b.tile.nbytes(esize);
  if (lds_bytes > target.lds_bytes) {
    refuse(fail, "bk", util::cat("the LDS tiles need ", str(lds_bytes), " bytes (", str(stages), " stage(s) of (",
                                 str(shape.bm), " + ", str(shape.bn), ") x (", str(shape.bk), " + ",
                                 str(shape.lds_pad), ") ", shape.dtype, "), over the ", str(target.lds_bytes),
                                 " bytes of ", target.name));
  }
  std::optional<SplitFormula> c_row = split_formula(op.c.row_expr, op.wave_size, op.c.length);
  std::optional<SplitFormula> c_col = split_formula(op.c.col_expr, op.wave_size, op.c.length);
  if (!c_row || !c_col) refuse(fail, "op_id", "has a C fragment layout that is not lane/slot separable");
  std::int64_t wave_tile_m = shape.bm / shape.wm;
  std::int64_t wave_tile_n = shape.bn / shape.wn;
  return TileGemmPlan{.op = &op,
                      .threads = threads,
                      .bk = shape.bk,
                      .wn = shape.wn,
                      .rep_m = wave_tile_m / op.m,
                      .rep_n = wave_tile_n / op.n,
                      .wave_tile_m = wave_tile_m,
                      .wave_tile_n = wave_tile_n,
                      .stages = stages,
                      .a = std::move(a),
                      .b = std::move(b),
                      .c_row = std::move(*c_row),
                      .c_col = std::move(*c_col),
                      .lds_bytes = lds_bytes};
}

MatrixOperand::MatrixOperand(std::string name, Value* rsrc, bool k_contiguous, Value* origin, Value* outer_size,
                             Value* k_size, Value* lead, Value* base)
    : name_(std::move(name)),
      rsrc_(rsrc),
      k_contiguous_(k_contiguous),
      origin_(origin),
      outer_size_(outer_size),
      k_size_(k_size),
      lead_(lead != nullptr ? lead : (k_contiguous ? k_size : outer_size)),
      base_(base) {}

Values MatrixOperand::setup(Builder& b, Value* outer, Value* k) const {
  if (k_contiguous_) {
    Value* line = b.add(origin_, outer);
    Value* gbase = b.add(b.mul(line, lead_), k, name_ + "_gbase");
    if (base_ != nullptr) gbase = b.add(gbase, base_);
    Value* cap = b.sub(k_size_, k, name_ + "_kcap");
    Value* line_ok = b.cmpi("slt", line, outer_size_);
    return {gbase, cap, line_ok};
  }
  Value* line = b.add(origin_, outer);
  Value* gbase = base_ == nullptr ? line : b.add(line, base_);
  Value* cap = b.sub(outer_size_, line, name_ + "_ocap");
  return {gbase, cap, k};
}

std::pair<Value*, Value*> MatrixOperand::address(Builder& b, const Values& state, Value* k0) const {
  if (k_contiguous_) {
    Value* gbase = state[0];
    Value* cap = state[1];
    Value* line_ok = state[2];
    Value* index = k0 == nullptr ? gbase : b.add(gbase, k0);
    Value* valid = valid_if(b, line_ok, k0 == nullptr ? cap : b.sub(cap, k0));
    return {index, valid};
  }
  Value* gbase = state[0];
  Value* cap = state[1];
  Value* krow = state[2];
  Value* kr = k0 == nullptr ? krow : b.add(krow, k0);
  Value* index = b.add(b.mul(kr, lead_), gbase);
  Value* valid = valid_if(b, b.cmpi("slt", kr, k_size_), cap);
  return {index, valid};
}

Value* AccElement::inside(Builder& b, Value* rows, Value* cols) const {
  Value* row_ok = b.cmpi("slt", row, rows);
  Value* col_ok = b.cmpi("slt", col, cols);
  return b.and_(row_ok, col_ok);
}

std::pair<Values, Values> TileAccumulators::coords(Builder& b) const {
  const arch::MmaOp& op = *plan->op;
  Value* row_lane = emit_lane_part(b, plan->c_row.lane_part, lane);
  Value* col_lane = emit_lane_part(b, plan->c_col.lane_part, lane);
  Values rows;
  for (std::int64_t rm = 0; rm < plan->rep_m; ++rm) rows.push_back(b.add(add_i32(b, row_origin, rm * op.m), row_lane, "row"));
  Values cols;
  for (std::int64_t rn = 0; rn < plan->rep_n; ++rn) cols.push_back(b.add(add_i32(b, col_origin, rn * op.n), col_lane, "col"));
  return {rows, cols};
}

std::map<ColumnKey, Value*> TileAccumulators::column_values(Builder& b, const Values& cols,
                                                            const ColumnLoad& load) const {
  std::map<ColumnKey, Value*> values;
  for (std::int64_t rn = 0; rn < plan->rep_n; ++rn) {
    for (std::int64_t offset : plan->c_col.slot_offsets) {
      if (!values.contains({rn, offset})) {
        values[{rn, offset}] = load(add_i32(b, cols[static_cast<std::size_t>(rn)], offset));
      }
    }
  }
  return values;
}

void TileAccumulators::each_element(Builder& b, const Values& rows, const Values& cols, const ElementVisit& visit,
                                    const AtomMap& atom) const {
  for (std::int64_t rm = 0; rm < plan->rep_m; ++rm) {
    for (std::int64_t rn = 0; rn < plan->rep_n; ++rn) {
      Value* value_v = accs[static_cast<std::size_t>(rm * plan->rep_n + rn)];
      if (atom) value_v = atom(value_v);
      for (std::int64_t s = 0; s < plan->op->c.length; ++s) {
        std::int64_t row_offset = plan->c_row.slot_offsets[static_cast<std::size_t>(s)];
        std::int64_t col_offset = plan->c_col.slot_offsets[static_cast<std::size_t>(s)];
        Value* row = add_i32(b, rows[static_cast<std::size_t>(rm)], row_offset);
        Value* col = add_i32(b, cols[static_cast<std::size_t>(rn)], col_offset);
        visit(AccElement{.row = row, .col = col, .value = b.extract(value_v, s), .col_key = {rn, col_offset}});
      }
    }
  }
}

TileGemm::TileGemm(Builder& b, const TileGemmPlan& plan, Type elem)
    : plan_(plan), elem_(elem), esize_(elem.bits() / 8) {
  a_lds = alloc_tile(b, plan.a.tile, elem, "a_lds");
  b_lds = alloc_tile(b, plan.b.tile, elem, "b_lds");
  tid = b.thread_id_x("tid");
  lane = b.lane_id("lane");
  wave = b.wave_id("wave");
}

void TileGemm::place(Builder& b, Value* row0, Value* col0) {
  row0_ = row0;
  col0_ = col0;
  wave_row_ = mul_i32(b, divu_i32(b, wave, plan_.wn), plan_.wave_tile_m, "wave_row");
  wave_col_ = mul_i32(b, remu_i32(b, wave, plan_.wn), plan_.wave_tile_n, "wave_col");
}

std::pair<Value*, Value*> TileGemm::place_grid(Builder& b, std::int64_t bm, std::int64_t bn) {
  Value* row0 = mul_i32(b, b.block_id_y(), bm, "row0");
  Value* col0 = mul_i32(b, b.block_id_x(), bn, "col0");
  place(b, row0, col0);
  return {row0, col0};
}

Values TileGemm::fragment_bases(Builder& b, const OperandPlan& plan, Value* wave_origin, std::int64_t reps,
                                std::int64_t atom) const {
  Values bases;
  for (std::int64_t r = 0; r < reps; ++r) {
    bases.push_back(fragment_base(b, plan.frag, lane, add_i32(b, wave_origin, r * atom), plan.name + "_frag"));
  }
  return bases;
}

Values TileGemm::mma_tile(Builder& b, const Values& a_bases, const Values& b_bases, Values accs) const {
  const TileGemmPlan& plan = plan_;
  const arch::MmaOp& op = *plan.op;
  for (std::int64_t kk = 0; kk < plan.bk; kk += op.k) {
    Values afrags;
    for (Value* base : a_bases) {
      afrags.push_back(load_fragment(b, a_lds, base, plan.a.frag, kk, elem_, {plan.a.tile.stage_elems()}, "a_frag"));
    }
    Values bfrags;
    for (Value* base : b_bases) {
      bfrags.push_back(load_fragment(b, b_lds, base, plan.b.frag, kk, elem_, {plan.b.tile.stage_elems()}, "b_frag"));
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

void TileGemm::run(Builder& b, const OperandAddress& a, const OperandAddress& b_, Value* k_size,
                   const Epilogue& epilogue) const {
  const TileGemmPlan& plan = plan_;
  const arch::MmaOp& op = *plan.op;
  if (row0_ == nullptr || col0_ == nullptr) throw std::logic_error("TileGemm: place() comes before run()");
  Type elem = elem_;
  std::int64_t esize = esize_;
  Value* a_lds_ = a_lds;
  Value* b_lds_ = b_lds;
  const Copy a_copy(b, plan.a, a, tid);
  const Copy b_copy(b, plan.b, b_, tid);
  Values a_bases = fragment_bases(b, plan.a, wave_row_, plan.rep_m, op.m);
  Values b_bases = fragment_bases(b, plan.b, wave_col_, plan.rep_n, op.n);
  Value* tiles = ceil_div_i32(b, k_size, plan.bk, "k_tiles");
  Value* zero = f32_const(b, 0.0, op.c.length, "acc");
  Values accs0(static_cast<std::size_t>(plan.rep_m * plan.rep_n), zero);

  // Copy the K tile at k0 (nullptr: the first) into LDS stage 0.
  auto copy_tile = [&](Value* k0) {
    Values a_values = a_copy.load(b, k0, elem);
    Values b_values = b_copy.load(b, k0, elem);
    a_copy.store(b, a_lds_, nullptr, a_values, esize);
    b_copy.store(b, b_lds_, nullptr, b_values, esize);
  };

  std::function<Values(Value*, const Values&)> body;
  if (plan.stages == 2) {
    copy_tile(nullptr);
    b.barrier();
    body = [&](Value* kt, const Values& accs) {
      Value* stage = b.and_(kt, const_i32(b, 1), "stage");
      Value* next_k0 = mul_i32(b, add_i32(b, kt, 1), plan.bk, "next_k0");
      Values a_values = a_copy.load(b, next_k0, elem);
      Values b_values = b_copy.load(b, next_k0, elem);
      Values a_staged = staged(b, a_bases, mul_i32(b, stage, plan.a.tile.stage_elems()));
      Values b_staged = staged(b, b_bases, mul_i32(b, stage, plan.b.tile.stage_elems()));
      Values accs_out = mma_tile(b, a_staged, b_staged, accs);
      Value* other = b.xor_(stage, const_i32(b, 1), "next_stage");
      a_copy.store(b, a_lds_, mul_i32(b, other, plan.a.tile.stage_elems()), a_values, esize);
      b_copy.store(b, b_lds_, mul_i32(b, other, plan.b.tile.stage_elems()), b_values, esize);
      b.barrier();
      return accs_out;
    };
  } else {
    body = [&](Value* kt, const Values& accs) {
      copy_tile(mul_i32(b, kt, plan.bk, "k0"));
      b.barrier();
      Values accs_out = mma_tile(b, a_bases, b_bases, accs);
      b.barrier();
      return accs_out;
    };
  }

  Value* lb = const_i32(b, 0);
  Value* step = const_i32(b, 1);
  Values accs = b.for_(lb, tiles, step, accs0, body, {.names = ir::Names(accs0.size(), "acc"), .iv_name = "kt"});
  Value* row_origin = b.add(row0_, wave_row_);
  Value* col_origin = b.add(col0_, wave_col_);
  epilogue(TileAccumulators{.plan = &plan, .accs = accs, .lane = lane, .row_origin = row_origin, .col_origin = col_origin});
}

}  // namespace rocke::helpers
