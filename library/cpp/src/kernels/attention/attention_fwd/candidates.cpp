// Python twin: rocke_library/kernels/attention/attention_fwd/candidates.py
#include "rocke_library/kernels/attention/attention_fwd/candidates.hpp"

#include <algorithm>

#include "rocke/arch/mma.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_fwd/spec.hpp"

namespace rocke::library::kernels::attention::attention_fwd {

namespace {

constexpr std::string_view kFamily = AttentionFwdSpec::kFamily;
constexpr std::string_view kTensors[] = {"q", "k", "v", "o"};

}  // namespace

bool spans_batches(const dispatch::AttentionFields& problem, std::string_view tensor) {
  bool kv = tensor == "k" || tensor == "v";
  return problem.batch > 1 && (kv ? problem.seqlen_k : problem.seqlen_q) > 0;
}

std::vector<std::string> zero_batch_strides(const dispatch::AttentionFields& problem) {
  std::vector<std::string> out;
  if (problem.seq_mode != "batched") return out;
  for (std::string_view t : kTensors) {
    if (spans_batches(problem, t) && problem.stride(t, "b") == 0) out.emplace_back(t);
  }
  return out;
}

std::tuple<std::int64_t, std::int64_t, std::int64_t> tile(const arch::ArchTarget& target, std::int64_t head_dim) {
  if (target.wave_size == 64) return {64, 64, 2};
  if (target.has_feature(kMmaSync)) return {64, head_dim <= 64 ? 32 : 64, 4};
  return {64, head_dim <= 64 ? 32 : 16, 4};
}

families::ProblemSizes contract_sizes(const dispatch::AttentionFields& problem) {
  families::ProblemSizes sizes;
  std::vector<std::string_view> dims;
  if (problem.seq_mode == "batched") {
    sizes = {{"batch", problem.batch}, {"seqlen_q", problem.seqlen_q}, {"seqlen_k", problem.seqlen_k}};
    dims = {"b", "s", "h"};
  } else {
    sizes = {{"batch", problem.batch}, {"max_seqlen_q", problem.seqlen_q}, {"total_q", problem.total_q},
             {"total_k", problem.total_k}};
    dims = {"s", "h"};
  }
  sizes["heads_q"] = problem.heads_q;
  sizes["heads_kv"] = problem.heads_kv;
  for (std::string_view tensor : kTensors) {
    for (std::string_view dim : dims) {
      if (dim == "b" && !spans_batches(problem, tensor)) continue;
      sizes[util::cat(tensor, "_stride_", dim)] = problem.stride(tensor, dim);
    }
  }
  return sizes;
}

std::vector<Candidate> candidates(const dispatch::AttentionFields& problem, const arch::ArchTarget& target) {
  std::vector<std::string> reasons, details;
  if (std::find(kInputDtypes.begin(), kInputDtypes.end(), problem.dtype) == kInputDtypes.end()) {
    reasons.emplace_back("DTYPE_UNSUPPORTED");
    details.push_back(util::cat("dtype=", problem.dtype, "; ", kFamily, " has ", util::join(kInputDtypes, ", ")));
  }
  if (std::find(kHeadDims.begin(), kHeadDims.end(), problem.head_dim) == kHeadDims.end()) {
    std::vector<std::string> dims;
    for (std::int64_t d : kHeadDims) dims.push_back(std::to_string(d));
    reasons.emplace_back("HEAD_DIM_UNSUPPORTED");
    details.push_back(util::cat("head_dim=", std::to_string(problem.head_dim), "; ", kFamily, " has ",
                                util::join(dims, ", ")));
  }
  std::vector<std::string> aliased = zero_batch_strides(problem);
  if (!aliased.empty()) {
    std::vector<std::string> names;
    for (const std::string& t : aliased) names.push_back(t + "_stride_b=0");
    reasons.emplace_back("LAYOUT_UNSUPPORTED");
    details.push_back(util::cat(util::join(names, ", "), "; ", kFamily,
                                " reads and writes each batch apart, so batch strides must be at least 1"));
  }
  if (!reasons.empty()) return {Candidate{std::string(kFamily), "", {}, reasons, util::join(details, "; ")}};
  std::vector<const arch::MmaOp*> atoms =
      arch::mma_ops({.arch = target.name, .a_dtype = problem.dtype, .b_dtype = problem.dtype, .acc_dtype = "f32"});
  std::stable_sort(atoms.begin(), atoms.end(),
                   [](const arch::MmaOp* x, const arch::MmaOp* y) { return x->m * x->n * x->k > y->m * y->n * y->k; });
  if (atoms.empty()) {
    return {Candidate{std::string(kFamily), "", {}, {"ARCH_UNSUPPORTED"},
                      util::cat(target.name, " has no MMA atom for ", problem.dtype, " accumulating in f32")}};
  }
  auto [block_m, block_n, waves] = tile(target, problem.head_dim);
  families::ProblemSizes sizes = contract_sizes(problem);
  std::vector<Candidate> out;
  for (const arch::MmaOp* op : atoms) {
    families::KvValues fields = {{"block_m", block_m},       {"block_n", block_n},
                                 {"double_buffer", kDoubleBuffer},
                                 {"dtype", problem.dtype},   {"head_dim", problem.head_dim},
                                 {"lds_pad", kLdsPad},       {"mask", problem.mask},
                                 {"op_id", op->id},          {"seq_mode", problem.seq_mode},
                                 {"waves", waves}};
    out.push_back(Candidate{std::string(kFamily), spec_kv(fields), sizes, {}, ""});
  }
  return out;
}

}  // namespace rocke::library::kernels::attention::attention_fwd
