// rocKE C++ engine: splitting a tile over the threads of a workgroup for vectorized copies.
// Python twin: rocke/helpers/tiles.py
//
// A tile is `lines` lines of `extent` contiguous elements. Each access moves `vec` elements of one
// line; access v covers line v / (extent / vec), elements (v % (extent / vec)) * vec ... Thread t
// makes accesses t, t + threads, t + 2 * threads, ..., so consecutive threads touch consecutive
// addresses (coalesced).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

inline constexpr std::array<std::int64_t, 4> kVecChoices = {8, 4, 2, 1};

struct TileSplit {
  std::int64_t lines = 0;
  std::int64_t extent = 0;  // contiguous elements per line
  std::int64_t threads = 0;
  std::int64_t vec = 0;         // elements per access
  std::int64_t per_thread = 0;  // accesses per thread

  std::int64_t vecs_per_line() const { return extent / vec; }
  friend bool operator==(const TileSplit&, const TileSplit&) = default;
};

// The widest vector (at most max_bytes, dividing extent) whose access count is a multiple of
// threads, so every thread makes the same number of accesses; nullopt when no width works.
std::optional<TileSplit> split_tile(std::int64_t lines, std::int64_t extent, std::int64_t threads, std::int64_t esize,
                                    std::int64_t max_bytes = 16);

// (line, first element) of thread tid's i-th access.
std::pair<ir::Value*, ir::Value*> tile_access(ir::Builder& b, const TileSplit& split, ir::Value* tid, std::int64_t i);

}  // namespace rocke::helpers
