// rocKE C++ engine: padded LDS tiles: rows lines of cols elements, each line padded to cols + pad
// elements (padding shifts consecutive lines across banks), optionally in several stages
// (multi-buffering). Element (stage, row, col) sits at stage * stage_elems + row * stride + col.
// Python twin: rocke/helpers/lds.py
#pragma once

#include <cstdint>

#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

inline constexpr std::int64_t kLdsAlign = 16;  // bytes; every tile starts on a 16-byte boundary

struct PaddedTile {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t pad = 0;
  std::int64_t stages = 0;

  std::int64_t stride() const { return cols + pad; }
  std::int64_t stage_elems() const { return rows * stride(); }
  std::int64_t count() const { return stages * stage_elems(); }
  // Bytes allocated, rounded up to the allocation alignment.
  std::int64_t nbytes(std::int64_t esize) const {
    std::int64_t raw = count() * esize;
    return (raw + kLdsAlign - 1) / kLdsAlign * kLdsAlign;
  }
};

// The LDS allocation holding every stage of the tile.
ir::Value* alloc_tile(ir::Builder& b, const PaddedTile& tile, ir::Type elem, ir::Hint name);

}  // namespace rocke::helpers
