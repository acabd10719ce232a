// Python twin: rocke_library/families.py (defined)
// Library's families, each adding its C++ builder twin with its spec's fields (for the config
// reader) and its normalizer (Spec.from_kv(kv).to_kv()), in name order like defined().
#include "rocke_library/families.hpp"

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/contract.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/register.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/contract.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/register.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/contract.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/register.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/contract.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/register.hpp"
#include "rocke_library/kernels/attention/attention_fwd/contract.hpp"
#include "rocke_library/kernels/attention/attention_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/contract.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/contract.hpp"
#include "rocke_library/kernels/conv/conv_igemm_dgrad/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/contract.hpp"
#include "rocke_library/kernels/conv/conv_igemm_fwd/register.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/contract.hpp"
#include "rocke_library/kernels/conv/conv_igemm_wgrad/register.hpp"
#include "rocke_library/kernels/conv/img2col/contract.hpp"
#include "rocke_library/kernels/conv/img2col/register.hpp"

namespace rocke::library {

void register_library_families(families::FamilyRegistry& registry) {
  kernels::attention::attention_bwd_convert::register_family(registry);
  kernels::attention::attention_bwd_dq::register_family(registry);
  kernels::attention::attention_bwd_main::register_family(registry);
  kernels::attention::attention_bwd_prep::register_family(registry);
  kernels::attention::attention_fwd::register_family(registry);
  kernels::conv::conv_direct_fwd::register_family(registry);
  kernels::conv::conv_igemm_dgrad::register_family(registry);
  kernels::conv::conv_igemm_fwd::register_family(registry);
  kernels::conv::conv_igemm_wgrad::register_family(registry);
  kernels::conv::img2col::register_family(registry);
}

families::FamilyRegistry& registry_with_library() {
  static families::FamilyRegistry& registry = [] () -> families::FamilyRegistry& {
    families::FamilyRegistry& shared = families::registry();
    register_library_families(shared);
    return shared;
  }();
  return registry;
}

families::LaunchContract launch_contract(std::string_view family, std::string_view kv,
                                         const families::ProblemSizes& problem) {
  namespace ka = kernels::attention;
  if (family == "attention_bwd_convert") {
    return ka::attention_bwd_convert::launch(ka::attention_bwd_convert::AttentionBwdConvertSpec::from_kv(kv), problem);
  }
  if (family == "attention_bwd_dq") return ka::attention_bwd_dq::launch(ka::attention_bwd_dq::AttentionBwdDqSpec::from_kv(kv), problem);
  if (family == "attention_bwd_main") {
    return ka::attention_bwd_main::launch(ka::attention_bwd_main::AttentionBwdMainSpec::from_kv(kv), problem);
  }
  if (family == "attention_bwd_prep") {
    return ka::attention_bwd_prep::launch(ka::attention_bwd_prep::AttentionBwdPrepSpec::from_kv(kv), problem);
  }
  if (family == "attention_fwd") {
    return kernels::attention::attention_fwd::launch(kernels::attention::attention_fwd::AttentionFwdSpec::from_kv(kv), problem);
  }
  if (family == "conv_direct_fwd") {
    return kernels::conv::conv_direct_fwd::launch(kernels::conv::conv_direct_fwd::ConvDirectFwdSpec::from_kv(kv), problem);
  }
  if (family == "conv_igemm_dgrad") {
    return kernels::conv::conv_igemm_dgrad::launch(kernels::conv::conv_igemm_dgrad::ConvIgemmDgradSpec::from_kv(kv),
                                                   problem);
  }
  if (family == "conv_igemm_fwd") {
    return kernels::conv::conv_igemm_fwd::launch(kernels::conv::conv_igemm_fwd::ConvIgemmFwdSpec::from_kv(kv), problem);
  }
  if (family == "conv_igemm_wgrad") {
    return kernels::conv::conv_igemm_wgrad::launch(kernels::conv::conv_igemm_wgrad::ConvIgemmWgradSpec::from_kv(kv),
                                                   problem);
  }
  if (family == "img2col") return kernels::conv::img2col::launch(kernels::conv::img2col::Img2colSpec::from_kv(kv), problem);
  throw KeyError(util::cat("no C++ launch contract for family '", family, "'"));
}

}  // namespace rocke::library
