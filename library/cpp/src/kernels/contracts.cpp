// Python twin: Family.launch of rocke_library's families (rocke_library/families.py lists them)
#include "rocke_library/kernels/contracts.hpp"

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_fwd/contract.hpp"
#include "rocke_library/kernels/conv/conv_direct_fwd/contract.hpp"
#include "rocke_library/kernels/conv/img2col/contract.hpp"

namespace rocke::library::kernels {

families::LaunchContract launch_contract(std::string_view family, std::string_view kv,
                                         const families::ProblemSizes& problem) {
  if (family == "attention_fwd") {
    return attention::attention_fwd::launch(attention::attention_fwd::AttentionFwdSpec::from_kv(kv), problem);
  }
  if (family == "conv_direct_fwd") {
    return conv::conv_direct_fwd::launch(conv::conv_direct_fwd::ConvDirectFwdSpec::from_kv(kv), problem);
  }
  if (family == "img2col") return conv::img2col::launch(conv::img2col::Img2colSpec::from_kv(kv), problem);
  throw KeyError(util::cat("no C++ launch contract for family '", family, "'"));
}

}  // namespace rocke::library::kernels
