// ctest: util::InlineVec, the list an Op keeps its operands and results in: items inside the object
// up to its capacity, on the heap beyond it, and every copy, move and assignment between the two.
// Python twin: none (Python lists).
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "rocke/util/inline_vec.hpp"

namespace {

using rocke_test::check;
using List = rocke::util::InlineVec<int, 2>;

std::vector<int> items(const List& list) { return std::vector<int>(list.begin(), list.end()); }

bool inside(const List& list) {
  const auto* self = reinterpret_cast<const char*>(&list);
  const auto* data = reinterpret_cast<const char*>(list.data());
  return data >= self && data < self + sizeof(List);
}

void check_growth() {
  List list;
  check(list.empty() && list.size() == 0 && inside(list), "a new list is empty, its buffer inside");
  list.push_back(1);
  list.push_back(2);
  check(items(list) == std::vector<int>{1, 2} && inside(list), "two items stay inside");
  list.push_back(3);
  check(items(list) == std::vector<int>{1, 2, 3} && !inside(list), "a third item moves the list to the heap");
  for (int i = 4; i <= 40; ++i) list.push_back(i);
  check(list.size() == 40 && list.front() == 1 && list.back() == 40 && list[19] == 20, "the heap list keeps growing");
  list.pop_back();
  check(list.size() == 39 && list.back() == 39, "pop_back drops the last item");
  list.clear();
  check(list.empty(), "clear empties the list");
  List reserved;
  reserved.reserve(8);
  check(!inside(reserved) && reserved.empty(), "reserve past the capacity takes a heap buffer");
}

void check_copies_and_moves() {
  for (const std::vector<int>& start : {std::vector<int>{}, std::vector<int>{7}, std::vector<int>{7, 8},
                                        std::vector<int>{7, 8, 9, 10, 11}}) {
    const std::string what = "a list of " + std::to_string(start.size()) + ": ";
    List source(start);
    check(items(source) == start, what + "built from a vector");
    List copy(source);
    check(items(copy) == start && items(source) == start && copy == source, what + "copy constructed");
    List moved(std::move(copy));
    check(items(moved) == start && copy.empty() && inside(copy), what + "move constructed, the source left empty");
    copy.push_back(1);
    check(items(copy) == std::vector<int>{1}, what + "a moved-from list is usable");
    List assigned{5, 6, 7};
    assigned = source;
    check(items(assigned) == start, what + "copy assigned over a heap list");
    List small{5};
    small = std::move(moved);
    check(items(small) == start && moved.empty(), what + "move assigned over an inside list");
    List& alias = small;
    small = alias;  // self-assignment keeps the items
    check(items(small) == start, what + "self copy assignment");
    std::span<const int> view = small;
    check(std::vector<int>(view.begin(), view.end()) == start, what + "viewed as a span");
    check(small.vec() == start, what + "copied out as a vector");
  }
  check(!(List{1, 2} == List{1, 3}) && !(List{1} == List{1, 2}), "equality compares sizes and items");
}

}  // namespace

int main() {
  check_growth();
  check_copies_and_moves();
  return rocke_test::finish("rocke_inline_vec_test");
}
