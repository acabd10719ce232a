// Python twin: rocke/families/elementwise/spec.py
#include "rocke/families/elementwise/spec.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::elementwise {

namespace {

template <class Items, class Item>
bool contains(const Items& items, const Item& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace

const std::vector<Field<ElementwiseSpec>>& ElementwiseSpec::fields() {
  static const std::vector<Field<ElementwiseSpec>> list = {
      {"block", &ElementwiseSpec::block},
      {"dtype", &ElementwiseSpec::dtype},
      {"op", &ElementwiseSpec::op},
      {"vec", &ElementwiseSpec::vec},
  };
  return list;
}

void ElementwiseSpec::check() const {
  using helpers::FLOAT_DTYPES;
  if (!contains(OPS, op)) fail("op", util::cat("must be one of ", util::join(OPS, ", ")));
  if (!contains(FLOAT_DTYPES, dtype)) fail("dtype", util::cat("must be one of ", util::join(FLOAT_DTYPES, ", ")));
  if (!contains(VEC_WIDTHS, vec)) fail("vec", "must be 1, 2, 4 or 8");
  std::int64_t most = MAX_ACCESS_BYTES / helpers::elem_bytes(dtype);
  if (vec > most) {
    fail("vec", util::cat("one ", dtype, " access holds at most ", std::to_string(most), " elements (",
                          std::to_string(MAX_ACCESS_BYTES), " bytes)"));
  }
  if (block < BLOCK_STEP || block > MAX_BLOCK || block % BLOCK_STEP != 0) {
    fail("block", util::cat("must be a multiple of ", std::to_string(BLOCK_STEP), " in ", std::to_string(BLOCK_STEP),
                            "..", std::to_string(MAX_BLOCK)));
  }
}

std::vector<std::string> ElementwiseSpec::inputs() const {
  if (contains(BINARY_OPS, op)) return {"x", "y"};
  return {"x"};
}

}  // namespace rocke::families::elementwise
