// Python twin: rocke/helpers/tiles.py
#include "rocke/helpers/tiles.hpp"

#include "rocke/helpers/index.hpp"

namespace rocke::helpers {

using ir::Builder;
using ir::Value;

std::optional<TileSplit> split_tile(std::int64_t lines, std::int64_t extent, std::int64_t threads, std::int64_t esize,
                                    std::int64_t max_bytes) {
  for (std::int64_t vec : kVecChoices) {
    if (vec * esize > max_bytes || extent % vec != 0) continue;
    std::int64_t count = lines * extent / vec;
    if (count % threads == 0) return TileSplit{lines, extent, threads, vec, count / threads};
  }
  return std::nullopt;
}

std::pair<Value*, Value*> tile_access(Builder& b, const TileSplit& split, Value* tid, std::int64_t i) {
  Value* v = add_i32(b, tid, i * split.threads);
  std::int64_t vpl = split.vecs_per_line();
  Value* line = divu_i32(b, v, vpl, "line");
  Value* first = mul_i32(b, remu_i32(b, v, vpl), split.vec, "elem");
  return {line, first};
}

}  // namespace rocke::helpers
