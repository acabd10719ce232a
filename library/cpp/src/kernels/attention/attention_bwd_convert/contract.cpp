// Python twin: rocke_library/kernels/attention/attention_bwd_convert/contract.py
#include "rocke_library/kernels/attention/attention_bwd_convert/contract.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/builder.hpp"

namespace rocke::library::kernels::attention::attention_bwd_convert {

namespace {

using families::KernelArg;
using families::LaunchError;
using families::ProblemSizes;
using util::cat;

const std::vector<std::string_view> kBatchedKeys = {"batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv"};
const std::vector<std::string_view> kVarlenKeys = {"total_q", "total_k", "heads_q", "heads_kv"};
const std::int64_t kF32Bytes = helpers::elem_bytes("f32");

template <class List, class T>
bool contains(const List& list, const T& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string none_or(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : util::join(names, ", ");
}

ProblemSizes sizes_of(const AttentionBwdConvertSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionBwdConvertSpec::kFamily;
  std::vector<std::string_view> keys = problem_keys(spec);
  std::vector<std::string> strides = stride_keys(spec);
  std::vector<std::string> unknown, missing;
  for (const auto& [key, value] : problem) {
    if (!contains(keys, key) && !contains(strides, key)) unknown.push_back(key);
  }
  for (std::string_view key : keys) {
    if (problem.find(key) == problem.end()) missing.emplace_back(key);
  }
  if (!unknown.empty() || !missing.empty()) {
    throw LaunchError(cat(fam, ": the problem needs the sizes ", util::join(keys, ", "), " (and optionally the strides ",
                          util::join(strides, ", "), "); unknown: ", none_or(unknown), ", missing: ", none_or(missing)));
  }
  ProblemSizes sizes;
  std::vector<std::string> order(keys.begin(), keys.end());
  order.insert(order.end(), strides.begin(), strides.end());
  for (const std::string& key : order) {
    auto it = problem.find(key);
    if (it == problem.end()) continue;
    std::int64_t smallest = key == "seqlen_q" || key == "seqlen_k" || key == "total_q" || key == "total_k" ? 0 : 1;
    if (it->second < smallest) {
      throw LaunchError(cat(fam, ": problem size ", key, " must be an int >= ", std::to_string(smallest)));
    }
    sizes[key] = it->second;
  }
  if (sizes.at("heads_q") % sizes.at("heads_kv") != 0) {
    throw LaunchError(cat(fam, ": heads_q=", std::to_string(sizes.at("heads_q")), " is not a multiple of heads_kv=",
                          std::to_string(sizes.at("heads_kv"))));
  }
  std::int64_t d = spec.head_dim;
  for (const std::string& tensor : spec.tensors()) {
    bool q_side = tensor == "dq";
    std::int64_t heads = sizes.at(q_side ? "heads_q" : "heads_kv");
    sizes.emplace(cat(tensor, "_stride_h"), d);
    sizes.emplace(cat(tensor, "_stride_s"), heads * d);
    if (spec.seq_mode == "batched") {
      __int128 b = static_cast<__int128>(std::max<std::int64_t>(sizes.at(q_side ? "seqlen_q" : "seqlen_k"), 1)) * heads *
                   d;  // a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
      sizes.emplace(cat(tensor, "_stride_b"), static_cast<std::int64_t>(b));
    }
    if (sizes.at(cat(tensor, "_stride_s")) < d && sizes.at(cat(tensor, "_stride_h")) < d) {
      throw LaunchError(cat(fam, ": the ", tensor, " strides overlap the head_dim=", std::to_string(d),
                            " contiguous elements"));
    }
  }
  return sizes;
}

// Tokens (rows per head) of an output: batch * seqlen or total.
__int128 tokens(const AttentionBwdConvertSpec& spec, const ProblemSizes& sizes, const std::string& tensor) {
  bool q_side = tensor == "dq";
  if (spec.seq_mode == "batched") {
    return static_cast<__int128>(sizes.at("batch")) * sizes.at(q_side ? "seqlen_q" : "seqlen_k");
  }
  return sizes.at(q_side ? "total_q" : "total_k");
}

// Heads of an output, or of its workspace (dkv_mode=split keeps one slice per query head).
std::int64_t heads(const AttentionBwdConvertSpec& spec, const ProblemSizes& sizes, const std::string& tensor,
                   bool workspace) {
  if (tensor == "dq" || (workspace && spec.dkv_mode == "split")) return sizes.at("heads_q");
  return sizes.at("heads_kv");
}

// Elements an output's buffer must hold: one past its last element.
__int128 tensor_elems(const AttentionBwdConvertSpec& spec, const ProblemSizes& sizes, const std::string& tensor) {
  bool q_side = tensor == "dq";
  __int128 rows = spec.seq_mode == "batched" ? sizes.at(q_side ? "seqlen_q" : "seqlen_k")
                                             : sizes.at(q_side ? "total_q" : "total_k");
  if (rows == 0) return 0;
  __int128 outer = spec.seq_mode == "batched"
                       ? static_cast<__int128>(sizes.at("batch") - 1) * sizes.at(cat(tensor, "_stride_b"))
                       : 0;
  return outer + (rows - 1) * sizes.at(cat(tensor, "_stride_s")) +
         static_cast<__int128>(heads(spec, sizes, tensor, false) - 1) * sizes.at(cat(tensor, "_stride_h")) +
         spec.head_dim;
}

}  // namespace

std::vector<std::string_view> problem_keys(const AttentionBwdConvertSpec& spec) {
  return spec.seq_mode == "batched" ? kBatchedKeys : kVarlenKeys;
}

std::vector<std::string> stride_keys(const AttentionBwdConvertSpec& spec) {
  std::vector<std::string_view> dims = spec.seq_mode == "batched" ? std::vector<std::string_view>{"b", "s", "h"}
                                                                  : std::vector<std::string_view>{"s", "h"};
  std::vector<std::string> out;
  for (const std::string& tensor : spec.tensors()) {
    for (std::string_view dim : dims) out.push_back(cat(tensor, "_stride_", dim));
  }
  return out;
}

families::LaunchContract launch(const AttentionBwdConvertSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionBwdConvertSpec::kFamily;
  ProblemSizes sizes = sizes_of(spec, problem);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  std::int64_t d = spec.head_dim;
  families::LaunchContract out;
  for (const std::string& tensor : spec.tensors()) {
    __int128 ws = tokens(spec, sizes, tensor) * heads(spec, sizes, tensor, true) * d * kF32Bytes;
    std::string name = cat(tensor, "_acc");
    out.args.push_back(KernelArg{name, "ptr<f32, global>", "input", families::check_buffer(fam, name, ws)});
  }
  for (const std::string& tensor : spec.tensors()) {
    out.args.push_back(KernelArg{tensor, cat("ptr<", spec.dtype, ", global>"), "output",
                                 families::check_buffer(fam, tensor, tensor_elems(spec, sizes, tensor) * esize)});
  }
  std::vector<std::string> names = spec.seq_mode == "batched"
                                       ? std::vector<std::string>{"batch", "seqlen_q", "seqlen_k"}
                                       : std::vector<std::string>{"total_q", "total_k"};
  names.emplace_back("heads_q");
  names.emplace_back("heads_kv");
  for (const std::string& name : names) out.args.push_back(KernelArg{name, "i32", "scalar", 0, sizes.at(name)});
  out.args.push_back(KernelArg{"group", "i32", "scalar", 0, sizes.at("heads_q") / sizes.at("heads_kv")});
  for (const std::string& key : stride_keys(spec)) out.args.push_back(KernelArg{key, "i32", "scalar", 0, sizes.at(key)});
  __int128 rows = 0;
  for (const std::string& tensor : spec.tensors()) {
    rows = std::max(rows, tokens(spec, sizes, tensor) * heads(spec, sizes, tensor, false));
  }
  // rows * head_dim f32 passed check_buffer above, so the grid fits.
  std::int64_t work = static_cast<std::int64_t>(rows * (d / spec.vec));
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = sizes;
  out.grid = {std::max<std::int64_t>(1, families::ceil_div(work, spec.block)), 1, 1};
  out.block = {spec.block, 1, 1};
  return out;
}

}  // namespace rocke::library::kernels::attention::attention_bwd_convert
