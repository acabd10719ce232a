// rocKE C++ engine: FunctionEmitter, the state of lowering one kernel body into LLVM IR lines.
// Python twin: rocke/lower/emitter.py
//
// It maps IR values to their LLVM operand text, hands out temporaries and block labels, tracks
// the current block (phis name their predecessors), records the intrinsic declarations used
// (checking each against the arch-domain table) and keeps the op location for error messages.
#pragma once

#include <array>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rocke/arch/flavors.hpp"
#include "rocke/arch/intrinsics.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/core.hpp"
#include "rocke/lower/dispatch.hpp"
#include "rocke/lower/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower {

inline constexpr std::string_view kIndent = "  ";

// An integer attribute of a verified op.
std::int64_t int_attr(const ir::Op& op, std::string_view name);
// A string attribute of a verified op.
const std::string& str_attr(const ir::Op& op, std::string_view name);

class FunctionEmitter;
// The dispatcher, a plain function: one call through a pointer per op (no std::function layer).
using LowerOp = void (*)(FunctionEmitter&, const ir::Op&);

// A value as "TYPE TEXT" (Python's typed()), kept as its two parts so emit() appends them in
// place instead of building a string per operand.
struct Typed {
  const std::string& type;
  const std::string& text;

  std::string str() const { return util::cat(type, " ", text); }
};

// An integer part of an emitted line, as its decimal digits.
struct Decimal {
  char buf[24];
  const char* digits;
  std::size_t size;

  explicit Decimal(std::int64_t value) : digits(buf) {
    size = static_cast<std::size_t>(util::write_int(buf, value) - buf);
  }
};

// The parts of an emitted line: text, a Typed operand or a decimal integer. emit() sums their
// sizes, grows the body once and copies them in (rather than one append per part).
inline std::string_view line_part(std::string_view text) { return text; }
inline const Typed& line_part(const Typed& typed) { return typed; }
template <std::integral Int>
Decimal line_part(Int value) {
  return Decimal(static_cast<std::int64_t>(value));
}

inline std::size_t part_size(std::string_view text) { return text.size(); }
inline std::size_t part_size(const Typed& typed) { return typed.type.size() + 1 + typed.text.size(); }
inline std::size_t part_size(const Decimal& number) { return number.size; }

inline char* put_part(char* out, std::string_view text) { return util::copy_text(out, text.data(), text.size()); }
inline char* put_part(char* out, const Typed& typed) {
  out = put_part(out, typed.type);
  *out++ = ' ';
  return put_part(out, typed.text);
}
inline char* put_part(char* out, const Decimal& number) {
  return put_part(out, std::string_view(number.digits, number.size));
}

// Intrinsic call arguments (texts without types) and the %name a call defines (nullopt: none).
using CallArgs = std::initializer_list<std::string_view>;
using CallResult = std::optional<std::string_view>;

class FunctionEmitter {
 public:
  FunctionEmitter(const arch::ArchTarget& arch, const arch::Flavor& flavor,
                  const std::unordered_map<std::int64_t, std::int64_t>& lds_offsets, LowerOp lower_op);

  const arch::ArchTarget& arch;
  const arch::Target& target;  // triple, address spaces, buffer resource type
  LowerOp lower_op;  // lowers one op (the dispatcher), also for ops inside regions
  const arch::Flavor& flavor;
  const std::unordered_map<std::int64_t, std::int64_t>& lds_offsets;  // lds_alloc result id -> pool offset
  // The text: lower_verified writes the module's head, the lowering appends the function body's
  // lines (each ending in a newline) in place, one buffer rather than a string per line; scf.for
  // inserts its phis at a remembered offset.
  std::string body;
  // The declarations made, in the order made, each name once (Python's dict name -> declaration;
  // a kernel declares a handful, so declared_named() scans them). They live in a per-thread table
  // of checked ones.
  std::vector<const arch::IntrinsicDecl*> decls;
  // The declaration named name among decls, or nullptr.
  const arch::IntrinsicDecl* declared_named(std::string_view name) const;
  std::string current = "entry";                      // label of the block being filled

  // --- location of the op being lowered (Python's where and loc attributes, built on demand)
  // "OPCODE [%ID ]at PATH[INDEX]", or "kernel" outside any op: for errors.
  std::string where() const;
  // Its path PATH[INDEX] ("body" outside any op), from which nested region paths start.
  std::string loc() const;

