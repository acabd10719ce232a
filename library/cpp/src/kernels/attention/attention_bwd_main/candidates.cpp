// Python twin: rocke_library/kernels/attention/attention_bwd_main/candidates.py
#include "rocke_library/kernels/attention/attention_bwd_main/candidates.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "rocke/arch/mma.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/spec.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/spec.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/spec.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/spec.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

namespace {

namespace prep = attention_bwd_prep;
namespace dq = attention_bwd_dq;
namespace convert = attention_bwd_convert;

constexpr std::string_view kFamily = AttentionBwdMainSpec::kFamily;
constexpr std::string_view kPrep = prep::AttentionBwdPrepSpec::kFamily;
constexpr std::string_view kDq = dq::AttentionBwdDqSpec::kFamily;
constexpr std::string_view kConvert = convert::AttentionBwdConvertSpec::kFamily;
constexpr std::array<std::string_view, 8> kTensors = {"q", "k", "v", "o", "do", "dq", "dk", "dv"};

template <class List, class T>
bool contains(const List& list, const T& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// A gradient's strides are its tensor's (Python: GRADIENT_OF).
std::int64_t stride(const dispatch::AttentionFields& problem, std::string_view tensor, std::string_view dim) {
  std::string_view of = tensor == "do" ? "o" : tensor == "dq" ? "q" : tensor == "dk" ? "k" : tensor == "dv" ? "v" : tensor;
  return problem.stride(of, dim);
}

// The widest access (at most `most` elements) dividing head_dim and the tensors' strides at the
// problem's alignment.
std::int64_t access_width(const dispatch::AttentionFields& problem, const std::vector<std::string_view>& tensors,
                          std::int64_t most) {
  std::vector<std::string_view> dims = problem.seq_mode == "batched" ? std::vector<std::string_view>{"b", "s", "h"}
                                                                     : std::vector<std::string_view>{"s", "h"};
  std::int64_t run = problem.head_dim;
  for (std::string_view tensor : tensors) {
    for (std::string_view dim : dims) run = std::gcd(run, stride(problem, tensor, dim));
  }
  return std::min(most, vector_width(helpers::elem_bytes(problem.dtype), run, problem.align));
}

}  // namespace

const std::vector<std::string_view>& input_dtypes() {
  static const std::vector<std::string_view> list = [] {
    std::vector<std::string_view> out;
    for (std::string_view d : prep::kInputDtypes) {
      if (contains(kInputDtypes, d) && contains(dq::kInputDtypes, d) && contains(convert::kInputDtypes, d)) {
        out.push_back(d);
      }
    }
    return out;
  }();
  return list;
}

const std::vector<std::int64_t>& head_dims() {
  static const std::vector<std::int64_t> list = [] {
    std::vector<std::int64_t> out;
    for (std::int64_t d : prep::kHeadDims) {
      if (contains(kHeadDims, d) && contains(dq::kHeadDims, d) && contains(convert::kHeadDims, d)) out.push_back(d);
    }
    return out;
  }();
  return list;
}

std::tuple<std::int64_t, std::int64_t, std::int64_t> main_tile(const arch::ArchTarget& target, std::int64_t head_dim) {
  if (target.wave_size == 64) return {32, 64, 2};
  if (target.has_feature(kMmaSync)) {
    if (head_dim <= 64) return {32, 64, 4};
    return {32, 32, 2};
  }
  return {16, 32, 2};
}

std::int64_t main_d_chunk(const arch::ArchTarget& target, std::int64_t head_dim) {
  if (target.wave_size == 64) return head_dim;
  if (target.has_feature(kMmaSync)) return std::min(head_dim, kMmaSyncDChunk);
  return std::min(head_dim, kWave32DkvBudget / head_dim);
}

std::int64_t dq_qdo_lds(const arch::MmaOp& op, std::int64_t head_dim, std::string_view dtype) {
  std::int64_t vgprs = 2 * (head_dim / op.k) * op.a.length * helpers::elem_bytes(dtype) / 4;
  return vgprs > kQdoMaxVgprs ? 1 : 0;
}

std::tuple<std::int64_t, std::int64_t, std::int64_t> dq_tile(const arch::ArchTarget& target, std::int64_t atom_n) {
  if (target.has_feature(kMmaSync)) return {64, 32, 4};
  std::int64_t block_m = target.wave_size == 64 ? 64 : 32;
  return {block_m, 32, std::max<std::int64_t>(1, block_m / atom_n)};
}

families::ProblemSizes plan_sizes(const dispatch::AttentionFields& problem) {
  families::ProblemSizes sizes = {{"batch", problem.batch}, {"heads_q", problem.heads_q}, {"heads_kv", problem.heads_kv}};
  std::vector<std::string_view> dims;
  if (problem.seq_mode == "batched") {
    sizes["seqlen_q"] = problem.seqlen_q;
    sizes["seqlen_k"] = problem.seqlen_k;
    dims = {"b", "s", "h"};
  } else {
    sizes["max_seqlen_q"] = problem.seqlen_q;
    sizes["max_seqlen_k"] = problem.seqlen_k;
    sizes["total_q"] = problem.total_q;
    sizes["total_k"] = problem.total_k;
    dims = {"s", "h"};
  }
  for (std::string_view tensor : kTensors) {
    for (std::string_view dim : dims) {
      if (dim == "b" && !spans_batches(problem, tensor)) continue;  // the contiguous default stands
      sizes[util::cat(tensor, "_stride_", dim)] = stride(problem, tensor, dim);
    }
  }
  return sizes;
}

bool spans_batches(const dispatch::AttentionFields& problem, std::string_view tensor) {
  bool kv = tensor == "k" || tensor == "v" || tensor == "dk" || tensor == "dv";
  return problem.batch > 1 && (kv ? problem.seqlen_k : problem.seqlen_q) > 0;
}

std::vector<std::string> zero_batch_strides(const dispatch::AttentionFields& problem) {
  std::vector<std::string> out;
  if (problem.seq_mode != "batched") return out;
  for (std::string_view t : {"q", "k", "v", "o"}) {
    if (spans_batches(problem, t) && stride(problem, t, "b") == 0) out.emplace_back(t);
  }
  return out;
}

std::string dkv_mode(const dispatch::AttentionFields& problem) {
  return problem.heads_q != problem.heads_kv ? "atomic" : "direct";
}

std::vector<Candidate> candidates(const dispatch::AttentionFields& problem, const arch::ArchTarget& target) {
  std::vector<std::string> reasons, details;
  if (!contains(input_dtypes(), problem.dtype)) {
    reasons.emplace_back("DTYPE_UNSUPPORTED");
    details.push_back(util::cat("dtype=", problem.dtype, "; the attention backward has ", util::join(input_dtypes(), ", ")));
  }
  if (!contains(head_dims(), problem.head_dim)) {
    std::vector<std::string> dims;
    for (std::int64_t d : head_dims()) dims.push_back(std::to_string(d));
    reasons.emplace_back("HEAD_DIM_UNSUPPORTED");
    details.push_back(util::cat("head_dim=", std::to_string(problem.head_dim), "; the attention backward has ",
                                util::join(dims, ", ")));
  }
  std::vector<std::string> aliased = zero_batch_strides(problem);
  if (!aliased.empty()) {
    std::vector<std::string> names;
    for (const std::string& t : aliased) names.push_back(t + "_stride_b=0");
    reasons.emplace_back("LAYOUT_UNSUPPORTED");
    details.push_back(util::cat(util::join(names, ", "), "; the attention backward writes each batch's gradients ",
                                "apart (like their tensors), so batch strides must be at least 1"));
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
  std::string kv_mode = dkv_mode(problem);
  auto common = [&](families::KvValues fields) {
    fields["dtype"] = problem.dtype;
    fields["head_dim"] = problem.head_dim;
    fields["seq_mode"] = problem.seq_mode;
    return spec_kv(fields);
  };
  std::string prep_kv = common({{"block", kElementwiseBlock}, {"vec", access_width(problem, {"o", "do"}, kPrepMaxVec)}});
  families::ProblemSizes sizes = plan_sizes(problem);
  auto [block_m, block_n, waves] = main_tile(target, problem.head_dim);
  std::int64_t d_chunk = main_d_chunk(target, problem.head_dim);
  std::vector<Candidate> out;
  for (std::string_view dq_mode : kDqModeOrder) {
    for (const arch::MmaOp* op : atoms) {
      std::vector<std::pair<std::string, std::string>> parts = {{std::string(kPrep), prep_kv}};
      parts.emplace_back(std::string(kFamily),
                         common({{"block_m", block_m}, {"block_n", block_n}, {"d_chunk", d_chunk},
                                 {"dkv_mode", kv_mode}, {"dq_mode", std::string(dq_mode)}, {"lds_pad", kLdsPad},
                                 {"mask", problem.mask}, {"op_id", op->id}, {"waves", waves}}));
      if (dq_mode == "split") {
        auto [dq_m, dq_n, dq_waves] = dq_tile(target, op->n);
        parts.emplace_back(std::string(kDq), common({{"block_m", dq_m}, {"block_n", dq_n}, {"lds_pad", kLdsPad},
                                                     {"mask", problem.mask}, {"op_id", op->id},
                                                     {"qdo_lds", dq_qdo_lds(*op, problem.head_dim, problem.dtype)},
                                                     {"waves", dq_waves}}));
      }
      if (dq_mode == "atomic" || kv_mode != "direct") {
        std::vector<std::string_view> written;
        if (dq_mode == "atomic") written.push_back("dq");
        if (kv_mode != "direct") {
          written.push_back("dk");
          written.push_back("dv");
        }
        parts.emplace_back(std::string(kConvert),
                           common({{"block", kElementwiseBlock}, {"dkv_mode", kv_mode}, {"dq_mode", std::string(dq_mode)},
                                   {"vec", access_width(problem, written, kConvertMaxVec)}}));
      }
      out.push_back(Candidate{std::string(kFamily), "", sizes, {}, "", {}, parts});
    }
  }
  return out;
}

}  // namespace rocke::library::kernels::attention::attention_bwd_main
