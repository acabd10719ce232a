// Python twin: rocke/lower/emitter.py
#include "rocke/lower/emitter.hpp"

#include <compare>
#include <cstdint>
#include <utility>

#include "rocke/arch/arch_domain.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/lower/names.hpp"
#include "rocke/util/inline_vec.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower {

namespace {

// _ABSENT_REASON
std::string_view absent_reason(std::string_view status) {
  if (status == "arch-absent") return "LLVM cannot select it there";
  if (status == "name-absent") return "this LLVM does not know it";
  throw KeyError(util::cat("'", status, "'"));
}

}  // namespace

std::int64_t int_attr(const ir::Op& op, std::string_view name) {
  auto found = op.attrs.find(name);
  if (found == op.attrs.end() || !found->second.is_int()) {
    throw ValueError(util::cat(op.opcode, ": integer attribute '", name, "' is missing"));
  }
  return found->second.i;
}

const std::string& str_attr(const ir::Op& op, std::string_view name) {
  auto found = op.attrs.find(name);
  if (found == op.attrs.end() || !found->second.is_str()) {
    throw ValueError(util::cat(op.opcode, ": string attribute '", name, "' is missing"));
  }
  return found->second.s;
}

FunctionEmitter::FunctionEmitter(const arch::ArchTarget& arch_, const arch::Flavor& flavor_,
                                 const std::unordered_map<std::int64_t, std::int64_t>& lds_offsets_,
                                 LowerOp lower_op_)
    : arch(arch_), target(arch_.vendor_target()), lower_op(lower_op_), flavor(flavor_), lds_offsets(lds_offsets_) {}

void FunctionEmitter::label(std::string_view name) {
  body.append(name);
  body.append(":\n");
  current = std::string(name);
}

std::string FunctionEmitter::temp() {
  std::string name = "%t";
  util::append_int(name, temps_++);
  return name;
}

std::int64_t FunctionEmitter::next_scf_id() { return scf_ops_++; }

// The chunks kept on this thread between emitters; freed with the thread.
struct FunctionEmitter::ChunkPool {
  static constexpr std::size_t kKept = 64;  // a larger kernel's further chunks are freed
  std::vector<Chunk*> chunks;
  ChunkPool() = default;
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;
  ~ChunkPool() {
    for (Chunk* chunk : chunks) delete chunk;
  }
};

FunctionEmitter::ChunkPool& FunctionEmitter::chunk_pool() {
  thread_local ChunkPool pool;
  return pool;
}

void FunctionEmitter::ReturnChunk::operator()(Chunk* chunk) const {
  std::vector<Chunk*>& kept = chunk_pool().chunks;
  if (kept.size() >= ChunkPool::kKept) {
    delete chunk;
    return;
  }
  for (std::string& text : *chunk) text.clear();  // unset again ("" is no operand text)
  kept.push_back(chunk);
}

FunctionEmitter::ChunkPtr FunctionEmitter::take_chunk() {
  std::vector<Chunk*>& kept = chunk_pool().chunks;
  if (kept.empty()) return ChunkPtr(new Chunk());
  Chunk* chunk = kept.back();
  kept.pop_back();
  return ChunkPtr(chunk);
}

std::string& FunctionEmitter::new_value_slot(std::int64_t id) {
  if (id < 0 || id >= kDenseIds) return sparse_values_[id];
  auto chunk = static_cast<std::size_t>(id >> kChunkBits);
  while (chunk >= values_.size()) values_.push_back(take_chunk());
  return (*values_[chunk])[static_cast<std::size_t>(id & (kChunkIds - 1))];
}

const std::string* FunctionEmitter::find_sparse_value(std::int64_t id) const {
  auto found = sparse_values_.find(id);
  return found == sparse_values_.end() ? nullptr : &found->second;
}

void FunctionEmitter::missing_value(std::int64_t id) { throw KeyError(std::to_string(id)); }

const std::string& FunctionEmitter::bind(const ir::Value& value) {
  std::string& slot = value_slot(value.id);
  slot.clear();
  append_value_name(slot, value);
  return slot;
}

