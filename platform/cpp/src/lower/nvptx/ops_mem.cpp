// Python twin: rocke/lower/nvptx/ops_mem.py
#include "rocke/lower/nvptx/ops_mem.hpp"

#include <tuple>
#include <utility>
#include <vector>

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/lower/ops_mem.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::nvptx::ops_mem {

namespace {

// The (base, num_records) pair; a constant base is cast to global through the generic space.
void lower_make_rsrc(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& base = *op.operands[0];
  const ir::Value& num_records = *op.operands[1];
  std::string base_text = em.ref(base);
  std::string global = em.pointer_text("global");
  if (lower::ops_mem::pointee_space(base) != "global") {
    std::string generic = em.temp();
    std::string cast = em.temp();
    em.emit(generic, " = addrspacecast ", em.typed(base), " to ptr");
    em.emit(cast, " = addrspacecast ptr ", generic, " to ", global);
    base_text = cast;
  }
  const std::string& rsrc = em.target.rsrc_type;
  std::string first = em.temp();
  em.emit(first, " = insertvalue ", rsrc, " poison, ", global, " ", base_text, ", 0");
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = insertvalue ", rsrc, " ", first, ", ", em.typed(num_records), ", 1");
}

// Branch to a new block when offset + nbytes <= num_records; returns (the access address in that
// block, the block's label, the join label, the blocks' number). The caller ends the block with
// "br label %join".
std::tuple<std::string, std::string, std::string, std::string> guard(FunctionEmitter& em, const ir::Value& rsrc,
                                                                     const ir::Value& offset, std::int64_t nbytes,
                                                                     std::string_view kind) {
  std::string base = em.temp();
  std::string records = em.temp();
  std::string wide = em.temp();
  std::string end = em.temp();
  std::string limit = em.temp();
  std::string inside = em.temp();
  std::string address = em.temp();
  std::string rsrc_text = em.typed(rsrc).str();
  em.emit(base, " = extractvalue ", rsrc_text, ", 0");
  em.emit(records, " = extractvalue ", rsrc_text, ", 1");
  em.emit(wide, " = zext i32 ", em.ref(offset), " to i64");
  em.emit(end, " = add i64 ", wide, ", ", nbytes);
  em.emit(limit, " = zext i32 ", records, " to i64");
  em.emit(inside, " = icmp ule i64 ", end, ", ", limit);
  std::string number = std::to_string(em.next_scf_id());  // names this access's blocks
  std::string access = util::cat("buf", number, ".", kind);
  std::string join = util::cat("buf", number, ".join");
  em.emit("br i1 ", inside, ", label %", access, ", label %", join);
  em.label(access);
  em.emit(address, " = getelementptr inbounds i8, ", em.pointer_text("global"), " ", base, ", i64 ", wide);
  return {address, access, join, number};
}

// The blocks the access runs in, each with the alignment it assumes: the current block with the
// natural alignment when that is the element's; else a branch on the address to an aligned block
// (natural alignment) and a split block (the element's alignment).
std::vector<std::pair<std::string, std::int64_t>> alignment_paths(FunctionEmitter& em, const std::string& address,
                                                                  const ir::Type& ty, const std::string& number) {
  std::int64_t natural = natural_align(ty);
  std::int64_t element = natural_align(elem_of(ty));
  if (natural == element) return {{em.current, natural}};
  std::string bits = em.temp();
  std::string low = em.temp();
  std::string aligned = em.temp();
  em.emit(bits, " = ptrtoint ", em.pointer_text("global"), " ", address, " to i64");
  em.emit(low, " = and i64 ", bits, ", ", natural - 1);
  em.emit(aligned, " = icmp eq i64 ", low, ", 0");
  std::string vector = util::cat("buf", number, ".vector");
  std::string split = util::cat("buf", number, ".split");
  em.emit("br i1 ", aligned, ", label %", vector, ", label %", split);
  return {{vector, natural}, {split, element}};
}

void lower_buffer_load(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& rsrc = *op.operands[0];
  const ir::Value& offset = *op.operands[1];
  const ir::Value& result = *op.results[0];
  std::string ty = em.llvm_type(result.type);
  lower::ops_mem::buffer_type(em, result.type);  // the access sizes AMD's raw buffers move, refused alike
  std::string entering = em.current;
  auto [address, access, join, number] = guard(em, rsrc, offset, byte_size(result.type), "load");
  std::string incoming;
  auto paths = alignment_paths(em, address, result.type, number);
  for (const auto& [label, align] : paths) {
    if (paths.size() > 1) em.label(label);
    std::string loaded = em.temp();
    em.emit(loaded, " = load ", ty, ", ", em.pointer_text("global"), " ", address, ", align ", align);
    em.emit("br label %", join);
    incoming.append(incoming.empty() ? "" : ", ").append(util::cat("[ ", loaded, ", %", label, " ]"));
  }
  em.label(join);
  const std::string& name = em.bind(result);
  em.emit(name, " = phi ", ty, " ", incoming, ", [ zeroinitializer, %", entering, " ]");
}

void lower_buffer_store(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& rsrc = *op.operands[0];
  const ir::Value& offset = *op.operands[1];
  const ir::Value& value = *op.operands[2];
  lower::ops_mem::buffer_type(em, value.type);
  auto [address, access, join, number] = guard(em, rsrc, offset, byte_size(value.type), "store");
  auto paths = alignment_paths(em, address, value.type, number);
  for (const auto& [label, align] : paths) {
    if (paths.size() > 1) em.label(label);
    em.emit("store ", em.typed(value), ", ", em.pointer_text("global"), " ", address, ", align ", align);
    em.emit("br label %", join);
  }
  em.label(join);
}

// Relaxed float add at the default (system) scope: atom.global.add.f32; the old value is unused.
void lower_atomic_add_f32(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& ptr = *op.operands[0];
  const ir::Value& index = *op.operands[1];
  const ir::Value& value = *op.operands[2];
  std::string address = lower::ops_mem::emit_gep(em, ptr, index);
  std::string old = em.temp();
  em.emit(old, " = atomicrmw fadd ", em.llvm_type(ptr.type), " ", address, ", ", em.typed(value),
          " monotonic, align 4");
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table{
      {"mem.make_rsrc", &lower_make_rsrc},
      {"mem.buffer_load", &lower_buffer_load},
      {"mem.buffer_store", &lower_buffer_store},
      {"mem.atomic_add_f32", &lower_atomic_add_f32},
  };
  return table;
}

}  // namespace rocke::lower::nvptx::ops_mem
