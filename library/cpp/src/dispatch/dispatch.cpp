// Python twin: rocke_library/dispatch/dispatch.py
#include "rocke_library/dispatch/dispatch.hpp"

#include <functional>
#include <optional>

#include "rocke/arch/target.hpp"
#include "rocke/errors.hpp"
#include "rocke/families/refusals.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/dispatch/reasons.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/candidates.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/register.hpp"
#include "rocke_library/kernels/attention/backward_plan.hpp"
#include "rocke_library/kernels/attention/attention_fwd/candidates.hpp"
#include "rocke_library/kernels/attention/attention_fwd/contract.hpp"
#include "rocke_library/kernels/attention/attention_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/candidates.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/contract.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/candidates.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/contract.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/candidates.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/contract.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/candidates.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/contract.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/register.hpp"

namespace rocke::library::dispatch {

namespace {

using kernels::Candidate;

// One serving family: its hook and what _try needs of it (spec parse, refusal table, contract).
template <class P>
struct Hook {
  std::string_view family;
  std::function<std::vector<Candidate>(const P&, const arch::ArchTarget&)> candidates;
  const families::RefusalTable* refusals;
  // from_kv(kv) then launch(spec, sizes): SpecError / LaunchError as Python raises them; the
  // canonical kv is passed to check between the two.
  std::function<families::LaunchContract(std::string_view kv, const families::ProblemSizes& sizes,
                                         const std::function<void(const std::string&)>& check)>
      launch;
};

// A kind whose candidates are launch sets (Python: LAUNCH_SETS): each part's spec and arch rules
// (returning the canonical kv), its refusal table, and the plan assembler.
struct LaunchSet {
  std::function<std::string(std::string_view family, std::string_view kv, const arch::ArchTarget&)> check_spec;
  std::function<void(std::string_view family, std::string_view kv, std::string_view arch)> check_table;
  std::function<std::pair<std::vector<Launch>, Workspace>(
      const families::ProblemSizes&, const std::vector<std::pair<std::string, std::string>>&, std::string_view)>
      assemble;
};

const LaunchSet kAttentionBwdSet = {attention_bwd::check_spec, attention_bwd::check_table, attention_bwd::assemble};

template <class S, class Contract>
auto launcher(Contract contract) {
  return [contract](std::string_view kv, const families::ProblemSizes& sizes,
                    const std::function<void(const std::string&)>& check) {
    S spec = S::from_kv(kv);
    check(spec.to_kv());
    return contract(spec, sizes);
  };
}

const std::vector<Hook<AttentionFwdProblem>>& attention_fwd_hooks() {
  namespace fam = kernels::attention::attention_fwd;
  static const std::vector<Hook<AttentionFwdProblem>> hooks = {
      {"attention_fwd",
       [](const AttentionFwdProblem& p, const arch::ArchTarget& t) { return fam::candidates(p, t); },
       &fam::kRefusals, launcher<fam::AttentionFwdSpec>(fam::launch)},
  };
  return hooks;
}

const std::vector<Hook<AttentionBwdProblem>>& attention_bwd_hooks() {
  namespace fam = kernels::attention::attention_bwd_main;
  static const std::vector<Hook<AttentionBwdProblem>> hooks = {
      {"attention_bwd_main",
       [](const AttentionBwdProblem& p, const arch::ArchTarget& t) { return fam::candidates(p, t); }, &fam::kRefusals,
       {}},
  };
  return hooks;
}

// conv_fwd: the MMA implicit GEMM first, the direct kernel for what it refuses.
const std::vector<Hook<ConvFwdProblem>>& conv_fwd_hooks() {
  namespace fam = kernels::conv::conv_direct_fwd;
  namespace igemm = kernels::conv::conv_igemm_fwd;
  static const std::vector<Hook<ConvFwdProblem>> hooks = {
      {"conv_igemm_fwd", [](const ConvFwdProblem& p, const arch::ArchTarget& t) { return igemm::candidates(p, t); },
       &igemm::kRefusals, launcher<igemm::ConvIgemmFwdSpec>(igemm::launch)},
      {"conv_direct_fwd", [](const ConvFwdProblem& p, const arch::ArchTarget& t) { return fam::candidates(p, t); },
       &fam::kRefusals, launcher<fam::ConvDirectFwdSpec>(fam::launch)},
  };
  return hooks;
}

const std::vector<Hook<ConvDgradProblem>>& conv_dgrad_hooks() {
  namespace fam = kernels::conv::conv_igemm_dgrad;
  static const std::vector<Hook<ConvDgradProblem>> hooks = {
      {"conv_igemm_dgrad", [](const ConvDgradProblem& p, const arch::ArchTarget& t) { return fam::candidates(p, t); },
       &fam::kRefusals, launcher<fam::ConvIgemmDgradSpec>(fam::launch)},
  };
  return hooks;
}

const std::vector<Hook<ConvWgradProblem>>& conv_wgrad_hooks() {
  namespace fam = kernels::conv::conv_igemm_wgrad;
  static const std::vector<Hook<ConvWgradProblem>> hooks = {
      {"conv_igemm_wgrad", [](const ConvWgradProblem& p, const arch::ArchTarget& t) { return fam::candidates(p, t); },
       &fam::kRefusals, launcher<fam::ConvIgemmWgradSpec>(fam::launch)},
  };
  return hooks;
}

struct Outcome {
  std::optional<Rejection> rejection;
  std::optional<Launch> launch;
};

struct SetOutcome {
  std::optional<Rejection> rejection;
  std::vector<Launch> launches;
  std::optional<Workspace> shared;
};

SetOutcome try_set(const LaunchSet& launch_set, const Candidate& candidate, const arch::ArchTarget& target) {
  if (!candidate.reasons.empty()) {
    return {Rejection{candidate.family, "", ordered(candidate.reasons), candidate.detail}, {}, {}};
  }
  for (const auto& [name, kv] : candidate.parts) {
    std::string canonical;
    try {
      canonical = launch_set.check_spec(name, kv, target);
    } catch (const ValueError& exc) {
      return {Rejection{name, kv, {"SPEC_REFUSED"}, exc.what()}, {}, {}};
    }
    try {
      launch_set.check_table(name, canonical, target.name);
    } catch (const ValueError& exc) {
      return {Rejection{name, kv, {"RESOURCE_REFUSED"}, exc.what()}, {}, {}};
    }
  }
  try {
    auto [launches, workspace] = launch_set.assemble(candidate.sizes, candidate.parts, target.name);
    return {{}, std::move(launches), std::move(workspace)};
  } catch (const kernels::attention::ComponentLaunchError& exc) {
    std::string kv;
    for (const auto& [name, part] : candidate.parts) {
      if (name == exc.family) kv = part;
    }
    return {Rejection{exc.family, kv, {"TOO_LARGE"}, exc.what()}, {}, {}};
  }
}

template <class P>
Outcome try_candidate(const Hook<P>& hook, const Candidate& candidate, const std::string& arch) {
  if (!candidate.reasons.empty()) {
    return {Rejection{std::string(hook.family), candidate.spec, ordered(candidate.reasons), candidate.detail}, {}};
  }
  // Which step refused: spec rules (SpecError from from_kv), the table, then the contract.
  std::string stage = "spec";
  try {
    families::LaunchContract contract = hook.launch(candidate.spec, candidate.sizes, [&](const std::string& kv) {
      stage = "resources";
      families::check_resources(*hook.refusals, kv, arch);
      stage = "contract";
    });
    return {{}, Launch{std::string(hook.family), candidate.spec, std::move(contract)}};
  } catch (const families::LaunchError& exc) {
    return {Rejection{std::string(hook.family), candidate.spec, {"TOO_LARGE"}, exc.what()}, {}};
  } catch (const ValueError& exc) {
    if (stage == "contract") throw;
    std::string code = stage == "spec" ? "SPEC_REFUSED" : "RESOURCE_REFUSED";
    return {Rejection{std::string(hook.family), candidate.spec, {code}, exc.what()}, {}};
  }
}

// Python: _try_all -- the candidate's launches (it, then its `then` ones), or the first one's rejection.
template <class P>
Outcome try_all(const Hook<P>& hook, const Candidate& candidate, const std::string& arch, std::vector<Launch>& launches) {
  Outcome outcome = try_candidate(hook, candidate, arch);
  if (!outcome.launch.has_value()) return outcome;
  launches.push_back(std::move(*outcome.launch));
  for (const Candidate& part : candidate.then) {
    Outcome next = try_candidate(hook, part, arch);
    if (!next.launch.has_value()) return next;
    launches.push_back(std::move(*next.launch));
  }
  return {};
}

template <class P>
Plan run(const P& problem, std::string_view arch_name, const std::vector<Hook<P>>& hooks,
         const LaunchSet* launch_set = nullptr) {
  const arch::ArchTarget& target = arch::get_arch(arch_name);
  std::string kind(P::kKind), kv = problem.to_kv();
  if (problem.dead()) return Plan{kind, target.name, kv, "dead", {}, {}};
  std::vector<Rejection> rejected;
  std::size_t tried = 0;
  for (const Hook<P>& hook : hooks) {
    for (const Candidate& candidate : hook.candidates(problem, target)) {
      ++tried;
      if (launch_set != nullptr) {
        SetOutcome outcome = try_set(*launch_set, candidate, target);
        if (!outcome.rejection.has_value()) {
          return Plan{kind, target.name, kv, "planned", std::move(outcome.launches), rejected, std::move(outcome.shared)};
        }
        rejected.push_back(std::move(*outcome.rejection));
        continue;
      }
      std::vector<Launch> launches;
      Outcome outcome = try_all(hook, candidate, target.name, launches);
      if (!outcome.rejection.has_value()) return Plan{kind, target.name, kv, "planned", std::move(launches), rejected};
      rejected.push_back(std::move(*outcome.rejection));
    }
  }
  if (tried == 0) {
    rejected.push_back(Rejection{"", "", {"NO_INSTANCE"}, util::cat(kind, ": no family of this build serves it")});
  }
  return Plan{kind, target.name, kv, "refused", {}, rejected};
}

const std::vector<std::string_view> kKinds = {"attention_bwd", "attention_fwd", "conv_dgrad", "conv_fwd", "conv_wgrad"};

}  // namespace

const std::vector<std::string_view>& kinds() { return kKinds; }

// Per kind, the serving families in the order dispatch tries them (Python: HOOKS).
Plan dispatch(const AttentionBwdProblem& problem, std::string_view arch) {
  return run(problem, arch, attention_bwd_hooks(), &kAttentionBwdSet);
}
Plan dispatch(const AttentionFwdProblem& problem, std::string_view arch) {
  return run(problem, arch, attention_fwd_hooks());
}
Plan dispatch(const ConvDgradProblem& problem, std::string_view arch) {
  return run(problem, arch, conv_dgrad_hooks());
}
Plan dispatch(const ConvFwdProblem& problem, std::string_view arch) { return run(problem, arch, conv_fwd_hooks()); }
Plan dispatch(const ConvWgradProblem& problem, std::string_view arch) {
  return run(problem, arch, conv_wgrad_hooks());
}

namespace {

template <class F>
auto with_kind(std::string_view kind, F f) {
  if (kind == "attention_bwd") return f(static_cast<AttentionBwdProblem*>(nullptr));
  if (kind == "attention_fwd") return f(static_cast<AttentionFwdProblem*>(nullptr));
  if (kind == "conv_dgrad") return f(static_cast<ConvDgradProblem*>(nullptr));
  if (kind == "conv_fwd") return f(static_cast<ConvFwdProblem*>(nullptr));
  if (kind == "conv_wgrad") return f(static_cast<ConvWgradProblem*>(nullptr));
  throw ValueError(util::cat("unknown problem kind '", kind, "'; known: ", util::join(kKinds, ", ")));
}

}  // namespace

std::string normalize_problem(std::string_view kind, std::string_view text) {
  return with_kind(kind, [&](auto* tag) {
    using P = std::remove_pointer_t<decltype(tag)>;
    return P::parse(text).to_kv();
  });
}

Plan plan(std::string_view kind, std::string_view text, std::string_view arch) {
  return with_kind(kind, [&](auto* tag) {
    using P = std::remove_pointer_t<decltype(tag)>;
    return dispatch(P::parse(text), arch);
  });
}

}  // namespace rocke::library::dispatch