void FunctionEmitter::alias(const ir::Value& value, std::string text) { value_slot(value.id) = std::move(text); }

Typed FunctionEmitter::typed(const ir::Value& value) const { return Typed{lower::llvm_type(value.type, target), ref(value)}; }

const std::string& FunctionEmitter::llvm_type(const ir::Type& ty) const { return lower::llvm_type(ty, target); }

std::string FunctionEmitter::pointer_text(std::string_view space) const { return lower::pointer_text(space, target); }

LowerError FunctionEmitter::error(std::string what) const { return LowerError(where(), std::move(what)); }

std::string FunctionEmitter::loc() const {
  if (op_ == nullptr) return "body";
  return util::cat(*op_path_, "[", std::to_string(op_index_), "]");
}

std::string FunctionEmitter::where() const {
  if (op_ == nullptr) return "kernel";
  if (op_->results.empty()) return util::cat(op_->opcode, " at ", loc());
  return util::cat(op_->opcode, " %", std::to_string(op_->results[0]->id), " at ", loc());
}

const arch::IntrinsicDecl* FunctionEmitter::declared_named(std::string_view name) const {
  for (const arch::IntrinsicDecl* decl : decls) {
    if (util::same_text(decl->name, name)) return decl;
  }
  return nullptr;
}

std::map<std::pair<std::string, std::string>, FunctionEmitter::CheckedRows>& FunctionEmitter::checked_decls() {
  thread_local std::map<std::pair<std::string, std::string>, CheckedRows> checked;
  return checked;
}

const arch::IntrinsicDecl& FunctionEmitter::declare(const arch::IntrinsicDef& row, std::string_view elem,
                                                    std::int64_t lanes) {
  // instantiate is pure: a row (and overload) declared before is that declaration again.
  for (const DeclaredRow& known : declared_) {
    if (known.row == &row && known.lanes == lanes && util::same_text(known.elem, elem)) return *known.decl;
  }
  if (row.overload.empty() && elem.empty()) {
    if (const arch::IntrinsicDecl* known = declared_named(row.name)) return *known;
  }
  if (checked_ == nullptr) checked_ = &checked_decls()[{arch.name, flavor.name}];
  CheckedRow key{reinterpret_cast<std::uintptr_t>(&row), lanes, std::string(elem)};
  CheckedRows& checked = *checked_;
  auto hit = checked.find(key);
  const arch::IntrinsicDecl* decl = nullptr;
  if (hit != checked.end()) {
    decl = &hit->second;
    if (const arch::IntrinsicDecl* found = declared_named(decl->name)) return *found;
  } else {
    arch::IntrinsicDecl made = arch::instantiate(row, flavor.name, elem, lanes);
    if (const arch::IntrinsicDecl* found = declared_named(made.name)) return *found;
    std::optional<std::string> status = arch::arch_domain_status(made.domain_key, arch.name, flavor.name);
    if (!status.has_value()) {
      throw error(util::cat("intrinsic '", made.domain_key, "' has no arch-domain entry for flavor ", flavor.name,
                            "; regenerate rocke/arch/data/arch_domain.toml with platform/tools/probe_arch_domain.py"));
    }
    if (*status != "ok") {
      throw error(util::cat("intrinsic '", made.domain_key, "' is outside the arch domain of ", arch.name,
                            " under flavor ", flavor.name, " (", *status, ": ", absent_reason(*status), ")"));
    }
    decl = &checked.emplace(std::move(key), std::move(made)).first->second;
  }
  decls.push_back(decl);
  declared_.push_back(DeclaredRow{&row, std::string(elem), lanes, decl});
  return *decl;
}

