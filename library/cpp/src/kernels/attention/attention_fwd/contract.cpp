// Python twin: rocke_library/kernels/attention/attention_fwd/contract.py
#include "rocke_library/kernels/attention/attention_fwd/contract.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_fwd/builder.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

namespace {

using families::KernelArg;
using families::LaunchError;
using families::ProblemSizes;
using util::cat;

const std::vector<std::string_view> kBatchedKeys = {"batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv"};
const std::vector<std::string_view> kVarlenKeys = {"batch", "max_seqlen_q", "total_q", "total_k", "heads_q",
                                                   "heads_kv"};

bool is_kv(std::string_view tensor) { return tensor == "k" || tensor == "v"; }

// Contiguous [B, S, H, D] (batched) or [T, H, D] (varlen) strides.
ProblemSizes default_strides(const AttentionFwdSpec& spec, const ProblemSizes& problem) {
  std::int64_t d = spec.head_dim;
  ProblemSizes out;
  for (std::string_view tensor : kTensors) {
    std::int64_t heads = problem.at(is_kv(tensor) ? "heads_kv" : "heads_q");
    out[cat(tensor, "_stride_h")] = d;
    out[cat(tensor, "_stride_s")] = heads * d;
    if (spec.seq_mode == "batched") {
      std::int64_t seqlen = std::max<std::int64_t>(problem.at(is_kv(tensor) ? "seqlen_k" : "seqlen_q"), 1);  // a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
      out[cat(tensor, "_stride_b")] = seqlen * heads * d;
    }
  }
  return out;
}

ProblemSizes sizes_of(const AttentionFwdSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionFwdSpec::kFamily;
  std::vector<std::string_view> keys = problem_keys(spec);
  std::vector<std::string> strides = stride_keys(spec);
  auto known = [&](std::string_view key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end() ||
           std::find(strides.begin(), strides.end(), key) != strides.end();
  };
  std::vector<std::string> unknown, missing;
  for (const auto& [key, value] : problem) {
    if (!known(key)) unknown.push_back(key);
  }
  for (std::string_view key : keys) {
    if (problem.find(key) == problem.end()) missing.emplace_back(key);
  }
  if (!unknown.empty() || !missing.empty()) {
    throw LaunchError(cat(fam, ": the problem needs the sizes ", util::join(keys, ", "),
                          " (and optionally the strides ", util::join(strides, ", "), "); unknown: ",
                          unknown.empty() ? std::string("none") : util::join(unknown, ", "), ", missing: ",
                          missing.empty() ? std::string("none") : util::join(missing, ", ")));
  }
  ProblemSizes sizes;
  std::vector<std::string> order(keys.begin(), keys.end());
  order.insert(order.end(), strides.begin(), strides.end());
  for (const std::string& key : order) {
    auto it = problem.find(key);
    if (it == problem.end()) continue;
    std::int64_t smallest =
        key == "seqlen_q" || key == "seqlen_k" || key == "max_seqlen_q" || key == "total_q" || key == "total_k" ? 0
                                                                                                                : 1;
    if (it->second < smallest) {
      throw LaunchError(cat(fam, ": problem size ", key, " must be an int >= ", std::to_string(smallest)));
    }
    sizes[key] = families::check_size(fam, key, it->second);
  }
  if (sizes.at("heads_q") % sizes.at("heads_kv") != 0) {
    throw LaunchError(cat(fam, ": heads_q=", std::to_string(sizes.at("heads_q")), " is not a multiple of heads_kv=",
                          std::to_string(sizes.at("heads_kv"))));
  }
  for (const auto& [key, value] : default_strides(spec, sizes)) sizes.emplace(key, value);
  for (std::string_view tensor : kTensors) {
    if (sizes.at(cat(tensor, "_stride_s")) < spec.head_dim && sizes.at(cat(tensor, "_stride_h")) < spec.head_dim) {
      throw LaunchError(cat(fam, ": the ", tensor, " strides overlap the head_dim=", std::to_string(spec.head_dim),
                            " contiguous elements"));
    }
  }
  return sizes;
}

// Elements a tensor's buffer must hold: one past its last element.
__int128 tensor_elems(const AttentionFwdSpec& spec, const ProblemSizes& sizes, std::string_view tensor) {
  bool kv = is_kv(tensor);
  __int128 heads = sizes.at(kv ? "heads_kv" : "heads_q");
  __int128 rows = 0, outer = 0;
  if (spec.seq_mode == "batched") {
    rows = sizes.at(kv ? "seqlen_k" : "seqlen_q");
    outer = static_cast<__int128>(sizes.at("batch") - 1) * sizes.at(cat(tensor, "_stride_b"));
  } else {
    rows = sizes.at(kv ? "total_k" : "total_q");
  }
  if (rows == 0) return 0;
  return outer + (rows - 1) * sizes.at(cat(tensor, "_stride_s")) + (heads - 1) * sizes.at(cat(tensor, "_stride_h")) +
         spec.head_dim;
}

}  // namespace

