// Python twin: rocke/helpers/buffers.py
#include "rocke/helpers/buffers.hpp"

#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/index.hpp"

namespace rocke::helpers {

using ir::Builder;
using ir::Hint;
using ir::Type;
using ir::Value;

Value* buffer_rsrc(Builder& b, Value* base, Value* elems, std::int64_t esize, Hint name) {
  return b.make_rsrc(base, mul_i32(b, elems, esize), std::move(name));
}

Value* masked_offset(Builder& b, Value* ok, Value* index, std::int64_t esize) {
  return masked_bytes(b, ok, mul_i32(b, index, esize));
}

Value* masked_bytes(Builder& b, Value* ok, Value* byte_offset) {
  return b.select(ok, byte_offset, const_i32(b, kOobOffset));
}

Value* load_guarded(Builder& b, Value* rsrc, Value* index, Value* valid, Type elem, std::int64_t lanes, Hint name) {
  std::int64_t esize = elem.bits() / 8;
  if (lanes == 1) {
    Value* ok = b.cmpi("sgt", valid, const_i32(b, 0));
    return b.buffer_load(rsrc, masked_offset(b, ok, index, esize), elem, std::move(name));
  }
  Type vtype = vector_type(elem, lanes);
  Value* byte0 = mul_i32(b, index, esize);

  auto whole = [&]() -> Value* { return b.buffer_load(rsrc, byte0, vtype); };

  auto partial = [&]() -> Value* {
    Value* value = b.splat(b.const_(0.0, elem), lanes);
    for (std::int64_t j = 0; j < lanes; ++j) {
      Value* ok = b.cmpi("sgt", valid, const_i32(b, j));
      Value* offset = masked_bytes(b, ok, add_i32(b, byte0, j * esize));
      value = b.insert(value, b.buffer_load(rsrc, offset, elem), j);
    }
    return value;
  };

  Value* full = b.cmpi("sge", valid, const_i32(b, lanes));
  return b.if_(full, whole, partial, {.names = ir::Names{name}})[0];
}

void store_guarded(Builder& b, Value* rsrc, Value* index, Value* valid, Value* value, Type elem, std::int64_t lanes) {
  std::int64_t esize = elem.bits() / 8;
  if (lanes == 1) {
    Value* ok = b.cmpi("sgt", valid, const_i32(b, 0));
    b.buffer_store(rsrc, masked_offset(b, ok, index, esize), value);
    return;
  }

  Value* byte0 = mul_i32(b, index, esize);

  auto whole = [&] { b.buffer_store(rsrc, byte0, value); };

  auto partial = [&] {
    for (std::int64_t j = 0; j < lanes; ++j) {
      Value* ok = b.cmpi("sgt", valid, const_i32(b, j));
      Value* offset = masked_bytes(b, ok, add_i32(b, byte0, j * esize));
      b.buffer_store(rsrc, offset, b.extract(value, j));
    }
  };

  b.if_(b.cmpi("sge", valid, const_i32(b, lanes)), whole, partial);
}

Value* valid_if(Builder& b, Value* ok, Value* count) { return b.select(ok, count, const_i32(b, 0)); }

}  // namespace rocke::helpers