  // --- text
  // One indented line: the parts (texts, Typed operands, integers) appended in order.
  template <class... Parts>
  void emit(const Parts&... parts) {
    emit_parts(line_part(parts)...);
  }
  void label(std::string_view name);
  std::string temp();
  std::int64_t next_scf_id();

  // --- values
  // Give value its %name (for an instruction or phi that defines it) and return the name. The
  // texts of bind, alias and ref stay valid for the emitter's lifetime.
  const std::string& bind(const ir::Value& value);
  // value is the constant (or existing operand) text: no instruction defines it.
  void alias(const ir::Value& value, std::string text);
  const std::string& ref(const ir::Value& value) const {
    const std::string* found = find_value(value.id);
    if (found == nullptr) missing_value(value.id);
    return *found;
  }
  Typed typed(const ir::Value& value) const;
  // ty as LLVM IR text on this kernel's target.
  const std::string& llvm_type(const ir::Type& ty) const;
  std::string pointer_text(std::string_view space) const;

  // --- errors
  LowerError error(std::string what) const;

  // --- intrinsics
  // The flavor's declaration of row (overloads filled in), checked against the arch domain.
  const arch::IntrinsicDecl& declare(const arch::IntrinsicDef& row, std::string_view elem = "", std::int64_t lanes = 0);
  // Emit a call of decl with argument texts (without types); result is the %name to define
  // (nullopt for void intrinsics).
  void call(const arch::IntrinsicDecl& decl, CallArgs args, CallResult result);
  void call(const arch::IntrinsicDecl& decl, const std::vector<std::string>& args, CallResult result);
  void call_named(std::string_view name, CallArgs args, CallResult result, std::string_view elem = "",
                  std::int64_t lanes = 0);
  // result = a call of decl; when decl returns another spelling of result's type (an i32 word for
  // an f32, <2 x i32> for four f16 lanes), the call's temporary is bitcast into it.
  void call_into(const arch::IntrinsicDecl& decl, CallArgs args, const ir::Value& result);
  void call_into(const arch::IntrinsicDecl& decl, const std::vector<std::string>& args, const ir::Value& result);
  // op's result = the intrinsic of row (its name in Python), overloaded on the result's float type,
  // of op's operands. The row is found once by each op's lowering (add_float_call_lowerings).
  void call_float(const arch::IntrinsicDef& row, const ir::Op& op);
  // value as an operand of LLVM type want: its text, or a bitcast of it when its type is spelled
  // differently (an f32 as an i32 word, bf16 lanes as i16 lanes).
  std::string operand_as(const ir::Value& value, std::string_view want);

  // --- regions
  // Lower ops (the kernel body, or a region: its scf.yield is its parent's business) in order.
  void lower_ops(const std::vector<ir::Op*>& ops, const std::string& path);
  // Lower a region's ops into the current block onwards; returns the values it yields.
  std::span<ir::Value* const> lower_region(const ir::Region& region, const std::string& path);

 private:
  template <class... Parts>
  void emit_parts(const Parts&... parts) {
    std::size_t at = body.size();
    body.resize(at + kIndent.size() + (part_size(parts) + ... + 0) + 1);
    char* out = put_part(body.data() + at, kIndent);
    ((out = put_part(out, parts)), ...);
    *out = '\n';
  }

  // The slot of value id's operand text ("" while unset), created on demand (a negative id is a
  // huge chunk number, so it takes the slow path too).
  std::string& value_slot(std::int64_t id) {
    auto chunk = static_cast<std::uint64_t>(id) >> kChunkBits;
    if (chunk < values_.size()) return (*values_[chunk])[static_cast<std::size_t>(id & (kChunkIds - 1))];
    return new_value_slot(id);
  }
  std::string& new_value_slot(std::int64_t id);
  // value id's operand text, nullptr while unset (no operand text is empty).
  const std::string* find_value(std::int64_t id) const {
    auto chunk = static_cast<std::uint64_t>(id) >> kChunkBits;
    if (chunk < values_.size()) {
      const std::string& text = (*values_[chunk])[static_cast<std::size_t>(id & (kChunkIds - 1))];
      return text.empty() ? nullptr : &text;
    }
    return find_sparse_value(id);
  }
  const std::string* find_sparse_value(std::int64_t id) const;
  // KeyError(str(id)): ref() of a value nothing defined.
  [[noreturn]] static void missing_value(std::int64_t id);
  // call's argument loop, over either form of args.
  template <class Args>
  void emit_call(const arch::IntrinsicDecl& decl, const Args& args, CallResult result);
  template <class Args>
  void emit_call_into(const arch::IntrinsicDecl& decl, const Args& args, const ir::Value& result);

