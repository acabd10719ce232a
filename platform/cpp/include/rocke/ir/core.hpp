// rocKE C++ engine: the IR objects Value (SSA), Op, Region, Param and KernelDef.
// Python twin: rocke/ir/core.py
//
// Values, Ops and Regions live in an Arena owned by their KernelDef (or, while a kernel is being
// built or parsed, by the Builder or parser), so the raw pointers linking them stay valid for
// the kernel's lifetime. Values are compared by identity (pointer); their id is the number
// printed as %id.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <new>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/ir/attrs.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/ir/types.hpp"
#include "rocke/util/inline_vec.hpp"

namespace rocke::ir {

struct Op;
struct Region;

// A result-name hint: none, or a name printed as "NAME" after the id.
using Hint = std::optional<std::string>;

// An SSA value: id (printed %id), type, optional name hint (kept through text round trips).
struct Value {
  std::int64_t id = 0;
  Type type;
  Hint name;
};

using Values = std::vector<Value*>;
// An op's operand or result list: up to four values inside the Op, more on the heap.
using OpValues = util::InlineVec<Value*, 4>;

// A list of ops with block arguments (scf.for's induction variable and iter values).
struct Region {
  Values args;
  std::vector<Op*> ops;
};

// One operation: opcode (a name in ops.toml), operands, results, attributes, regions.
struct Op {
  Op() = default;
  // Each member made from its argument (as an aggregate, the whole op was zeroed first).
  Op(std::string_view opcode_, const OpDef* def_, OpValues&& operands_, OpValues&& results_, AttrMap&& attrs_,
     std::vector<Region*>&& regions_)
      : opcode(opcode_),
        def(def_),
        operands(std::move(operands_)),
        results(std::move(results_)),
        attrs(std::move(attrs_)),
        regions(std::move(regions_)) {}

  // The table row's name when opcode is known (no copy per op), else text kept by the Arena.
  std::string_view opcode;
  const OpDef* def = nullptr;  // the table row of opcode (nullptr for an unknown opcode)
  OpValues operands;
  OpValues results;
  AttrMap attrs;
  std::vector<Region*> regions;
  // Builder::emit_op ran check_op on this op's operand types, attrs and result types as made: a
  // verify inside the VerifyOnce scope that saw the kernel finished need not run it again.
  bool checked_at_emission = false;

  // The single result; ValueError unless the op has exactly one.
  Value* result() const;
  // The table row the op was made with, when it still names the op's opcode (else nullptr).
  const OpDef* own_def() const {
    if (def == nullptr) return nullptr;
    return opcode.data() == def->name.data() || opcode == def->name ? def : nullptr;
  }
};

// A kernel parameter: its Value and its attributes (every pointer param carries all of them).
struct Param {
  Value* value = nullptr;
  AttrMap attrs;
  const Hint& name() const { return value->name; }
  const Type& type() const { return value->type; }
};

// Objects in blocks that never move (a growing list of fixed arrays): a deque's small nodes
// hold only a few Ops, so it allocated every few ops. Blocks double up to kMaxBlockBytes, below
// the sizes whose free makes malloc consolidate its heap (64 KiB) or map pages (128 KiB).
template <class T>
class StableList {
 public:
  StableList() = default;
  StableList(const StableList&) = delete;
  StableList& operator=(const StableList&) = delete;
  ~StableList() {
    for (Block& block : blocks_) {
      for (std::size_t i = 0; i < block.used; ++i) block.items[i].~T();
      ::operator delete(static_cast<void*>(block.items));
    }
  }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    if (blocks_.empty() || blocks_.back().used == blocks_.back().capacity) grow();
    Block& block = blocks_.back();
    T* slot = ::new (static_cast<void*>(block.items + block.used)) T(std::forward<Args>(args)...);
    ++block.used;
    return *slot;
  }

 private:
  static constexpr std::size_t kFirstBlock = 32;
  static constexpr std::size_t kMaxBlockBytes = 32 * 1024;
  static constexpr std::size_t kMaxBlock = std::max(kFirstBlock, kMaxBlockBytes / sizeof(T));
  struct Block {
    T* items;
    std::size_t used;
    std::size_t capacity;
  };
  void grow() {
    std::size_t capacity = blocks_.empty() ? kFirstBlock : std::min(blocks_.back().capacity * 2, kMaxBlock);
    if (blocks_.capacity() == blocks_.size()) blocks_.reserve(blocks_.size() * 2 + 4);  // before the allocation
    T* items = static_cast<T*>(::operator new(capacity * sizeof(T)));
    blocks_.push_back(Block{items, 0, capacity});
  }

  std::vector<Block> blocks_;
};

// Owner of every Value, Op and Region of one kernel; addresses never move.
class Arena {
 public:
  Value* value(std::int64_t id, Type type, Hint name);
  Op* op(std::string_view opcode, OpValues operands = {}, OpValues results = {}, AttrMap attrs = {},
         std::vector<Region*> regions = {});
  // The same op of a table row already looked up (def->name is its opcode). The lists move into
  // the op once (taken by reference: the builder's and the parser's ops are made on every op).
  Op* op(const OpDef& def, OpValues&& operands, OpValues&& results, AttrMap&& attrs,
         std::vector<Region*>&& regions = {});
  Region* region(Values args = {}, std::vector<Op*> ops = {});

 private:
  StableList<Value> values_;
  StableList<Op> ops_;
  StableList<Region> regions_;
  StableList<std::string> texts_;  // the opcodes no table row names
};

// A kernel: name, params, kernel attributes (max_workgroup_size, waves_per_eu) and body.
class KernelDef {
 public:
  KernelDef(std::string name, std::vector<Param> params, AttrMap attrs, Region* body, std::unique_ptr<Arena> arena);
  KernelDef(KernelDef&&) noexcept = default;
  KernelDef& operator=(KernelDef&&) noexcept = default;
  KernelDef(const KernelDef&) = delete;
  KernelDef& operator=(const KernelDef&) = delete;

  std::string name;
  std::vector<Param> params;
  AttrMap attrs;
  Region* body;

  // Every op in text order (an op before the ops of its regions).
  void walk(const std::function<void(Op&)>& visit) const;
  std::size_t op_count() const;
  Arena& arena() { return *arena_; }

 private:
  std::unique_ptr<Arena> arena_;
};

}  // namespace rocke::ir
