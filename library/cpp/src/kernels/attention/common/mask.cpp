// Python twin: rocke_library/kernels/attention/common/mask.py
#include "rocke_library/kernels/attention/common/mask.hpp"

#include "rocke/helpers/index.hpp"

namespace rocke::library::kernels::attention::common {

using helpers::add_i32;
using helpers::const_i32;
using ir::Value;

Value* visible_limit(ir::Builder& b, std::string_view mask, Value* row, Value* seqlen_q, Value* seqlen_k,
                     ir::Hint name) {
  Value* last_key = add_i32(b, seqlen_k, -1);
  if (mask == "none") return last_key;
  Value* diagonal = row;
  if (mask != "causal_tl") {
    Value* shift = b.sub(seqlen_k, seqlen_q);
    diagonal = b.add(row, shift);
  }
  return b.mins(last_key, diagonal, std::move(name));
}

Value* key_blocks(ir::Builder& b, std::string_view mask, Value* q0, std::int64_t block_m, std::int64_t block_n,
                  Value* seqlen_q, Value* seqlen_k) {
  Value* kv_end = seqlen_k;
  if (mask != "none") {
    Value* end_row = add_i32(b, q0, block_m);
    Value* rows_end = b.mins(end_row, seqlen_q);
    Value* last_row = add_i32(b, rows_end, -1);
    Value* limit = visible_limit(b, mask, last_row, seqlen_q, seqlen_k);
    Value* end = add_i32(b, limit, 1);
    Value* zero = const_i32(b, 0);
    kv_end = b.maxs(end, zero);
  }
  Value* live = b.cmpi("slt", q0, seqlen_q);
  Value* zero = const_i32(b, 0);
  kv_end = b.select(live, kv_end, zero, "kv_end");
  return helpers::ceil_div_i32(b, kv_end, block_n, "key_blocks");
}

}  // namespace rocke::library::kernels::attention::common
