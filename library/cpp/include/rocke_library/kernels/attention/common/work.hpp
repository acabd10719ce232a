// rocKE library: work decode of the attention kernels -- which (query block, head, batch) a
// workgroup owns and where its sequences sit in memory.
// Python twin: rocke_library/kernels/attention/common/work.py
//
// Grid (x, y, z) = (query blocks, query heads, batch); query head h reads kv head h / group.
// Batched: sequence (b, h) starts at element b * stride_b + h * stride_h. Varlen: sequence b holds
// tokens cu_seqlens[b] .. cu_seqlens[b + 1] - 1 and starts at cu_seqlens[b] * stride_s + h * stride_h.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "rocke/ir/builder.hpp"

namespace rocke::library::kernels::attention::common {

inline constexpr std::array<std::string_view, 2> kSeqModes = {"batched", "varlen"};

using Params = std::map<std::string, ir::Value*, std::less<>>;

// What one workgroup owns, as device values (uniform over the workgroup).
struct Work {
  ir::Value* q0 = nullptr;  // first query row of the block, inside its sequence
  ir::Value* batch = nullptr;
  ir::Value* head = nullptr;  // query head
  ir::Value* kv_head = nullptr;
  ir::Value* seqlen_q = nullptr;
  ir::Value* seqlen_k = nullptr;
  ir::Value* q_start = nullptr;  // varlen: token of the sequence's first query; batched: nullptr
  ir::Value* k_start = nullptr;
  ir::Value* part = nullptr;  // decode_work(parts > 1): which of the block's parts (0 .. parts - 1)
};

// The workgroup's (query block, head, batch), kv head and sequence bounds. params holds the kernel
// arguments by name. parts > 1: grid x is block * parts + part, parts workgroups sharing one block
// (Work::part).
Work decode_work(ir::Builder& b, std::string_view seq_mode, std::int64_t block_m, const Params& params,
                 std::int64_t parts = 1);

// (pointer to row 0, buffer resource over exactly the sequence's rows) of one (sequence, head).
// batch_offset and start may be nullptr.
std::pair<ir::Value*, ir::Value*> seq_view(ir::Builder& b, ir::Value* base, ir::Value* batch_offset,
                                           ir::Value* start, ir::Value* stride_s, ir::Value* head,
                                           ir::Value* stride_h, ir::Value* seqlen, std::int64_t head_dim,
                                           std::int64_t esize, const std::string& name);

}  // namespace rocke::library::kernels::attention::common
