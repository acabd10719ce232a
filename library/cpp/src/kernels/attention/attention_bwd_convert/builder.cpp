// Python twin: rocke_library/kernels/attention/attention_bwd_convert/builder.py
#include "rocke_library/kernels/attention/attention_bwd_convert/builder.hpp"

#include <string>
#include <vector>

#include "rocke/families/spec.hpp"
#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/ir/verifier.hpp"
#include "rocke_library/kernels/attention/common/strided.hpp"
#include "rocke_library/kernels/attention/common/work.hpp"

namespace rocke::library::kernels::attention::attention_bwd_convert {

using common::Params;
using helpers::const_i32;
using helpers::mul_i32;
using ir::Builder;
using ir::Type;
using ir::Value;
using ir::Values;

namespace {

const std::int64_t kF32Bytes = helpers::elem_bytes("f32");

}  // namespace

void check_arch(const AttentionBwdConvertSpec& spec, const arch::ArchTarget& target) {
  families::check_wave_multiple(spec, "block", spec.block, target);
}

namespace {

// Declare the kernel arguments in launch-contract order; returns them by name.
Params kernel_params(Builder& b, const AttentionBwdConvertSpec& spec) {
  Type elem = helpers::ir_type(spec.dtype);
  Params params;
  std::vector<std::string> tensors = spec.tensors();
  for (const std::string& tensor : tensors) {
    std::string name = tensor + "_acc";
    params[name] = b.param(name, ir::ptr(ir::f32, "global"), {.noalias = true, .readonly = true});
  }
  for (const std::string& tensor : tensors) {
    params[tensor] = b.param(tensor, ir::ptr(elem, "global"), {.noalias = true, .writeonly = true});
  }
  std::vector<std::string> sizes;
  if (spec.seq_mode == "batched") {
    sizes = {"batch", "seqlen_q", "seqlen_k"};
  } else {
    sizes = {"total_q", "total_k"};
  }
  for (const char* name : {"heads_q", "heads_kv", "group"}) sizes.emplace_back(name);
  for (const std::string& name : sizes) params[name] = b.param(name, ir::i32);
  std::vector<std::string> dims;
  if (spec.seq_mode == "batched") {
    dims = {"b", "s", "h"};
  } else {
    dims = {"s", "h"};
  }
  for (const std::string& tensor : tensors) {
    for (const std::string& dim : dims) {
      std::string name = tensor + "_stride_" + dim;
      params[name] = b.param(name, ir::i32);
    }
  }
  return params;
}

// Convert the thread's vector (row `row`, elements first ..) of one output.
void convert(Builder& b, const AttentionBwdConvertSpec& spec, const Params& params, const std::string& tensor,
             Value* row, Value* first) {
  Type elem = helpers::ir_type(spec.dtype);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  bool is_q = tensor == "dq";
  Value* heads = is_q ? params.at("heads_q") : params.at("heads_kv");
  std::string side = is_q ? "q" : "k";
  bool batched = spec.seq_mode == "batched";
  Value* seqlen = batched ? params.at("seqlen_" + side) : params.at("total_" + side);
  Value* tokens = batched ? b.mul(params.at("batch"), seqlen) : seqlen;
  Value* rows = b.mul(tokens, heads, tensor + "_rows");
  Value* ok = b.cmpi("slt", row, rows, "row_ok");
  Value* h = b.remu(row, heads, "h");
  Value* token = b.divu(row, heads, "token");
  Values coords;
  Values counts;
  std::vector<std::string> dims;
  if (batched) {
    Value* one = const_i32(b, 1);
    Value* s_len = b.maxu(seqlen, one, "seqlen");
    Value* s = b.remu(token, s_len, "s");
    Value* batch = b.divu(token, s_len, "bat");
    coords = {batch, s, h};
    counts = {params.at("batch"), seqlen, heads};
    dims = {"b", "s", "h"};
  } else {
    coords = {token, h};
    counts = {seqlen, heads};
    dims = {"s", "h"};
  }
  Values strides;
  for (const std::string& dim : dims) strides.push_back(params.at(tensor + "_stride_" + dim));
  Value* out = common::strided_index(b, coords, strides, first);
  Value* out_elems = common::strided_extent(b, counts, strides, spec.head_dim, rows, tensor + "_elems");
  Type vtype = helpers::vector_type(ir::f32, spec.vec);
  bool split = !is_q && spec.dkv_mode == "split";
  Value* ws_rows = rows;
  Value* ws_row0 = row;
  if (split) {
    Value* ws_heads = params.at("heads_q");
    ws_rows = b.mul(tokens, ws_heads);
    Value* token_row = b.mul(token, ws_heads);
    Value* head_row = b.mul(h, params.at("group"));
    ws_row0 = b.add(token_row, head_row, "ws_row0");
  }
  Value* ws_elems = mul_i32(b, ws_rows, spec.head_dim);
  Value* ws = helpers::buffer_rsrc(b, params.at(tensor + "_acc"), ws_elems, kF32Bytes, tensor + "_acc_rsrc");
  Value* row_index = mul_i32(b, ws_row0, spec.head_dim);
  Value* index0 = b.add(row_index, first, "ws_index");
  Value* value = b.buffer_load(ws, helpers::masked_offset(b, ok, index0, kF32Bytes), vtype, tensor + "_f32");
  if (split) {
    auto body = [&](Value* g, const Values& carried) -> Values {
      Value* step = mul_i32(b, g, spec.head_dim);
      Value* index = b.add(index0, step);
      Value* part = b.buffer_load(ws, helpers::masked_offset(b, ok, index, kF32Bytes), vtype, "part");
      return {b.add(carried[0], part, "sum")};
    };
    Value* lb = const_i32(b, 1);
    Value* one = const_i32(b, 1);
    Values init = {value};
    ir::Names names = {"sum"};
    value = b.for_(lb, params.at("group"), one, init, body, {.names = names, .iv_name = "g"})[0];
  }
  Value* dst = helpers::buffer_rsrc(b, params.at(tensor), out_elems, esize, tensor + "_rsrc");
  Value* offset = helpers::masked_offset(b, ok, out, esize);
  b.buffer_store(dst, offset, helpers::from_f32(b, value, elem, spec.vec, tensor));
}

}  // namespace

ir::KernelDef build(const AttentionBwdConvertSpec& spec, std::string_view arch) {
  const arch::ArchTarget& target = arch::get_arch(arch);
  check_arch(spec, target);
  Builder b(spec.kernel_name(), {.max_workgroup_size = spec.block});
  Params params = kernel_params(b, spec);
  Value* vec_id = helpers::global_id_x(b, spec.block);
  Value* row = helpers::divu_i32(b, vec_id, spec.head_dim / spec.vec, "row");
  Value* lane_vec = helpers::remu_i32(b, vec_id, spec.head_dim / spec.vec);
  Value* first = mul_i32(b, lane_vec, spec.vec, "first");
  for (const std::string& tensor : spec.tensors()) convert(b, spec, params, tensor, row, first);
  ir::KernelDef kernel = b.finish();
  ir::verify(kernel, &target);
  return kernel;
}

ir::KernelDef build_kv(std::string_view kv, std::string_view arch) {
  return build(AttentionBwdConvertSpec::from_kv(kv), arch);
}

}  // namespace rocke::library::kernels::attention::attention_bwd_convert
