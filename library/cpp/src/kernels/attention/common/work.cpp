// Python twin: rocke_library/kernels/attention/common/work.py
#include "rocke_library/kernels/attention/common/work.hpp"

#include <vector>

#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/index.hpp"

namespace rocke::library::kernels::attention::common {

using helpers::add_i32;
using helpers::const_i32;
using helpers::mul_i32;
using ir::Value;

Work decode_work(ir::Builder& b, std::string_view seq_mode, std::int64_t block_m, const Params& params,
                 std::int64_t parts) {
  Value* block = b.block_id_x();
  Value* part = nullptr;
  if (parts > 1) {
    part = b.remu(block, const_i32(b, parts), "part");
    block = b.divu(block, const_i32(b, parts), "block");
  }
  Value* q0 = mul_i32(b, block, block_m, "q0");
  Value* head = b.block_id_y("head");
  Value* batch = b.block_id_z("batch");
  Value* kv_head = b.divu(head, params.at("group"), "kv_head");
  if (seq_mode == "batched") {
    return Work{q0, batch, head, kv_head, params.at("seqlen_q"), params.at("seqlen_k"), nullptr, nullptr, part};
  }
  Value* count = add_i32(b, params.at("batch"), 1);
  std::vector<std::pair<Value*, Value*>> starts;
  for (const std::string name : {"q", "k"}) {
    Value* rsrc = helpers::buffer_rsrc(b, params.at("cu_seqlens_" + name), count, 4, "cu_" + name + "_rsrc");
    Value* first_at = mul_i32(b, batch, 4);
    Value* first = b.buffer_load(rsrc, first_at, ir::i32, name + "_start");
    Value* next = add_i32(b, batch, 1);
    Value* last_at = mul_i32(b, next, 4);
    Value* last = b.buffer_load(rsrc, last_at, ir::i32, name + "_end");
    starts.emplace_back(first, b.sub(last, first, "seqlen_" + name));
  }
  return Work{q0,        batch, head, kv_head, starts[0].second, starts[1].second, starts[0].first, starts[1].first,
              part};
}

std::pair<Value*, Value*> seq_view(ir::Builder& b, Value* base, Value* batch_offset, Value* start, Value* stride_s,
                                   Value* head, Value* stride_h, Value* seqlen, std::int64_t head_dim,
                                   std::int64_t esize, const std::string& name) {
  Value* offset = b.mul(head, stride_h);
  if (batch_offset != nullptr) offset = b.add(batch_offset, offset);
  if (start != nullptr) {
    Value* rows = b.mul(start, stride_s);
    offset = b.add(rows, offset);
  }
  Value* row0 = b.ptr_add(base, offset, name + "_row0");
  Value* last = add_i32(b, seqlen, -1);
  Value* span = b.mul(last, stride_s);
  Value* extent = add_i32(b, span, head_dim);
  Value* some = b.cmpi("sgt", seqlen, const_i32(b, 0));
  Value* zero = const_i32(b, 0);
  Value* elems = b.select(some, extent, zero, name + "_elems");
  return {row0, helpers::buffer_rsrc(b, row0, elems, esize, name + "_rsrc")};
}

}  // namespace rocke::library::kernels::attention::common
