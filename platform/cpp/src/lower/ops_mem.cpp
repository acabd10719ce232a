// Python twin: rocke/lower/ops_mem.py
#include "rocke/lower/ops_mem.hpp"

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/lds.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_mem {

namespace {

// Bytes a raw buffer access moves -> the name suffix of the buffer intrinsic that moves them (its
// memory type is the intrinsic's: the return type of a load, the data operand of a store).
constexpr std::pair<std::int64_t, std::string_view> kBufferSuffixes[] = {
    {1, "i8"}, {2, "i16"}, {4, "i32"}, {8, "v2i32"}, {12, "v3i32"}, {16, "v4i32"}};
constexpr std::string_view kBufferSizesText = "1, 2, 4, 8, 12 or 16";

}  // namespace

std::string_view pointee_space(const ir::Value& ptr) { return ptr.type.space(); }

std::string emit_gep(FunctionEmitter& em, const ir::Value& ptr, const ir::Value& index,
                     std::optional<std::string> result) {
  if (!result.has_value()) result = em.temp();
  em.emit(*result, " = getelementptr inbounds ", gep_type(pointee_of(ptr.type)), ", ", em.typed(ptr), ", ",
                    em.typed(index));
  return *result;
}

namespace {

// The align attribute, or what the pointer guarantees (the pointee's natural alignment).
std::int64_t access_align(const ir::Op& op, const ir::Value& ptr) {
  std::int64_t align = int_attr(op, "align");
  return align ? align : natural_align(pointee_of(ptr.type));
}

void lower_load(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& ptr = *op.operands[0];
  const ir::Value& index = *op.operands[1];
  std::string address = emit_gep(em, ptr, index);
  const ir::Value& result = *op.results[0];
  const std::string& name = em.bind(result);
  em.emit(name, " = load ", em.llvm_type(result.type), ", ", em.llvm_type(ptr.type), " ", address, ", align ",
                    access_align(op, ptr));
}

void lower_store(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& ptr = *op.operands[0];
  const ir::Value& index = *op.operands[1];
  const ir::Value& value = *op.operands[2];
  std::string address = emit_gep(em, ptr, index);
  em.emit("store ", em.typed(value), ", ", em.llvm_type(ptr.type), " ", address, ", align ",
                    access_align(op, ptr));
}

void lower_ptr_add(FunctionEmitter& em, const ir::Op& op) {
  emit_gep(em, *op.operands[0], *op.operands[1], em.bind(*op.results[0]));
}

void lower_lds_alloc(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& result = *op.results[0];
  const std::string& lds = em.pointer_text("lds");
  auto offset = em.lds_offsets.find(result.id);
  if (offset == em.lds_offsets.end()) throw KeyError(std::to_string(result.id));
  const std::string& name = em.bind(result);
  em.emit(name, " = getelementptr inbounds i8, ", lds, " ", em.target.lds_pool, ", i32 ",
                    offset->second);
}

// llvm.amdgcn.make.buffer.rsrc(base, stride 0, num_records, flags = the arch's word 3). The record
// count's width comes from the flavor's declaration; a constant base is cast to global.
void lower_make_rsrc(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& base = *op.operands[0];
  const ir::Value& num_records = *op.operands[1];
  static const arch::IntrinsicDef& row = arch::intrinsic_def("llvm.amdgcn.make.buffer.rsrc.p8.p1");
  const arch::IntrinsicDecl& decl = em.declare(row);
  // Views of the operands' texts (they stay put for the emitter's lifetime) or of the temps below.
  std::string cast;
  std::string_view base_text = em.ref(base);
  if (pointee_space(base) != "global") {
    cast = em.temp();
    em.emit(cast, " = addrspacecast ", em.typed(base), " to ", em.pointer_text("global"));
    base_text = cast;
  }
  std::string wide;
  std::string_view count_text = em.ref(num_records);
  const std::string& count_type = decl.arg_types().at(2);
  if (count_type != "i32") {
    wide = em.temp();
    em.emit(wide, " = zext i32 ", count_text, " to ", count_type);
    count_text = wide;
  }
  const std::string& name = em.bind(*op.results[0]);
  em.call(decl, {base_text, "0", count_text, i32_text(em.arch.buffer_rsrc_word3)}, name);
}

}  // namespace

std::size_t buffer_type(FunctionEmitter& em, const ir::Type& value_type) {
  std::int64_t size = byte_size(value_type);
  for (std::size_t at = 0; at < std::size(kBufferSuffixes); ++at) {
    if (kBufferSuffixes[at].first == size) return at;
  }
  throw em.error(util::cat("a buffer access of ", value_type.text(), " moves ", std::to_string(size),
                           " bytes; raw buffer accesses move ", kBufferSizesText, " bytes"));
}

namespace {

// The row of prefix + the suffix of entry `at`, found once per entry (slots: one per entry).
const arch::IntrinsicDef& buffer_intrinsic(std::atomic<const arch::IntrinsicDef*> (&slots)[std::size(kBufferSuffixes)],
                                           std::string_view prefix, std::size_t at) {
  return intrinsic_once(slots[at], [&] { return util::cat(prefix, kBufferSuffixes[at].second); });
}

void lower_buffer_load(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& rsrc_value = *op.operands[0];
  const ir::Value& offset = *op.operands[1];
  const ir::Value& result = *op.results[0];
  static std::atomic<const arch::IntrinsicDef*> rows[std::size(kBufferSuffixes)];
  const arch::IntrinsicDecl& decl =
      em.declare(buffer_intrinsic(rows, "llvm.amdgcn.raw.ptr.buffer.load.", buffer_type(em, result.type)));
  em.call_into(decl, {em.ref(rsrc_value), em.ref(offset), "0", "0"}, result);
}

void lower_buffer_store(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& rsrc_value = *op.operands[0];
  const ir::Value& offset = *op.operands[1];
  const ir::Value& value = *op.operands[2];
  static std::atomic<const arch::IntrinsicDef*> rows[std::size(kBufferSuffixes)];
  const arch::IntrinsicDecl& decl =
      em.declare(buffer_intrinsic(rows, "llvm.amdgcn.raw.ptr.buffer.store.", buffer_type(em, value.type)));
  std::string data = em.operand_as(value, decl.arg_types()[0]);
  em.call(decl, {data, em.ref(rsrc_value), em.ref(offset), "0", "0"}, std::nullopt);
}

// Device-scope (agent) relaxed float add; the old value is unused.
void lower_atomic_add_f32(FunctionEmitter& em, const ir::Op& op) {
  const ir::Value& ptr = *op.operands[0];
  const ir::Value& index = *op.operands[1];
  const ir::Value& value = *op.operands[2];
  std::string address = emit_gep(em, ptr, index);
  std::string old = em.temp();
  em.emit(old, " = atomicrmw fadd ", em.llvm_type(ptr.type), " ", address, ", ", em.typed(value),
                    " syncscope(\"agent\") monotonic, align 4");
}

}  // namespace

const Lowerings& shared_lowerings() {
  static const Lowerings table{
      {"mem.load", &lower_load},
      {"mem.lds_load", &lower_load},
      {"mem.store", &lower_store},
      {"mem.lds_store", &lower_store},
      {"mem.ptr_add", &lower_ptr_add},
      {"mem.lds_alloc", &lower_lds_alloc},
  };
  return table;
}

const Lowerings& lowerings() {
  static const Lowerings table{
      {"mem.make_rsrc", &lower_make_rsrc},
      {"mem.buffer_load", &lower_buffer_load},
      {"mem.buffer_store", &lower_buffer_store},
      {"mem.atomic_add_f32", &lower_atomic_add_f32},
  };
  return table;
}

}  // namespace rocke::lower::ops_mem
