// rocKE library: dispatch(problem, arch) -- a problem to a plan, trying each serving family's
// candidates in order; the problem kinds and, per kind, the families whose hook serves it.
// Python twin: rocke_library/dispatch/dispatch.py
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rocke_library/dispatch/attention_bwd.hpp"
#include "rocke_library/dispatch/attention_fwd.hpp"
#include "rocke_library/dispatch/conv_dgrad.hpp"
#include "rocke_library/dispatch/conv_fwd.hpp"
#include "rocke_library/dispatch/conv_wgrad.hpp"
#include "rocke_library/dispatch/plan.hpp"

namespace rocke::library::dispatch {

// The problem kinds, sorted (Python: KINDS).
const std::vector<std::string_view>& kinds();

Plan dispatch(const AttentionBwdProblem& problem, std::string_view arch);
Plan dispatch(const AttentionFwdProblem& problem, std::string_view arch);
Plan dispatch(const ConvDgradProblem& problem, std::string_view arch);
Plan dispatch(const ConvFwdProblem& problem, std::string_view arch);
Plan dispatch(const ConvWgradProblem& problem, std::string_view arch);

// The canonical kv text of a problem of kind parsed from text (Python: parse_problem(kind, text).to_kv());
// ValueError for an unknown kind, SpecError for a malformed problem.
std::string normalize_problem(std::string_view kind, std::string_view text);

// Python: plan(kind, text, arch) -- parse, then dispatch.
Plan plan(std::string_view kind, std::string_view text, std::string_view arch);

}  // namespace rocke::library::dispatch
