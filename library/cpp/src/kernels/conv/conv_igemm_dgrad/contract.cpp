// Python twin: rocke_library/kernels/conv/conv_igemm_dgrad/contract.py
#include "rocke_library/kernels/conv/conv_igemm_dgrad/contract.hpp"

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"

namespace rocke::library::kernels::conv::conv_igemm_dgrad {

families::LaunchContract launch(const ConvIgemmDgradSpec& spec, const families::ProblemSizes& problem) {
  using families::KernelArg;
  std::string_view fam = ConvIgemmDgradSpec::kFamily;
  ConvProblem p = conv_problem(fam, spec, spec.vec, problem);
  __int128 esize = helpers::elem_bytes(spec.dtype);
  std::string buffer_type = util::cat("ptr<", spec.dtype, ", global>");
  families::LaunchContract out;
  out.args.push_back(KernelArg{"dy", buffer_type, "input",
                               families::check_buffer(fam, "dy", static_cast<__int128>(p.n) * p.ho * p.wo * p.k * esize)});
  out.args.push_back(KernelArg{"weight", buffer_type, "input",
                               families::check_buffer(fam, "weight", static_cast<__int128>(p.k) * spec.taps() * p.cg() * esize)});
  out.args.push_back(KernelArg{"dx", buffer_type, "output",
                               families::check_buffer(fam, "dx", static_cast<__int128>(p.n) * p.h * p.w * p.c * esize)});
  for (std::string_view name : kProblemKeys) out.args.push_back(KernelArg{std::string(name), "i32", "scalar", 0, p.get(name)});
  // n * h * w fits: dx's bytes were checked against 2^31 - 1
  out.grid = {families::ceil_div(p.cg(), spec.bn), families::ceil_div(p.n * p.h * p.w, spec.bm), p.g};
  out.block = {spec.threads(), 1, 1};
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = p.sizes();
  return out;
}

}  // namespace rocke::library::kernels::conv::conv_igemm_dgrad
