// Python twin: rocke/helpers/lds.py
#include "rocke/helpers/lds.hpp"

namespace rocke::helpers {

ir::Value* alloc_tile(ir::Builder& b, const PaddedTile& tile, ir::Type elem, ir::Hint name) {
  return b.lds_alloc(elem, tile.count(), {.align = kLdsAlign, .name = std::move(name)});
}

}  // namespace rocke::helpers
