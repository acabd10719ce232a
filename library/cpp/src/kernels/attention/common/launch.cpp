// Python twin: rocke_library/kernels/attention/common/launch.py
#include "rocke_library/kernels/attention/common/launch.hpp"

#include <algorithm>

#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::attention::common {

namespace {

using families::LaunchError;
using families::ProblemSizes;
using util::cat;

template <class List, class T>
bool contains(const List& list, const T& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string none_or(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : util::join(names, ", ");
}

}  // namespace

std::vector<std::string> stride_keys(std::string_view seq_mode, const std::vector<std::string>& tensors) {
  std::vector<std::string_view> dims = seq_mode == "batched" ? std::vector<std::string_view>{"b", "s", "h"}
                                                             : std::vector<std::string_view>{"s", "h"};
  std::vector<std::string> out;
  for (const std::string& tensor : tensors) {
    for (std::string_view dim : dims) out.push_back(cat(tensor, "_stride_", dim));
  }
  return out;
}

ProblemSizes default_strides(std::string_view seq_mode, std::int64_t head_dim, const std::vector<std::string>& tensors,
                             const std::vector<std::string>& query_side, const ProblemSizes& problem) {
  ProblemSizes out;
  for (const std::string& tensor : tensors) {
    bool query = contains(query_side, tensor);
    std::int64_t heads = problem.at(query ? "heads_q" : "heads_kv");
    out[cat(tensor, "_stride_h")] = head_dim;
    out[cat(tensor, "_stride_s")] = heads * head_dim;
    if (seq_mode == "batched") {
      // Wide product (wrapped only for sizes no i32 argument could carry anyway).
      __int128 seqlen = std::max<std::int64_t>(problem.at(query ? "seqlen_q" : "seqlen_k"), 1);  // a tensor of no rows is never addressed: one row's stride (>= 1, as a contract takes it back)
      out[cat(tensor, "_stride_b")] = static_cast<std::int64_t>(seqlen * heads * head_dim);
    }
  }
  return out;
}

ProblemSizes problem_sizes(std::string_view family, std::string_view seq_mode, std::int64_t head_dim,
                           const std::vector<std::string_view>& keys, const std::vector<std::string>& tensors,
                           const std::vector<std::string>& query_side, const ProblemSizes& problem) {
  std::vector<std::string> strides = stride_keys(seq_mode, tensors);
  std::vector<std::string> unknown, missing;
  for (const auto& [key, value] : problem) {
    if (!contains(keys, key) && !contains(strides, key)) unknown.push_back(key);
  }
  for (std::string_view key : keys) {
    if (problem.find(key) == problem.end()) missing.emplace_back(key);
  }
  if (!unknown.empty() || !missing.empty()) {
    throw LaunchError(cat(family, ": the problem needs the sizes ", util::join(keys, ", "),
                          " (and optionally the strides ", util::join(strides, ", "), "); unknown: ", none_or(unknown),
                          ", missing: ", none_or(missing)));
  }
  ProblemSizes sizes;
  std::vector<std::string> order(keys.begin(), keys.end());
  order.insert(order.end(), strides.begin(), strides.end());
  for (const std::string& key : order) {
    auto it = problem.find(key);
    if (it == problem.end()) continue;
    std::int64_t smallest = contains(kLengthKeys, key) ? 0 : 1;
    if (it->second < smallest) {
      throw LaunchError(cat(family, ": problem size ", key, " must be an int >= ", std::to_string(smallest)));
    }
    sizes[key] = it->second;
  }
  if (sizes.at("heads_q") % sizes.at("heads_kv") != 0) {
    throw LaunchError(cat(family, ": heads_q=", std::to_string(sizes.at("heads_q")), " is not a multiple of heads_kv=",
                          std::to_string(sizes.at("heads_kv"))));
  }
  for (const auto& [key, value] : default_strides(seq_mode, head_dim, tensors, query_side, sizes)) {
    sizes.emplace(key, value);
  }
  for (const std::string& tensor : tensors) {
    if (sizes.at(cat(tensor, "_stride_s")) < head_dim && sizes.at(cat(tensor, "_stride_h")) < head_dim) {
      throw LaunchError(cat(family, ": the ", tensor, " strides overlap the head_dim=", std::to_string(head_dim),
                            " contiguous elements"));
    }
  }
  return sizes;
}

__int128 tensor_elems(std::string_view seq_mode, std::int64_t head_dim, const ProblemSizes& sizes,
                      std::string_view tensor, bool query) {
  __int128 heads = sizes.at(query ? "heads_q" : "heads_kv");
  __int128 rows = 0, outer = 0;
  if (seq_mode == "batched") {
    rows = sizes.at(query ? "seqlen_q" : "seqlen_k");
    outer = static_cast<__int128>(sizes.at("batch") - 1) * sizes.at(cat(tensor, "_stride_b"));
  } else {
    rows = sizes.at(query ? "total_q" : "total_k");
  }
  if (rows == 0) return 0;
  return outer + (rows - 1) * sizes.at(cat(tensor, "_stride_s")) + (heads - 1) * sizes.at(cat(tensor, "_stride_h")) +
         head_dim;
}

__int128 stat_elems(std::string_view seq_mode, const ProblemSizes& sizes) {
  if (seq_mode == "batched") {
    return static_cast<__int128>(sizes.at("batch")) * sizes.at("heads_q") * sizes.at("seqlen_q");
  }
  return static_cast<__int128>(sizes.at("heads_q")) * sizes.at("total_q");
}

}  // namespace rocke::library::kernels::attention::common
