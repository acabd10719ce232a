// rocKE C++ engine: FunctionEmitter, the state of lowering one kernel body into LLVM IR lines.
// Python twin: rocke/lower/emitter.py
//
// It maps IR values to their LLVM operand text, hands out temporaries and block labels, tracks
// the current block (phis name their predecessors), records the intrinsic declarations used
// (checking each against the arch-domain table) and keeps the op location for error messages.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rocke/arch/flavors.hpp"
#include "rocke/arch/intrinsics.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/core.hpp"
#include "rocke/lower/errors.hpp"

namespace rocke::lower {

inline constexpr std::string_view kIndent = "  ";

// An integer attribute of a verified op.
std::int64_t int_attr(const ir::Op& op, std::string_view name);
// A string attribute of a verified op.
const std::string& str_attr(const ir::Op& op, std::string_view name);

class FunctionEmitter;
using LowerOp = std::function<void(FunctionEmitter&, const ir::Op&)>;

class FunctionEmitter {
 public:
  FunctionEmitter(const arch::ArchTarget& arch, const arch::Flavor& flavor,
                  const std::unordered_map<std::int64_t, std::int64_t>& lds_offsets, LowerOp lower_op);

  const arch::ArchTarget& arch;
  LowerOp lower_op;  // lowers one op (the dispatcher), also for ops inside regions
  const arch::Flavor& flavor;
  const std::unordered_map<std::int64_t, std::int64_t>& lds_offsets;  // lds_alloc result id -> pool offset
  std::vector<std::string> lines;
  std::map<std::string, arch::IntrinsicDecl> decls;  // declaration name -> declaration
  std::string current = "entry";                      // label of the block being filled

  // --- location of the op being lowered (Python's where and loc attributes, built on demand)
  // "OPCODE [%ID ]at PATH[INDEX]", or "kernel" outside any op: for errors.
  std::string where() const;
  // Its path PATH[INDEX] ("body" outside any op), from which nested region paths start.
  std::string loc() const;

  // --- text
  void emit(std::string_view line);
  void label(std::string_view name);
  std::string temp();
  std::int64_t next_scf_id();

  // --- values
  // Give value its %name (for an instruction or phi that defines it) and return the name.
  std::string bind(const ir::Value& value);
  // value is the constant (or existing operand) text: no instruction defines it.
  void alias(const ir::Value& value, std::string text);
  const std::string& ref(const ir::Value& value) const;
  std::string typed(const ir::Value& value) const;

  // --- errors
  LowerError error(std::string what) const;

  // --- intrinsics
  // The flavor's declaration of row (overloads filled in), checked against the arch domain.
  const arch::IntrinsicDecl& declare(const arch::IntrinsicDef& row, std::string_view elem = "", std::int64_t lanes = 0);
  // Emit a call of decl with argument texts (without types); result is the %name to define
  // (nullopt for void intrinsics).
  void call(const arch::IntrinsicDecl& decl, const std::vector<std::string>& args,
            const std::optional<std::string>& result);
  void call_named(std::string_view name, const std::vector<std::string>& args, const std::optional<std::string>& result,
                  std::string_view elem = "", std::int64_t lanes = 0);
  // result = a call of decl; when decl returns another spelling of result's type (an i32 word for
  // an f32, <2 x i32> for four f16 lanes), the call's temporary is bitcast into it.
  void call_into(const arch::IntrinsicDecl& decl, const std::vector<std::string>& args, const ir::Value& result);
  // op's result = the intrinsic name, overloaded on the result's float type, of op's operands.
  void call_float(std::string_view name, const ir::Op& op);
  // value as an operand of LLVM type want: its text, or a bitcast of it when its type is spelled
  // differently (an f32 as an i32 word, bf16 lanes as i16 lanes).
  std::string operand_as(const ir::Value& value, std::string_view want);

  // --- regions
  // Lower ops (the kernel body, or a region: its scf.yield is its parent's business) in order.
  void lower_ops(const std::vector<ir::Op*>& ops, const std::string& path);
  // Lower a region's ops into the current block onwards; returns the values it yields.
  const ir::Values& lower_region(const ir::Region& region, const std::string& path);

 private:
  std::unordered_map<std::int64_t, std::string> values_;  // value id -> operand text
  // The op being lowered, its region's path and its index there (nullptr outside any op).
  const ir::Op* op_ = nullptr;
  const std::string* op_path_ = nullptr;
  std::size_t op_index_ = 0;
  std::int64_t temps_ = 0;
  std::int64_t scf_ops_ = 0;
};

}  // namespace rocke::lower
