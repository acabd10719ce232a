// Python twin: rocke_library/kernels/attention/attention_bwd_dq/contract.py
#include "rocke_library/kernels/attention/attention_bwd_dq/contract.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/builder.hpp"
#include "rocke_library/kernels/attention/common/launch.hpp"

namespace rocke::library::kernels::attention::attention_bwd_dq {

namespace {

using families::KernelArg;
using families::ProblemSizes;
using util::cat;

const std::vector<std::string_view> kBatchedKeys = {"batch", "seqlen_q", "seqlen_k", "heads_q", "heads_kv"};
const std::vector<std::string_view> kVarlenKeys = {"batch", "max_seqlen_q", "total_q", "total_k", "heads_q",
                                                   "heads_kv"};
const std::vector<std::string> kQuerySide = {"q", "do", "dq"};
const std::vector<std::string> kTensorNames(kTensors.begin(), kTensors.end());

__int128 tensor_elems(const AttentionBwdDqSpec& spec, const ProblemSizes& sizes, const std::string& tensor) {
  bool query = std::find(kQuerySide.begin(), kQuerySide.end(), tensor) != kQuerySide.end();
  return common::tensor_elems(spec.seq_mode, spec.head_dim, sizes, tensor, query);
}

}  // namespace

std::vector<std::string> stride_keys(const AttentionBwdDqSpec& spec) {
  return common::stride_keys(spec.seq_mode, kTensorNames);
}

std::vector<std::string_view> problem_keys(const AttentionBwdDqSpec& spec) {
  return spec.seq_mode == "batched" ? kBatchedKeys : kVarlenKeys;
}

families::LaunchContract launch(const AttentionBwdDqSpec& spec, const ProblemSizes& problem) {
  std::string_view fam = AttentionBwdDqSpec::kFamily;
  ProblemSizes sizes = common::problem_sizes(fam, spec.seq_mode, spec.head_dim, problem_keys(spec), kTensorNames,
                                             kQuerySide, problem);
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
  out.args.push_back(KernelArg{"dq", in_type, "output",
                               families::check_buffer(fam, "dq", tensor_elems(spec, sizes, "dq") * esize)});
  if (spec.seq_mode == "varlen") {
    for (std::string name : {"cu_seqlens_q", "cu_seqlens_k"}) {
      out.args.push_back(KernelArg{name, "ptr<i32, global>", "input",
                                   families::check_buffer(fam, name, (static_cast<__int128>(sizes.at("batch")) + 1) * 4)});
    }
  }
  out.args.push_back(KernelArg{"scale", "f32", "scalar"});
  std::vector<std::string> scalars = spec.seq_mode == "batched" ? std::vector<std::string>{"batch", "seqlen_q", "seqlen_k"}
                                                                : std::vector<std::string>{"batch", "total_q"};
  for (const std::string& name : scalars) out.args.push_back(KernelArg{name, "i32", "scalar", 0, sizes.at(name)});
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

}  // namespace rocke::library::kernels::attention::attention_bwd_dq