template <class Args>
void FunctionEmitter::emit_call(const arch::IntrinsicDecl& decl, const Args& args, CallResult result) {
  const std::vector<std::string>& types = decl.arg_types();
  if (types.size() != args.size()) {
    throw ValueError(util::cat("zip() argument 2 is ", args.size() < types.size() ? "shorter" : "longer",
                               " than argument 1"));
  }
  // [RESULT = ]call RET @NAME(TYPE ARG, ...): sized first, then copied into the body at once.
  std::size_t size = kIndent.size() + std::string_view("call  @()\n").size() + decl.ret.size() + decl.name.size();
  if (result.has_value()) size += result->size() + 3;
  std::size_t i = 0;
  for (const auto& arg : args) {
    size += (i != 0 ? 2 : 0) + types[i].size() + 1 + std::string_view(arg).size();
    ++i;
  }
  std::size_t at = body.size();
  body.resize(at + size);
  char* out = put_part(body.data() + at, kIndent);
  if (result.has_value()) {
    out = put_part(out, *result);
    out = put_part(out, " = ");
  }
  out = put_part(out, "call ");
  out = put_part(out, decl.ret);
  out = put_part(out, " @");
  out = put_part(out, decl.name);
  *out++ = '(';
  i = 0;
  for (const auto& arg : args) {
    if (i != 0) out = put_part(out, ", ");
    out = put_part(out, types[i++]);
    *out++ = ' ';
    out = put_part(out, arg);
  }
  put_part(out, ")\n");
}

void FunctionEmitter::call(const arch::IntrinsicDecl& decl, CallArgs args, CallResult result) {
  emit_call(decl, args, result);
}

void FunctionEmitter::call(const arch::IntrinsicDecl& decl, const std::vector<std::string>& args,
                           CallResult result) {
  emit_call(decl, args, result);
}

void FunctionEmitter::call_named(std::string_view name, CallArgs args, CallResult result, std::string_view elem,
                                 std::int64_t lanes) {
  call(declare(arch::intrinsic_def(name), elem, lanes), args, result);
}

template <class Args>
void FunctionEmitter::emit_call_into(const arch::IntrinsicDecl& decl, const Args& args, const ir::Value& result) {
  const std::string& result_type = lower::llvm_type(result.type, target);
  if (decl.ret == result_type) {
    emit_call(decl, args, bind(result));
    return;
  }
  std::string raw = temp();
  emit_call(decl, args, raw);
  emit(bind(result), " = bitcast ", decl.ret, " ", raw, " to ", result_type);
}

void FunctionEmitter::call_into(const arch::IntrinsicDecl& decl, CallArgs args, const ir::Value& result) {
  emit_call_into(decl, args, result);
}

void FunctionEmitter::call_into(const arch::IntrinsicDecl& decl, const std::vector<std::string>& args,
                                const ir::Value& result) {
  emit_call_into(decl, args, result);
}

void FunctionEmitter::call_float(const arch::IntrinsicDef& row, const ir::Op& op) {
  ir::Type ty = op.results[0]->type;
  // The operands' texts are viewed where they are (a value's text stays put: see bind), not copied.
  util::InlineVec<std::string_view, 4> args;
  for (const ir::Value* v : op.operands) args.push_back(ref(*v));
  const std::string& result = bind(*op.results[0]);
  emit_call(declare(row, elem_of(ty).name(), lanes_of(ty)), args, result);
}

std::string FunctionEmitter::operand_as(const ir::Value& value, std::string_view want) {
  if (lower::llvm_type(value.type, target) == want) return ref(value);
  std::string cast = temp();
  emit(cast, " = bitcast ", typed(value), " to ", want);
  return cast;
}

void FunctionEmitter::lower_ops(const std::vector<ir::Op*>& ops, const std::string& path) {
  // The op's location is three fields set here and restored after it (where() and loc() build the
  // texts Python keeps in where and loc, only when asked).
  const ir::Op* outer_op = op_;
  const std::string* outer_path = op_path_;
  const std::size_t outer_index = op_index_;
  for (std::size_t index = 0; index < ops.size(); ++index) {
    const ir::Op& op = *ops[index];
    if (op.opcode == "scf.yield") continue;
    op_ = &op;
    op_path_ = &path;
    op_index_ = index;
    lower_op(*this, op);
    op_ = outer_op;
    op_path_ = outer_path;
    op_index_ = outer_index;
  }
}

std::span<ir::Value* const> FunctionEmitter::lower_region(const ir::Region& region, const std::string& path) {
  lower_ops(region.ops, path);
  return region.ops.back()->operands;
}

}  // namespace rocke::lower
