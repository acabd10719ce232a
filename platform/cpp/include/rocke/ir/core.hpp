// rocKE C++ engine: the IR objects Value (SSA), Op, Region, Param and KernelDef.
// Python twin: rocke/ir/core.py
//
// Values, Ops and Regions live in an Arena owned by their KernelDef (or, while a kernel is being
// built or parsed, by the Builder or parser), so the raw pointers linking them stay valid for
// the kernel's lifetime. Values are compared by identity (pointer); their id is the number
// printed as %id.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/ir/attrs.hpp"
#include "rocke/ir/optable.hpp"
#include "rocke/ir/types.hpp"

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

// A list of ops with block arguments (scf.for's induction variable and iter values).
struct Region {
  Values args;
  std::vector<Op*> ops;
};

// One operation: opcode (a name in ops.toml), operands, results, attributes, regions.
struct Op {
  std::string opcode;
  const OpDef* def = nullptr;  // the table row of opcode (nullptr for an unknown opcode)
  Values operands;
  Values results;
  AttrMap attrs;
  std::vector<Region*> regions;

  // The single result; ValueError unless the op has exactly one.
  Value* result() const;
};

// A kernel parameter: its Value and its attributes (every pointer param carries all of them).
struct Param {
  Value* value = nullptr;
  AttrMap attrs;
  const Hint& name() const { return value->name; }
  const Type& type() const { return value->type; }
};

// Owner of every Value, Op and Region of one kernel; addresses never move.
class Arena {
 public:
  Value* value(std::int64_t id, Type type, Hint name);
  Op* op(std::string opcode, Values operands = {}, Values results = {}, AttrMap attrs = {},
         std::vector<Region*> regions = {});
  // The same op of a table row already looked up (def->name is its opcode).
  Op* op(const OpDef& def, Values operands = {}, Values results = {}, AttrMap attrs = {},
         std::vector<Region*> regions = {});
  Region* region(Values args = {}, std::vector<Op*> ops = {});

 private:
  std::deque<Value> values_;
  std::deque<Op> ops_;
  std::deque<Region> regions_;
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
