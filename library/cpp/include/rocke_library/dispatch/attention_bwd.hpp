// rocKE library: the attention backward problem and its dkv_mode choice (no family serves it on
// this build: dispatch refuses it with NO_INSTANCE).
// Python twin: rocke_library/dispatch/attention_bwd.py
#pragma once

#include <string>

#include "rocke_library/dispatch/attention_fwd.hpp"

namespace rocke::library::dispatch {

struct AttentionBwdProblem : AttentionProblem<AttentionBwdProblem> {
  static constexpr std::string_view kKind = "attention_bwd";
  static constexpr std::string_view kFamily = "attention_bwd problem";
};

// "atomic" iff h_q != h_kv (query heads of a group add into one dK, dV), else "store".
inline std::string dkv_mode(const AttentionFields& problem) {
  return problem.heads_q != problem.heads_kv ? "atomic" : "store";
}

}  // namespace rocke::library::dispatch
