// Python twin: rocke/families/elementwise/spec.py
#include "rocke/families/elementwise/spec.hpp"

#include <algorithm>

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
  if (!contains(kOps, op)) fail("op", util::cat("must be one of ", util::join(kOps, ", ")));
  check_dtype(*this);
  check_vec(*this);
  check_threads(*this, "block", block);
}

std::vector<std::string> ElementwiseSpec::inputs() const {
  if (contains(kBinaryOps, op)) return {"x", "y"};
  return {"x"};
}

}  // namespace rocke::families::elementwise
