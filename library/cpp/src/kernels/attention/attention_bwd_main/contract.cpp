// Python twin: rocke_library/kernels/attention/attention_bwd_main/contract.py
#include "rocke_library/kernels/attention/attention_bwd_main/contract.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/builder.hpp"
#include "rocke_library/kernels/attention/common/launch.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

namespace {

using families::KernelArg;
using families::LaunchError;
using families::ProblemSizes;
using util::cat;

const std::vector<std::string_view> kBatchedKeys = {"batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv"};
const std::vector<std::string_view> kVarlenKeys = {"batch", "max_seqlen_k", "total_q", "total_k", "heads_q",
                                                   "heads_kv"};
const std::vector<std::string> kQuerySide = {"q", "do", "dq_acc"};

// The builder's argument names (Python: builder.dkv_names, builder.tensors).
std::vector<std::string> dkv_names(const AttentionBwdMainSpec& spec) {
  if (spec.dkv_mode == "direct") return {"dk", "dv"};
  return {"dk_acc", "dv_acc"};
}

std::vector<std::string> tensors(const AttentionBwdMainSpec& spec) {
  std::vector<std::string> out(kInputs.begin(), kInputs.end());
  for (const std::string& name : dkv_names(spec)) out.push_back(name);
  if (spec.dq_mode == "atomic") out.emplace_back("dq_acc");
  return out;
}

ProblemSizes sizes_of(const AttentionBwdMainSpec& spec, const ProblemSizes& problem) {
  ProblemSizes sizes = common::problem_sizes(AttentionBwdMainSpec::kFamily, spec.seq_mode, spec.head_dim,
                                             problem_keys(spec), tensors(spec), kQuerySide, problem);
  if (spec.dkv_mode == "direct" && sizes.at("heads_q") != sizes.at("heads_kv")) {
    throw LaunchError(cat(AttentionBwdMainSpec::kFamily, ": dkv_mode=direct needs heads_q == heads_kv (got ",
                          std::to_string(sizes.at("heads_q")), " and ", std::to_string(sizes.at("heads_kv")),
                          "); GQA / MQA sum the query heads with dkv_mode=atomic"));
  }
  return sizes;
}

__int128 tensor_elems(const AttentionBwdMainSpec& spec, const ProblemSizes& sizes, const std::string& tensor) {
  bool query = std::find(kQuerySide.begin(), kQuerySide.end(), tensor) != kQuerySide.end();
  return common::tensor_elems(spec.seq_mode, spec.head_dim, sizes, tensor, query);
}

}  // namespace

std::vector<std::string> stride_keys(const AttentionBwdMainSpec& spec) {
  return common::stride_keys(spec.seq_mode, tensors(spec));
}

std::vector<std::string_view> problem_keys(const AttentionBwdMainSpec& spec) {
  return spec.seq_mode == "batched" ? kBatchedKeys : kVarlenKeys;
}

families::LaunchContract launch(const AttentionBwdMainSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionBwdMainSpec::kFamily;
  ProblemSizes sizes = sizes_of(spec, problem);
  std::int64_t esize = helpers::elem_bytes(spec.dtype);
  std::string in_type = cat("ptr<", spec.dtype, ", global>");
  families::LaunchContract out;
  for (std::string name : {"q", "k", "v", "do"}) {
    out.args.push_back(KernelArg{name, in_type, "input",
                                 families::check_buffer(fam, name, tensor_elems(spec, sizes, name) * esize)});
  }
  __int128 stats = common::stat_elems(spec.seq_mode, sizes);
  for (std::string name : {"lse2", "delta"}) {
    out.args.push_back(KernelArg{name, "ptr<f32, global>", "input", families::check_buffer(fam, name, stats * 4)});
  }
  for (const std::string& name : dkv_names(spec)) {
    if (spec.dkv_mode == "direct") {
      out.args.push_back(KernelArg{name, in_type, "output",
                                   families::check_buffer(fam, name, tensor_elems(spec, sizes, name) * esize)});
    } else {
      out.args.push_back(KernelArg{name, "ptr<f32, global>", "inout",
                                   families::check_buffer(fam, name, tensor_elems(spec, sizes, name) * 4)});
      out.zero_init.push_back(name);
    }
  }
  if (spec.dq_mode == "atomic") {
    out.args.push_back(KernelArg{"dq_acc", "ptr<f32, global>", "inout",
                                 families::check_buffer(fam, "dq_acc", tensor_elems(spec, sizes, "dq_acc") * 4)});
    out.zero_init.emplace_back("dq_acc");
  }
  if (spec.seq_mode == "varlen") {
    for (std::string name : {"cu_seqlens_q", "cu_seqlens_k"}) {
      out.args.push_back(KernelArg{name, "ptr<i32, global>", "input",
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
  std::int64_t rows = spec.seq_mode == "batched" ? sizes.at("seqlen_k") : sizes.at("max_seqlen_k");
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = sizes;
  out.grid = {std::max<std::int64_t>(1, families::ceil_div(rows, spec.block_n)) * spec.chunks(), sizes.at("heads_q"),
              sizes.at("batch")};
  out.block = {spec.threads(), 1, 1};
  return out;
}

}  // namespace rocke::library::kernels::attention::attention_bwd_main