  // Value id -> operand text. Ids are dense from 0, so chunks of kChunkIds texts indexed by id
  // (a chunk never moves, so references stay valid as they are added); ids beyond kDenseIds
  // (hand-written IR) go to the map.
  static constexpr std::int64_t kChunkBits = 8;
  static constexpr std::int64_t kChunkIds = std::int64_t{1} << kChunkBits;
  static constexpr std::int64_t kDenseIds = std::int64_t{1} << 20;
  using Chunk = std::array<std::string, kChunkIds>;
  // A chunk goes back to its thread's pool with its texts cleared (their buffers kept), so the
  // next emitter reuses it: no chunk of strings made and destroyed, no long name allocated again.
  struct ReturnChunk {
    void operator()(Chunk* chunk) const;
  };
  using ChunkPtr = std::unique_ptr<Chunk, ReturnChunk>;
  struct ChunkPool;
  // A checked declaration's key within its arch and flavor: the row's address and its overload.
  struct CheckedRow {
    std::uintptr_t row;
    std::int64_t lanes;
    std::string elem;
    auto operator<=>(const CheckedRow&) const = default;
  };
  using CheckedRows = std::map<CheckedRow, arch::IntrinsicDecl>;
  // The declarations checked on this thread, by arch and flavor name, then by row (and overload):
  // instantiate() and the arch-domain table are pure, so a row declared once for an arch and
  // flavor is that same declaration again. The maps' nodes never move: emitters keep pointers.
  static std::map<std::pair<std::string, std::string>, CheckedRows>& checked_decls();
  static ChunkPool& chunk_pool();
  static ChunkPtr take_chunk();
  std::vector<ChunkPtr> values_;
  std::unordered_map<std::int64_t, std::string> sparse_values_;
  // checked_decls()' map of this emitter's arch and flavor, found by the first declare().
  CheckedRows* checked_ = nullptr;
  // Declarations already checked, by row (and overload): declare() without building the decl.
  struct DeclaredRow {
    const arch::IntrinsicDef* row;
    std::string elem;
    std::int64_t lanes;
    const arch::IntrinsicDecl* decl;
  };
  std::vector<DeclaredRow> declared_;
  // The op being lowered, its region's path and its index there (nullptr outside any op).
  const ir::Op* op_ = nullptr;
  const std::string* op_path_ = nullptr;
  std::size_t op_index_ = 0;
  std::int64_t temps_ = 0;
  std::int64_t scf_ops_ = 0;
};

// The intrinsic row named name(), looked up once into slot (the intrinsic table never changes once
// read), for a lowering whose intrinsic's name depends on the op (one slot per name it can build;
// a fixed name is a function-static row): the name is neither built nor hashed again. A failed
// lookup throws as arch::intrinsic_def does, and is tried again next time.
template <class Name>
const arch::IntrinsicDef& intrinsic_once(std::atomic<const arch::IntrinsicDef*>& slot, const Name& name) {
  const arch::IntrinsicDef* row = slot.load(std::memory_order_acquire);
  if (row == nullptr) {
    row = &arch::intrinsic_def(name());
    slot.store(row, std::memory_order_release);
  }
  return *row;
}

// Lowerings of ops that are calls of an overloaded float intrinsic: Table holds (opcode, intrinsic
// name) pairs; each entry gets its own lowering, which finds its intrinsic's row once.
namespace detail {
template <const auto& Table, std::size_t I>
void lower_float_call(FunctionEmitter& em, const ir::Op& op) {
  static const arch::IntrinsicDef& row = arch::intrinsic_def(Table[I].second);
  em.call_float(row, op);
}
template <const auto& Table, std::size_t... I>
void add_float_calls(Lowerings& out, std::index_sequence<I...>) {
  (out.emplace_back(Table[I].first, &lower_float_call<Table, I>), ...);
}
}  // namespace detail

template <const auto& Table>
void add_float_call_lowerings(Lowerings& out) {
  detail::add_float_calls<Table>(out, std::make_index_sequence<std::size(Table)>());
}

}  // namespace rocke::lower
