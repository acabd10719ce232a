// rocKE library: the attention forward problem (batched or varlen, GQA, masks, strides).
// Python twin: rocke_library/dispatch/attention_fwd.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rocke_library/dispatch/problem.hpp"

namespace rocke::library::dispatch {

inline const std::vector<std::string_view> kMasks = {"none", "causal_tl", "causal_br"};
inline const std::vector<std::string_view> kSeqModes = {"batched", "varlen"};
inline constexpr std::array<std::string_view, 4> kTensors = {"q", "k", "v", "o"};
inline constexpr std::array<std::string_view, 3> kStrideDims = {"b", "s", "h"};

// Python: clamped_product -- 0 when a factor is not a size in 0..MAX_SIZE, MAX_SIZE + 1 when the
// product exceeds kMaxSize.
std::int64_t clamped_product(const std::vector<const std::int64_t*>& factors);

// The fields attention forward and backward share.
struct AttentionFields {
  std::int64_t align = 0;
  std::int64_t batch = 0;
  std::string dtype;
  std::int64_t head_dim = 0;
  std::int64_t heads_kv = 0;
  std::int64_t heads_q = 0;
  std::int64_t k_stride_b = 0;
  std::int64_t k_stride_h = 0;
  std::int64_t k_stride_s = 0;
  std::string mask;
  std::int64_t o_stride_b = 0;
  std::int64_t o_stride_h = 0;
  std::int64_t o_stride_s = 0;
  std::int64_t q_stride_b = 0;
  std::int64_t q_stride_h = 0;
  std::int64_t q_stride_s = 0;
  std::string seq_mode;
  std::int64_t seqlen_k = 0;
  std::int64_t seqlen_q = 0;
  std::int64_t total_k = 0;
  std::int64_t total_q = 0;
  std::int64_t v_stride_b = 0;
  std::int64_t v_stride_h = 0;
  std::int64_t v_stride_s = 0;

  // The stride field called "<tensor>_stride_<dim>".
  std::int64_t stride(std::string_view tensor, std::string_view dim) const;
  // Nothing to write: no query row (O and LSE are empty).
  bool dead() const;
};

// Python: AttentionProblem.defaults.
families::KvValues attention_defaults(const families::KvValues& given);

// Python: AttentionProblem -- the shared fields and rules.
template <class Derived>
struct AttentionProblem : Problem<Derived>, AttentionFields {
  static const std::vector<families::Field<Derived>>& fields() {
    using F = families::Field<Derived>;
    using I = std::int64_t Derived::*;
    using S = std::string Derived::*;
    using A = AttentionFields;
    static const std::vector<F> list = {
        {"align", static_cast<I>(&A::align)},       {"batch", static_cast<I>(&A::batch)},
        {"dtype", static_cast<S>(&A::dtype)},       {"head_dim", static_cast<I>(&A::head_dim)},
        {"heads_kv", static_cast<I>(&A::heads_kv)}, {"heads_q", static_cast<I>(&A::heads_q)},
        {"k_stride_b", static_cast<I>(&A::k_stride_b)}, {"k_stride_h", static_cast<I>(&A::k_stride_h)},
        {"k_stride_s", static_cast<I>(&A::k_stride_s)}, {"mask", static_cast<S>(&A::mask)},
        {"o_stride_b", static_cast<I>(&A::o_stride_b)}, {"o_stride_h", static_cast<I>(&A::o_stride_h)},
        {"o_stride_s", static_cast<I>(&A::o_stride_s)}, {"q_stride_b", static_cast<I>(&A::q_stride_b)},
        {"q_stride_h", static_cast<I>(&A::q_stride_h)}, {"q_stride_s", static_cast<I>(&A::q_stride_s)},
        {"seq_mode", static_cast<S>(&A::seq_mode)}, {"seqlen_k", static_cast<I>(&A::seqlen_k)},
        {"seqlen_q", static_cast<I>(&A::seqlen_q)}, {"total_k", static_cast<I>(&A::total_k)},
        {"total_q", static_cast<I>(&A::total_q)},   {"v_stride_b", static_cast<I>(&A::v_stride_b)},
        {"v_stride_h", static_cast<I>(&A::v_stride_h)}, {"v_stride_s", static_cast<I>(&A::v_stride_s)},
    };
    return list;
  }

  static families::KvValues defaults(const families::KvValues& given) { return attention_defaults(given); }

  void check() const {
    this->check_choice("dtype", dtype, {kProblemDtypes.begin(), kProblemDtypes.end()});
    this->check_choice("mask", mask, kMasks);
    this->check_choice("seq_mode", seq_mode, kSeqModes);
    const std::pair<std::string_view, std::int64_t> sizes[] = {
        {"batch", batch}, {"seqlen_q", seqlen_q}, {"seqlen_k", seqlen_k}, {"total_q", total_q}, {"total_k", total_k}};
    for (const auto& [field, value] : sizes) this->check_range(field, value, 0);
    const std::pair<std::string_view, std::int64_t> positive[] = {
        {"heads_q", heads_q}, {"heads_kv", heads_kv}, {"head_dim", head_dim}};
    for (const auto& [field, value] : positive) this->check_range(field, value, 1);
    if (heads_q % heads_kv != 0) {
      this->fail("heads_q", util::cat("must be a multiple of heads_kv=", std::to_string(heads_kv),
                                      " (an integer GQA ratio)"));
    }
    if (seq_mode == "batched") {
      const std::pair<std::string_view, std::int64_t> totals[] = {{"total_q", seqlen_q}, {"total_k", seqlen_k}};
      for (const auto& [total, seqlen] : totals) {
        std::int64_t value = total == "total_q" ? total_q : total_k;
        if (value != batch * seqlen) {
          this->fail(total, util::cat("must be batch * seqlen = ", std::to_string(batch * seqlen), " in batched mode"));
        }
      }
    } else {
      if (seqlen_q > total_q) {
        this->fail("seqlen_q", util::cat("must be at most total=", std::to_string(total_q),
                                         " (the longest sequence of the batch)"));
      }
      if (seqlen_k > total_k) {
        this->fail("seqlen_k", util::cat("must be at most total=", std::to_string(total_k),
                                         " (the longest sequence of the batch)"));
      }
    }
    for (std::string_view tensor : kTensors) {
      for (std::string_view dim : kStrideDims) {
        this->check_range(util::cat(tensor, "_stride_", dim), stride(tensor, dim), dim == "b" ? 0 : 1);
      }
      if (seq_mode == "varlen" && stride(tensor, "b") != 0) {
        this->fail(util::cat(tensor, "_stride_b"), "must be 0 in varlen mode (packed tokens)");
      }
      if (stride(tensor, "s") < head_dim && stride(tensor, "h") < head_dim) {
        this->fail(util::cat(tensor, "_stride_s"), util::cat("and ", tensor, "_stride_h are both below head_dim=",
                                                             std::to_string(head_dim), ": the rows overlap"));
      }
    }
    this->check_align(align, dtype);
  }
};

struct AttentionFwdProblem : AttentionProblem<AttentionFwdProblem> {
  static constexpr std::string_view kKind = "attention_fwd";
  static constexpr std::string_view kFamily = "attention_fwd problem";
};

}  // namespace rocke::library::dispatch