std::vector<std::string> stride_keys(const AttentionFwdSpec& spec) {
  std::vector<std::string_view> dims = spec.seq_mode == "batched" ? std::vector<std::string_view>{"b", "s", "h"}
                                                                  : std::vector<std::string_view>{"s", "h"};
  std::vector<std::string> out;
  for (std::string_view tensor : kTensors) {
    for (std::string_view dim : dims) out.push_back(cat(tensor, "_stride_", dim));
  }
  return out;
}

std::vector<std::string_view> problem_keys(const AttentionFwdSpec& spec) {
  return spec.seq_mode == "batched" ? kBatchedKeys : kVarlenKeys;
}

families::LaunchContract launch(const AttentionFwdSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionFwdSpec::kFamily;
  ProblemSizes sizes = sizes_of(spec, problem);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  std::string in_type = cat("ptr<", spec.dtype, ", global>");
  families::LaunchContract out;
  for (std::string_view tensor : kTensors) {
    out.args.push_back(KernelArg{std::string(tensor), in_type, tensor != "o" ? "input" : "output",
                                 families::check_buffer(fam, tensor, tensor_elems(spec, sizes, tensor) * esize)});
  }
  __int128 lse_elems = spec.seq_mode == "batched"
                           ? static_cast<__int128>(sizes.at("batch")) * sizes.at("heads_q") * sizes.at("seqlen_q")
                           : static_cast<__int128>(sizes.at("heads_q")) * sizes.at("total_q");
  out.args.push_back(KernelArg{"lse", "ptr<f32, global>", "output", families::check_buffer(fam, "lse", lse_elems * 4)});
  if (spec.seq_mode == "varlen") {
    for (std::string_view name : {"cu_seqlens_q", "cu_seqlens_k"}) {
      out.args.push_back(KernelArg{std::string(name), "ptr<i32, global>", "input",
                                   families::check_buffer(fam, name, (static_cast<__int128>(sizes.at("batch")) + 1) * 4)});
    }
  }
  out.args.push_back(KernelArg{"scale", "f32", "scalar"});
  std::vector<std::string_view> scalars = spec.seq_mode == "batched"
                                              ? std::vector<std::string_view>{"batch", "seqlen_q", "seqlen_k"}
                                              : std::vector<std::string_view>{"batch", "total_q"};
  for (std::string_view name : scalars) out.args.push_back(KernelArg{std::string(name), "i32", "scalar", 0, sizes.at(std::string(name))});
  out.args.push_back(KernelArg{"heads_q", "i32", "scalar", 0, sizes.at("heads_q")});
  out.args.push_back(KernelArg{"group", "i32", "scalar", 0, sizes.at("heads_q") / sizes.at("heads_kv")});
  for (const std::string& key : stride_keys(spec)) out.args.push_back(KernelArg{key, "i32", "scalar", 0, sizes.at(key)});
  std::int64_t rows = spec.seq_mode == "batched" ? sizes.at("seqlen_q") : sizes.at("max_seqlen_q");
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = sizes;
  out.grid = {std::max<std::int64_t>(1, families::ceil_div(rows, spec.block_m)), sizes.at("heads_q"), sizes.at("batch")};
  out.block = {spec.threads(), 1, 1};
  return out;
}

}  // namespace rocke::library::kernels::attention::attention_fwd
