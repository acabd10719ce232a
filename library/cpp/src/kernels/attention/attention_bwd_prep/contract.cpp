// Python twin: rocke_library/kernels/attention/attention_bwd_prep/contract.py
#include "rocke_library/kernels/attention/attention_bwd_prep/contract.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/builder.hpp"

namespace rocke::library::kernels::attention::attention_bwd_prep {

namespace {

using families::KernelArg;
using families::LaunchError;
using families::ProblemSizes;
using util::cat;

const std::vector<std::string_view> kBatchedKeys = {"batch", "seqlen_q", "heads_q"};
const std::vector<std::string_view> kVarlenKeys = {"total_q", "heads_q"};
const std::vector<std::string_view> kOptionalKeys = {"zero_count"};

template <class List, class T>
bool contains(const List& list, const T& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string none_or(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : util::join(names, ", ");
}

// Rows of the LSE (and of lse2, delta).
__int128 row_count(const AttentionBwdPrepSpec& spec, const ProblemSizes& sizes) {
  if (spec.seq_mode == "batched") {
    return static_cast<__int128>(sizes.at("batch")) * sizes.at("heads_q") * sizes.at("seqlen_q");
  }
  return static_cast<__int128>(sizes.at("heads_q")) * sizes.at("total_q");
}

ProblemSizes sizes_of(const AttentionBwdPrepSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionBwdPrepSpec::kFamily;
  std::vector<std::string_view> keys = problem_keys(spec);
  std::vector<std::string> strides = stride_keys(spec);
  std::vector<std::string> unknown, missing;
  for (const auto& [key, value] : problem) {
    if (!contains(keys, key) && !contains(strides, key) && !contains(kOptionalKeys, key)) unknown.push_back(key);
  }
  for (std::string_view key : keys) {
    if (problem.find(key) == problem.end()) missing.emplace_back(key);
  }
  if (!unknown.empty() || !missing.empty()) {
    throw LaunchError(cat(fam, ": the problem needs the sizes ", util::join(keys, ", "),
                          " (and optionally zero_count and the strides ", util::join(strides, ", "), "); unknown: ",
                          none_or(unknown), ", missing: ", none_or(missing)));
  }
  ProblemSizes sizes = {{"zero_count", 0}};
  std::vector<std::string> order(keys.begin(), keys.end());
  order.insert(order.end(), kOptionalKeys.begin(), kOptionalKeys.end());
  order.insert(order.end(), strides.begin(), strides.end());
  for (const std::string& key : order) {
    auto it = problem.find(key);
    if (it == problem.end()) continue;
    std::int64_t smallest = key == "seqlen_q" || key == "total_q" || key == "zero_count" ? 0 : 1;
    if (it->second < smallest) {
      throw LaunchError(cat(fam, ": problem size ", key, " must be an int >= ", std::to_string(smallest)));
    }
    sizes[key] = it->second;
  }
  if (sizes.at("zero_count") % kZeroVec != 0) {
    throw LaunchError(cat(fam, ": zero_count=", std::to_string(sizes.at("zero_count")), " is not a multiple of ",
                          std::to_string(kZeroVec)));
  }
  std::int64_t d = spec.head_dim;
  for (std::string_view tensor : kTensors) {
    sizes.emplace(cat(tensor, "_stride_h"), d);
    sizes.emplace(cat(tensor, "_stride_s"), sizes.at("heads_q") * d);
    if (spec.seq_mode == "batched") {
      __int128 b = static_cast<__int128>(std::max<std::int64_t>(sizes.at("seqlen_q"), 1)) * sizes.at("heads_q") * d;  // a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
      sizes.emplace(cat(tensor, "_stride_b"), static_cast<std::int64_t>(b));
    }
    if (sizes.at(cat(tensor, "_stride_s")) < d && sizes.at(cat(tensor, "_stride_h")) < d) {
      throw LaunchError(cat(fam, ": the ", tensor, " strides overlap the head_dim=", std::to_string(d),
                            " contiguous elements"));
    }
  }
  return sizes;
}

// Elements the buffer of o or do must hold: one past its last element.
__int128 tensor_elems(const AttentionBwdPrepSpec& spec, const ProblemSizes& sizes, std::string_view tensor) {
  __int128 rows = sizes.at(spec.seq_mode == "batched" ? "seqlen_q" : "total_q");
  if (rows == 0) return 0;
  __int128 outer = spec.seq_mode == "batched"
                       ? static_cast<__int128>(sizes.at("batch") - 1) * sizes.at(cat(tensor, "_stride_b"))
                       : 0;
  return outer + (rows - 1) * sizes.at(cat(tensor, "_stride_s")) +
         static_cast<__int128>(sizes.at("heads_q") - 1) * sizes.at(cat(tensor, "_stride_h")) + spec.head_dim;
}

}  // namespace

std::vector<std::string_view> problem_keys(const AttentionBwdPrepSpec& spec) {
  return spec.seq_mode == "batched" ? kBatchedKeys : kVarlenKeys;
}

std::vector<std::string> stride_keys(const AttentionBwdPrepSpec& spec) {
  std::vector<std::string_view> dims = spec.seq_mode == "batched" ? std::vector<std::string_view>{"b", "s", "h"}
                                                                  : std::vector<std::string_view>{"s", "h"};
  std::vector<std::string> out;
  for (std::string_view tensor : kTensors) {
    for (std::string_view dim : dims) out.push_back(cat(tensor, "_stride_", dim));
  }
  return out;
}

families::LaunchContract launch(const AttentionBwdPrepSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionBwdPrepSpec::kFamily;
  ProblemSizes sizes = sizes_of(spec, problem);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  std::string in_type = cat("ptr<", spec.dtype, ", global>");
  __int128 rows = row_count(spec, sizes);
  families::LaunchContract out;
  for (std::string_view tensor : kTensors) {
    out.args.push_back(KernelArg{std::string(tensor), in_type, "input",
                                 families::check_buffer(fam, tensor, tensor_elems(spec, sizes, tensor) * esize)});
  }
  out.args.push_back(KernelArg{"lse", "ptr<f32, global>", "input", families::check_buffer(fam, "lse", rows * kF32Bytes)});
  for (std::string_view name : {"lse2", "delta"}) {
    out.args.push_back(KernelArg{std::string(name), "ptr<f32, global>", "output",
                                 families::check_buffer(fam, name, rows * kF32Bytes)});
  }
  out.args.push_back(KernelArg{"zero_ws", "ptr<f32, global>", "output",
                               families::check_buffer(fam, "zero_ws",
                                                      static_cast<__int128>(sizes.at("zero_count")) * kF32Bytes)});
  // rows fit: lse2 of rows f32 passed check_buffer.
  std::int64_t grid_x = std::max<std::int64_t>(1, families::ceil_div(static_cast<std::int64_t>(rows), spec.rows_per_block()));
  std::vector<std::string_view> names = spec.seq_mode == "batched" ? std::vector<std::string_view>{"batch", "seqlen_q"}
                                                                   : std::vector<std::string_view>{"total_q"};
  for (std::string_view name : names) out.args.push_back(KernelArg{std::string(name), "i32", "scalar", 0, sizes.at(std::string(name))});
  out.args.push_back(KernelArg{"heads_q", "i32", "scalar", 0, sizes.at("heads_q")});
  out.args.push_back(KernelArg{"zero_count", "i32", "scalar", 0, sizes.at("zero_count")});
  out.args.push_back(KernelArg{"zero_iters", "i32", "scalar", 0,
                               families::ceil_div(sizes.at("zero_count"), grid_x * spec.block * kZeroVec)});
  for (const std::string& key : stride_keys(spec)) out.args.push_back(KernelArg{key, "i32", "scalar", 0, sizes.at(key)});
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = sizes;
  out.grid = {grid_x, 1, 1};
  out.block = {spec.block, 1, 1};
  return out;
}

}  // namespace rocke::library::kernels::attention::attention_bwd_prep
