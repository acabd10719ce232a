// rocKE library: the attention backward as one plan -- launch order, workspace layout, zero-init
// needs and the argument bindings of every launch (see the Python module docstring for the
// conventions every backward family follows).
// Python twin: rocke_library/kernels/attention/backward_plan.py (plan_attention_bwd and its
// layout helpers; the plan's JSON stays Python's, C++ callers take the plan through dispatch)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/families/launch.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/spec.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/spec.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/spec.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/spec.hpp"

namespace rocke::library::kernels::attention {

inline constexpr std::int64_t kWorkspaceAlign = 256;  // bytes; every slice offset is a multiple
inline constexpr std::array<std::string_view, 4> kLaunchOrder = {"attention_bwd_prep", "attention_bwd_main",
                                                                 "attention_bwd_dq", "attention_bwd_convert"};
inline constexpr std::array<std::string_view, 2> kDqModes = {"atomic", "split"};
inline constexpr std::array<std::string_view, 3> kDkvModes = {"direct", "atomic", "split"};
inline constexpr std::array<std::string_view, 8> kTensors = {"q", "k", "v", "o", "do", "dq", "dk", "dv"};
inline constexpr std::array<std::string_view, 8> kInputs = {"q", "k", "v", "o", "do", "lse", "cu_seqlens_q",
                                                            "cu_seqlens_k"};
inline constexpr std::array<std::string_view, 3> kOutputs = {"dq", "dk", "dv"};
inline constexpr std::array<std::string_view, 2> kStatSlices = {"lse2", "delta"};
inline constexpr std::array<std::string_view, 3> kAccSlices = {"dq_acc", "dk_acc", "dv_acc"};
inline constexpr std::string_view kZeroRegion = "zero_ws";
inline constexpr std::array<std::string_view, 5> kBatchedKeys = {"batch", "seqlen_q", "seqlen_k", "heads_q",
                                                                 "heads_kv"};
inline constexpr std::array<std::string_view, 7> kVarlenKeys = {"batch", "max_seqlen_q", "max_seqlen_k", "total_q",
                                                                "total_k", "heads_q", "heads_kv"};

// Specs or a problem the backward plan cannot assemble (missing or inconsistent specs, bad sizes).
class PlanError : public ValueError {
 public:
  explicit PlanError(std::string message) : Error(std::move(message)) {}
};

// The launch contract of one of the plan's families refused the problem (its text unchanged).
class ComponentLaunchError : public families::LaunchError {
 public:
  ComponentLaunchError(std::string family_name, const std::string& message)
      : Error(message), families::LaunchError(message), family(std::move(family_name)) {}
  std::string family;
};

// One f32 workspace slice: byte offset (256-aligned), byte size and logical shape.
struct Slice {
  std::string name;
  std::int64_t offset = 0;
  std::int64_t bytes = 0;
  std::vector<std::int64_t> shape;
};

// How a launch argument is bound: a user tensor, a workspace slice or a scalar value.
struct Binding {
  std::string name;
  std::string type;
  std::string kind;  // tensor | workspace | scalar
  std::int64_t offset = 0;
  std::int64_t bytes = 0;
  std::optional<std::int64_t> value = std::nullopt;  // scalar sizes (scale is the caller's)
};

struct Launch {
  std::string family;
  std::string spec;
  std::string kernel;
  std::array<std::int64_t, 3> grid{};
  std::array<std::int64_t, 3> block{};
  std::vector<Binding> args;
  families::LaunchContract contract;
};

// A user buffer of the problem: bytes, dtype, role.
struct Tensor {
  std::string name;
  std::int64_t bytes = 0;
  std::string dtype;
  std::string role;
};

struct BackwardPlan {
  std::string arch;
  families::ProblemSizes problem;  // the sizes and strides, defaults filled (scale is separate)
  std::vector<Tensor> tensors;
  std::vector<Slice> slices;
  std::optional<Slice> zero;
  std::vector<Launch> launches;
  std::vector<std::string> zero_init;  // none: prep clears the accumulation region

  std::int64_t workspace_bytes() const;
};

// The specs of the plan's launches: prep and main always, dq when main's dq_mode is split,
// convert when dq_mode is atomic or dkv_mode is not direct.
struct BackwardSpecs {
  attention_bwd_prep::AttentionBwdPrepSpec prep;
  attention_bwd_main::AttentionBwdMainSpec main;
  std::optional<attention_bwd_dq::AttentionBwdDqSpec> dq = std::nullopt;
  std::optional<attention_bwd_convert::AttentionBwdConvertSpec> convert = std::nullopt;
};

std::int64_t align_up(std::int64_t value, std::int64_t align = kWorkspaceAlign);

// The workspace slices in order: lse2, delta, then dq_acc (dq_mode=atomic), dk_acc and dv_acc
// (dkv_mode atomic or split), each at a 256-byte aligned offset.
std::vector<Slice> workspace_layout(std::string_view seq_mode, const families::ProblemSizes& sizes,
                                    std::int64_t head_dim, std::string_view dq_mode, std::string_view dkv_mode);

// The accumulation slices as one region (first offset to the end of the last), or none.
std::optional<Slice> zero_region(const std::vector<Slice>& slices);

// Python: plan_attention_bwd(problem | {"arch": arch}, specs); PlanError, ComponentLaunchError.
BackwardPlan plan_attention_bwd(const families::ProblemSizes& problem, std::string_view arch,
                                const BackwardSpecs& specs);

}  // namespace rocke::library::kernels::attention
