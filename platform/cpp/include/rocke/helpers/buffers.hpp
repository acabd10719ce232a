// rocKE C++ engine: bounds-checked memory through raw buffer resources.
// Python twin: rocke/helpers/buffers.py
//
// A raw buffer access whose byte range lies past num_records reads zero and drops stores. Lanes
// that must not touch memory get the byte offset kOobOffset (2^31 as i32), past any buffer of
// fewer than 2^31 bytes. A vector access that straddles the end is chipset-dependent, so vectors
// are split: a whole vector when every element is inside, otherwise one masked scalar access per
// element.
#pragma once

#include <cstdint>

#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

// 0x80000000 as i32: past the end of every buffer the launch contracts allow.
inline constexpr std::int64_t kOobOffset = -(std::int64_t{1} << 31);

// Buffer resource over `elems` elements of esize bytes starting at pointer base.
ir::Value* buffer_rsrc(ir::Builder& b, ir::Value* base, ir::Value* elems, std::int64_t esize, ir::Hint name = {});
// Byte offset of element index when ok, else kOobOffset.
ir::Value* masked_offset(ir::Builder& b, ir::Value* ok, ir::Value* index, std::int64_t esize);
// byte_offset when ok, else kOobOffset.
ir::Value* masked_bytes(ir::Builder& b, ir::Value* ok, ir::Value* byte_offset);
// `lanes` consecutive elements from element index; elements j >= valid (device i32) read 0.
ir::Value* load_guarded(ir::Builder& b, ir::Value* rsrc, ir::Value* index, ir::Value* valid, ir::Type elem,
                        std::int64_t lanes, ir::Hint name = {});
// Store `lanes` consecutive elements (a value of elem or vec<elem x lanes>) at element index;
// elements j >= valid (device i32) are dropped.
void store_guarded(ir::Builder& b, ir::Value* rsrc, ir::Value* index, ir::Value* valid, ir::Value* value,
                   ir::Type elem, std::int64_t lanes);
// count when ok, else 0: the valid-element count of a vector whose row may be out of range.
ir::Value* valid_if(ir::Builder& b, ir::Value* ok, ir::Value* count);

}  // namespace rocke::helpers
