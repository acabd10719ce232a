// Python twin: rocke_library/dispatch/attention_bwd.py
#include "rocke_library/dispatch/attention_bwd.hpp"

#include "rocke/errors.hpp"
#include "rocke/families/refusals.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/builder.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/register.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/plan.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/register.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/candidates.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/plan.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/register.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/builder.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/register.hpp"
#include "rocke_library/kernels/attention/backward_plan.hpp"

namespace rocke::library::dispatch {

namespace ka = kernels::attention;

std::string dkv_mode(const AttentionFields& problem) { return ka::attention_bwd_main::dkv_mode(problem); }

namespace attention_bwd {

std::string check_spec(std::string_view family, std::string_view kv, const arch::ArchTarget& target) {
  if (family == "attention_bwd_prep") {
    auto spec = ka::attention_bwd_prep::AttentionBwdPrepSpec::from_kv(kv);
    ka::attention_bwd_prep::check_arch(spec, target);
    return spec.to_kv();
  }
  if (family == "attention_bwd_main") {
    auto spec = ka::attention_bwd_main::AttentionBwdMainSpec::from_kv(kv);
    ka::attention_bwd_main::plan_main(spec, target);
    return spec.to_kv();
  }
  if (family == "attention_bwd_dq") {
    auto spec = ka::attention_bwd_dq::AttentionBwdDqSpec::from_kv(kv);
    ka::attention_bwd_dq::plan_dq(spec, target);
    return spec.to_kv();
  }
  if (family == "attention_bwd_convert") {
    auto spec = ka::attention_bwd_convert::AttentionBwdConvertSpec::from_kv(kv);
    ka::attention_bwd_convert::check_arch(spec, target);
    return spec.to_kv();
  }
  throw KeyError(util::cat("attention backward: unknown family '", family, "'"));
}

void check_table(std::string_view family, std::string_view kv, std::string_view arch) {
  const families::RefusalTable* table = family == "attention_bwd_prep"   ? &ka::attention_bwd_prep::kRefusals
                                        : family == "attention_bwd_main" ? &ka::attention_bwd_main::kRefusals
                                        : family == "attention_bwd_dq"   ? &ka::attention_bwd_dq::kRefusals
                                                                         : &ka::attention_bwd_convert::kRefusals;
  families::check_resources(*table, kv, arch);
}

std::pair<std::vector<Launch>, Workspace> assemble(const families::ProblemSizes& sizes,
                                                   const std::vector<std::pair<std::string, std::string>>& parts,
                                                   std::string_view arch) {
  ka::BackwardSpecs specs;
  for (const auto& [family, kv] : parts) {
    if (family == "attention_bwd_prep") specs.prep = ka::attention_bwd_prep::AttentionBwdPrepSpec::from_kv(kv);
    if (family == "attention_bwd_main") specs.main = ka::attention_bwd_main::AttentionBwdMainSpec::from_kv(kv);
    if (family == "attention_bwd_dq") specs.dq = ka::attention_bwd_dq::AttentionBwdDqSpec::from_kv(kv);
    if (family == "attention_bwd_convert") {
      specs.convert = ka::attention_bwd_convert::AttentionBwdConvertSpec::from_kv(kv);
    }
  }
  ka::BackwardPlan assembled = ka::plan_attention_bwd(sizes, arch, specs);
  std::vector<Launch> launches;
  for (const ka::Launch& launch : assembled.launches) launches.push_back(Launch{launch.family, launch.spec, launch.contract});
  Workspace workspace;
  for (const ka::Slice& piece : assembled.slices) workspace.slices.push_back(WorkspaceSlice{piece.name, piece.offset, piece.bytes});
  workspace.slices.push_back(assembled.zero ? WorkspaceSlice{assembled.zero->name, assembled.zero->offset,
                                                             assembled.zero->bytes}
                                            : WorkspaceSlice{std::string(ka::kZeroRegion), 0, 0});
  workspace.bytes = assembled.workspace_bytes();
  for (const std::string& name : assembled.zero_init) workspace.zero_init.emplace_back(0, name);
  return {launches, workspace};
}

}  // namespace attention_bwd

}  // namespace rocke::library::dispatch
