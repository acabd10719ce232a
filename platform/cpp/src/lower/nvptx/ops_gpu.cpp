// Python twin: rocke/lower/nvptx/ops_gpu.py
#include "rocke/lower/nvptx/ops_gpu.hpp"

#include <bit>
#include <cstdint>

#include "rocke/lower/emitter.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::lower::nvptx::ops_gpu {

std::string read_sreg(FunctionEmitter& em, std::string_view register_name, std::optional<std::string> result) {
  if (!result.has_value()) result = em.temp();
  em.call_named(util::cat("llvm.nvvm.read.ptx.sreg.", register_name), {}, *result);
  return *result;
}

namespace {

// rocke.ir id kind -> PTX special register (PTX ISA "Special Registers").
std::string_view special_register(std::string_view kind) {
  if (kind == "thread_id") return "tid";
  if (kind == "block_id") return "ctaid";
  return "ntid";  // block_dim
}

void lower_sreg(FunctionEmitter& em, const ir::Op& op) {
  std::string_view rest = std::string_view(op.opcode).substr(4);  // after "gpu."
  std::size_t cut = rest.rfind('_');
  std::string_view kind = rest.substr(0, cut);
  std::string_view dim = rest.substr(cut + 1);
  read_sreg(em, util::cat(special_register(kind), ".", dim), em.bind(*op.results[0]));
}

void lower_lane_id(FunctionEmitter& em, const ir::Op& op) { read_sreg(em, "laneid", em.bind(*op.results[0])); }

// (x + ntid.x * (y + ntid.y * z)) >> log2(32): the warp of the flat thread index. Every lane of a
// warp computes the same value, so no broadcast is needed.
void lower_wave_id(FunctionEmitter& em, const ir::Op& op) {
  std::string id_x = read_sreg(em, "tid.x", std::nullopt);
  std::string id_y = read_sreg(em, "tid.y", std::nullopt);
  std::string id_z = read_sreg(em, "tid.z", std::nullopt);
  std::string dim_x = read_sreg(em, "ntid.x", std::nullopt);
  std::string dim_y = read_sreg(em, "ntid.y", std::nullopt);
  std::string zy = em.temp();
  std::string plane = em.temp();
  std::string row = em.temp();
  std::string flat = em.temp();
  em.emit(zy, " = mul i32 ", dim_y, ", ", id_z);
  em.emit(plane, " = add i32 ", id_y, ", ", zy);
  em.emit(row, " = mul i32 ", dim_x, ", ", plane);
  em.emit(flat, " = add i32 ", id_x, ", ", row);
  auto shift = static_cast<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(em.arch.wave_size))) - 1;
  const std::string& name = em.bind(*op.results[0]);
  em.emit(name, " = lshr i32 ", flat, ", ", shift);
}

void lower_wave_size(FunctionEmitter& em, const ir::Op& op) {
  em.alias(*op.results[0], std::to_string(em.arch.wave_size));
}

Lowerings build() {
  Lowerings out;
  for (std::string_view kind : {"thread_id", "block_id", "block_dim"}) {
    for (std::string_view dim : {"x", "y", "z"}) out.emplace_back(util::cat("gpu.", kind, "_", dim), &lower_sreg);
  }
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

}  // namespace rocke::lower::nvptx::ops_gpu
