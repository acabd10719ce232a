// rocKE library: the attention backward problem and the plan assembler of its launch set.
// Python twin: rocke_library/dispatch/attention_bwd.py
// Fields and rules of attention_fwd, gradients laid out like their tensors; the launch set prep ->
// main -> [dq] -> [convert]: each part's checks by family name, and assemble (plan_attention_bwd
// turned into the dispatch plan's launches and shared workspace).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/arch/target.hpp"
#include "rocke_library/dispatch/attention_fwd.hpp"
#include "rocke_library/dispatch/plan.hpp"

namespace rocke::library::dispatch {

struct AttentionBwdProblem : AttentionProblem<AttentionBwdProblem> {
  static constexpr std::string_view kKind = "attention_bwd";
  static constexpr std::string_view kFamily = "attention_bwd problem";
};

// "atomic" iff h_q != h_kv (query heads of a group add into one dK, dV), else "direct".
std::string dkv_mode(const AttentionFields& problem);

namespace attention_bwd {

// The part's spec rules and the family's arch rules (SpecError; Python: from_kv + check_arch);
// returns the spec's canonical kv.
std::string check_spec(std::string_view family, std::string_view kv, const arch::ArchTarget& target);
// The family's resource-refusal table for the part (ValueError naming the figures).
void check_table(std::string_view family, std::string_view kv, std::string_view arch);
// The launches and workspace of plan_attention_bwd(sizes, arch, the parts' specs): slices lse2,
// delta, [dq_acc], [dk_acc, dv_acc], then zero_ws (0 bytes at 0 when nothing accumulates); no
// host zero-fill.
// ComponentLaunchError names a refusing contract.
std::pair<std::vector<Launch>, Workspace> assemble(const families::ProblemSizes& sizes,
                                                   const std::vector<std::pair<std::string, std::string>>& parts,
                                                   std::string_view arch);

}  // namespace attention_bwd

}  // namespace rocke::library::dispatch
