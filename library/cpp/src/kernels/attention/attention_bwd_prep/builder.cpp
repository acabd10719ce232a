// Python twin: rocke_library/kernels/attention/attention_bwd_prep/builder.py
#include "rocke_library/kernels/attention/attention_bwd_prep/builder.hpp"

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "rocke/families/spec.hpp"
#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/common/softmax.hpp"
#include "rocke_library/kernels/attention/common/strided.hpp"
#include "rocke_library/kernels/attention/common/work.hpp"

namespace rocke::library::kernels::attention::attention_bwd_prep {

using common::Params;
using helpers::const_i32;
using helpers::f32_const;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

void check_arch(const AttentionBwdPrepSpec& spec, const arch::ArchTarget& target) {
  families::check_wave_multiple(spec, "block", spec.block, target);
  if (spec.row_lanes() > target.wave_size) {
    spec.fail("vec", util::cat("head_dim / vec = ", std::to_string(spec.row_lanes()),
                               " lanes per row exceed the wave size ", std::to_string(target.wave_size), " of ",
                               target.name));
  }
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Declare the kernel arguments in launch-contract order; returns them by name.
Params kernel_params(Builder& b, const AttentionBwdPrepSpec& spec) {
  Type elem = helpers::ir_type(spec.dtype);
  Params params;
  params["o"] = b.param("o", ir::ptr(elem, "global"), {.noalias = true, .readonly = true});
  params["do"] = b.param("do", ir::ptr(elem, "global"), {.noalias = true, .readonly = true});
  params["lse"] = b.param("lse", ir::ptr(ir::f32, "global"), {.noalias = true, .readonly = true});
  params["lse2"] = b.param("lse2", ir::ptr(ir::f32, "global"), {.noalias = true, .writeonly = true});
  params["delta"] = b.param("delta", ir::ptr(ir::f32, "global"), {.noalias = true, .writeonly = true});
  params["zero_ws"] = b.param("zero_ws", ir::ptr(ir::f32, "global"), {.noalias = true, .writeonly = true});
  std::vector<std::string> sizes;
  if (spec.seq_mode == "batched") {
    sizes = {"batch", "seqlen_q"};
  } else {
    sizes = {"total_q"};
  }
  for (const char* name : {"heads_q", "zero_count", "zero_iters"}) sizes.emplace_back(name);
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

// Rows of the LSE: B * H_q * S_q (batched) or H_q * total_q (varlen).
Value* row_count(Builder& b, const AttentionBwdPrepSpec& spec, const Params& params) {
  if (spec.seq_mode == "batched") {
    Value* bh = b.mul(params.at("batch"), params.at("heads_q"));
    return b.mul(bh, params.at("seqlen_q"), "rows");
  }
  return b.mul(params.at("heads_q"), params.at("total_q"), "rows");
}

// The (batch, s, h) (batched) or (t, h) (varlen) of LSE row `row` (divisors floored at 1).
Values row_coords(Builder& b, const AttentionBwdPrepSpec& spec, const Params& params, Value* row) {
  if (spec.seq_mode == "batched") {
    Value* one = const_i32(b, 1);
    Value* seqlen = b.maxu(params.at("seqlen_q"), one, "seqlen");
    Value* s = b.remu(row, seqlen, "s");
    Value* bh = b.divu(row, seqlen);
    Value* h = b.remu(bh, params.at("heads_q"), "h");
    Value* batch = b.divu(bh, params.at("heads_q"), "bat");
    return {batch, s, h};
  }
  Value* one = const_i32(b, 1);
  Value* total = b.maxu(params.at("total_q"), one, "total");
  Value* t = b.remu(row, total, "t");
  Value* h = b.divu(row, total, "h");
  return {t, h};
}

// (counts, strides) of a tensor's dimensions, outermost first (batched: batch, s, h; varlen: t, h).
std::pair<Values, Values> dims_of(const AttentionBwdPrepSpec& spec, const Params& params, const std::string& tensor) {
  if (spec.seq_mode == "batched") {
    return {{params.at("batch"), params.at("seqlen_q"), params.at("heads_q")},
            {params.at(tensor + "_stride_b"), params.at(tensor + "_stride_s"), params.at(tensor + "_stride_h")}};
  }
  return {{params.at("total_q"), params.at("heads_q")}, {params.at(tensor + "_stride_s"), params.at(tensor + "_stride_h")}};
}

// Workgroup x clears zero_iters * block * kZeroVec elements of zero_ws from its chunk start.
void zero_fill(Builder& b, const AttentionBwdPrepSpec& spec, const Params& params, Value* tid) {
  Value* rsrc = helpers::buffer_rsrc(b, params.at("zero_ws"), params.at("zero_count"), kF32Bytes, "zero_rsrc");
  std::int64_t step = spec.block * kZeroVec;
  Value* block_x = b.block_id_x();
  Value* per_block = mul_i32(b, params.at("zero_iters"), step);
  Value* chunk = b.mul(block_x, per_block, "chunk0");
  Value* lane_first = mul_i32(b, tid, kZeroVec);
  Value* first = b.add(chunk, lane_first, "zero0");
  Value* zeros = f32_const(b, 0.0, kZeroVec, "zeros");
  auto body = [&](Value* it, const Values&) -> Values {
    Value* offset = mul_i32(b, it, step);
    Value* index = b.add(first, offset, "zero_index");
    Value* ok = b.cmpi("slt", index, params.at("zero_count"));
    b.buffer_store(rsrc, helpers::masked_offset(b, ok, index, kF32Bytes), zeros);
    return {};
  };
  Value* lb = const_i32(b, 0);
  Value* one = const_i32(b, 1);
  Values none;
  b.for_(lb, params.at("zero_iters"), one, none, body, {.iv_name = "it"});
}

}  // namespace

ir::KernelDef build(const AttentionBwdPrepSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  check_arch(spec, target);
  Type elem = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  Builder b(spec.kernel_name(), {.max_workgroup_size = spec.block});
  Params params = kernel_params(b, spec);
  Value* tid = b.thread_id_x("tid");
  Value* part = helpers::remu_i32(b, tid, spec.row_lanes(), "part");
  Value* block_x = b.block_id_x();
  Value* row0 = mul_i32(b, block_x, spec.rows_per_block());
  Value* in_block = helpers::divu_i32(b, tid, spec.row_lanes());
  Value* row = b.add(row0, in_block, "row");
  Value* rows = row_count(b, spec, params);
  Value* ok = b.cmpi("slt", row, rows, "row_ok");
  Value* first = mul_i32(b, part, spec.vec, "first");
  Type vtype = helpers::vector_type(elem, spec.vec);
  Values coords = row_coords(b, spec, params, row);
  Values values;
  for (std::string_view tensor_view : kTensors) {
    std::string tensor(tensor_view);
    auto [counts, strides] = dims_of(spec, params, tensor);
    Value* index = common::strided_index(b, coords, strides, first);
    Value* elems = common::strided_extent(b, counts, strides, spec.head_dim, rows, tensor + "_elems");
    Value* rsrc = helpers::buffer_rsrc(b, params.at(tensor), elems, esize, tensor + "_rsrc");
    Value* offset = helpers::masked_offset(b, ok, index, esize);
    Value* raw = b.buffer_load(rsrc, offset, vtype, tensor + "_vals");
    values.push_back(helpers::to_f32(b, raw, elem, spec.vec, tensor + "_f32"));
  }
  Value* prod = b.mul(values[0], values[1], "prod");
  Value* dot = spec.vec == 1 ? prod : b.extract(prod, 0);
  for (std::int64_t j = 1; j < spec.vec; ++j) {
    Value* element = b.extract(prod, j);
    dot = b.add(dot, element, "dot");
  }
  std::vector<std::int64_t> masks;
  for (std::int64_t bit = 1; bit < spec.row_lanes(); bit *= 2) masks.push_back(bit);
  dot = common::group_reduce(b, dot, "add", masks, "delta_row");

  Values stat_rsrc;
  for (const std::string name : {"lse", "lse2", "delta"}) {
    stat_rsrc.push_back(helpers::buffer_rsrc(b, params.at(name), rows, kF32Bytes, name + "_rsrc"));
  }
  Value* zero = const_i32(b, 0);
  Value* is_first = b.cmpi("eq", part, zero);
  Value* lead = b.and_(ok, is_first, "lead");
  Value* lse = b.buffer_load(stat_rsrc[0], helpers::masked_offset(b, ok, row, kF32Bytes), ir::f32, "lse");
  Value* neg_inf = f32_const(b, -kInf, 1);
  Value* live = b.cmpf("ogt", lse, neg_inf, "live");
  Value* log2e = f32_const(b, common::kLog2e, 1);
  Value* lse2 = b.mul(lse, log2e);
  Value* inf = f32_const(b, kInf, 1);
  lse2 = b.select(live, lse2, inf, "lse2");
  Value* none = f32_const(b, 0.0, 1);
  Value* delta = b.select(live, dot, none, "delta");
  Value* out = helpers::masked_offset(b, lead, row, kF32Bytes);
  b.buffer_store(stat_rsrc[1], out, lse2);
  b.buffer_store(stat_rsrc[2], out, delta);
  zero_fill(b, spec, params, tid);
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(AttentionBwdPrepSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::attention::attention_bwd_prep
