// rocKE C++ engine: IdMap, value id -> Value* for the verifier's and the parser's scopes.
// Python twin: rocke/ir/verifier.py (and rocke/ir/parser.py): the dict[int, Value] both keep.
//
// A vector indexed by id for the dense ids that builders and printers produce, a hash map at and
// above kDenseIds (parsed text may use any id up to max_value_id), so lookups stay O(1) and no
// input makes it allocate more than a vector of the ids below kDenseIds it sets.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rocke/ir/core.hpp"

namespace rocke::ir {

class IdMap {
 public:
  // The value set for id (ids are >= 0), or nullptr.
  Value* find(std::int64_t id) const {
    if (id < kDenseIds) {
      return static_cast<std::size_t>(id) < dense_.size() ? dense_[static_cast<std::size_t>(id)] : nullptr;
    }
    auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : it->second;
  }
  void set(std::int64_t id, Value* value) {
    if (id < kDenseIds) {
      auto index = static_cast<std::size_t>(id);
      if (index >= dense_.size()) dense_.resize(std::max({index + 1, dense_.size() * 2, kFirstDense}), nullptr);
      dense_[index] = value;
      if (index >= used_) used_ = index + 1;
    } else {
      sparse_[id] = value;
    }
  }
  bool contains(std::int64_t id) const { return find(id) != nullptr; }
  // Unset every id. The dense storage is kept for the next use (the ids up to the highest one
  // set are reset) unless it grew past kKeptDense ids, which only a hand-written kernel's ids do.
  void clear() {
    if (dense_.size() > kKeptDense) {
      std::vector<Value*>().swap(dense_);
    } else {
      std::fill(dense_.begin(), dense_.begin() + static_cast<std::ptrdiff_t>(used_), nullptr);
    }
    used_ = 0;
    sparse_.clear();
  }
  void erase(std::int64_t id) {
    if (id < kDenseIds) {
      if (static_cast<std::size_t>(id) < dense_.size()) dense_[static_cast<std::size_t>(id)] = nullptr;
    } else {
      sparse_.erase(id);
    }
  }

 private:
  static constexpr std::int64_t kDenseIds = std::int64_t{1} << 20;
  // The first dense block: a small kernel's ids fit in it, so its scopes grow it once, not once
  // per doubling from 1.
  static constexpr std::size_t kFirstDense = 256;
  static constexpr std::size_t kKeptDense = std::size_t{1} << 16;
  std::vector<Value*> dense_;
  std::size_t used_ = 0;  // dense_ entries from here on were never set since the last clear()
  std::unordered_map<std::int64_t, Value*> sparse_;
};

}  // namespace rocke::ir
