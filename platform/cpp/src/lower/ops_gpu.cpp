// Python twin: rocke/lower/ops_gpu.py
#include "rocke/lower/ops_gpu.hpp"

#include <bit>

#include "rocke/lower/emitter.hpp"
#include "rocke/lower/llvm_types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::ops_gpu {

namespace {

// Workgroup size of each dimension: (byte offset, alignment) of the u16 field of the HSA kernel
// dispatch packet (hsa_kernel_dispatch_packet_t: workgroup_size_x/y/z at bytes 4, 6, 8; the
// packet is 64-byte aligned).
std::pair<int, int> dispatch_workgroup_size(std::string_view dim) {
  if (dim == "x") return {4, 4};
  if (dim == "y") return {6, 2};
  if (dim == "z") return {8, 8};
  throw KeyError(util::cat("'", dim, "'"));
}

void lower_id(FunctionEmitter& em, const ir::Op& op) {
  // "gpu.thread_id_x" -> kind "thread_id", dim "x"
  std::string_view rest = std::string_view(op.opcode).substr(4);
  std::size_t cut = rest.rfind('_');
  std::string_view kind = rest.substr(0, cut);
  std::string_view dim = rest.substr(cut + 1);
  std::string_view prefix = kind == "thread_id" ? "llvm.amdgcn.workitem.id." : "llvm.amdgcn.workgroup.id.";
  const std::string& name = em.bind(*op.results[0]);
  em.call_named(util::cat(prefix, dim), {}, name);
}

}  // namespace

std::string emit_block_dim(FunctionEmitter& em, std::string_view dim, std::optional<std::string> result) {
  auto [offset, align] = dispatch_workgroup_size(dim);
  std::string packet = em.temp();
  std::string field = em.temp();
  std::string size = em.temp();
  if (!result.has_value()) result = em.temp();
  const std::string& constant = em.pointer_text("constant");
  em.call_named("llvm.amdgcn.dispatch.ptr", {}, packet);
  em.emit(field, " = getelementptr inbounds i8, ", constant, " ", packet, ", i64 ", offset);
  em.emit(size, " = load i16, ", constant, " ", field, ", align ", align);
  em.emit(*result, " = zext i16 ", size, " to i32");
  return *result;
}

namespace {

void lower_block_dim(FunctionEmitter& em, const ir::Op& op) {
  const std::string& name = em.bind(*op.results[0]);
  emit_block_dim(em, std::string_view(op.opcode).substr(op.opcode.size() - 1), name);
}

}  // namespace

std::string emit_lane_id(FunctionEmitter& em, std::optional<std::string> result) {
  if (em.arch.wave_size == 32) {
    if (!result.has_value()) result = em.temp();
    em.call_named("llvm.amdgcn.mbcnt.lo", {"-1", "0"}, result);
    return *result;
  }
  std::string low = em.temp();
  if (!result.has_value()) result = em.temp();
  em.call_named("llvm.amdgcn.mbcnt.lo", {"-1", "0"}, low);
  em.call_named("llvm.amdgcn.mbcnt.hi", {"-1", low}, result);
  return *result;
}

namespace {

void lower_lane_id(FunctionEmitter& em, const ir::Op& op) { emit_lane_id(em, em.bind(*op.results[0])); }

// (x + dim_x * (y + dim_y * z)) >> log2(wave_size), made uniform with readfirstlane.
void lower_wave_id(FunctionEmitter& em, const ir::Op& op) {
  std::vector<std::string> ids;
  for (std::string_view dim : {"x", "y", "z"}) {
    ids.push_back(em.temp());
    em.call_named(util::cat("llvm.amdgcn.workitem.id.", dim), {}, ids.back());
  }
  std::string dim_x = emit_block_dim(em, "x", std::nullopt);
  std::string dim_y = emit_block_dim(em, "y", std::nullopt);
  std::string zy = em.temp();
  std::string plane = em.temp();
  std::string row = em.temp();
  std::string flat = em.temp();
  std::string wave = em.temp();
  em.emit(zy, " = mul i32 ", dim_y, ", ", ids[2]);
  em.emit(plane, " = add i32 ", ids[1], ", ", zy);
  em.emit(row, " = mul i32 ", dim_x, ", ", plane);
  em.emit(flat, " = add i32 ", ids[0], ", ", row);
  // wave_size.bit_length() - 1
  int shift = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(em.arch.wave_size))) - 1;
  em.emit(wave, " = lshr i32 ", flat, ", ", shift);
  const std::string& name = em.bind(*op.results[0]);
  em.call_named("llvm.amdgcn.readfirstlane.i32", {wave}, name);
}

void lower_wave_size(FunctionEmitter& em, const ir::Op& op) {
  em.alias(*op.results[0], std::to_string(em.arch.wave_size));
}

Lowerings build() {
  Lowerings out;
  for (std::string_view kind : {"thread_id", "block_id"}) {
    for (std::string_view dim : {"x", "y", "z"}) out.emplace_back(util::cat("gpu.", kind, "_", dim), &lower_id);
  }
  for (std::string_view dim : {"x", "y", "z"}) out.emplace_back(util::cat("gpu.block_dim_", dim), &lower_block_dim);
  out.emplace_back("gpu.lane_id", &lower_lane_id);
  out.emplace_back("gpu.wave_id", &lower_wave_id);
  out.emplace_back("gpu.wave_size", &lower_wave_size);
  return out;
}

}  // namespace

const Lowerings& lowerings() {
  static const Lowerings table = build();
  return table;
}

}  // namespace rocke::lower::ops_gpu
