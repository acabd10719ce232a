// Python twin: rocke_library/kernels/conv/conv_igemm_fwd/contract.py
#include "rocke_library/kernels/conv/conv_igemm_fwd/contract.hpp"

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"

namespace rocke::library::kernels::conv::conv_igemm_fwd {

namespace {

using families::KernelArg;
using families::LaunchError;
using util::cat;

}  // namespace

families::LaunchContract launch(const ConvIgemmFwdSpec& spec, const families::ProblemSizes& problem) {
  std::string_view fam = ConvIgemmFwdSpec::kFamily;
  std::vector<std::int64_t> sizes = families::problem_sizes(fam, problem, kProblemKeys);
  std::int64_t n = sizes[0], h = sizes[1], w = sizes[2], c = sizes[3], k = sizes[4], g = sizes[5];
  if (c % g != 0) throw LaunchError(cat(fam, ": c=", std::to_string(c), " is not a multiple of g=", std::to_string(g)));
  if (k % g != 0) throw LaunchError(cat(fam, ": k=", std::to_string(k), " is not a multiple of g=", std::to_string(g)));
  if ((c / g) % spec.vec != 0) {
    throw LaunchError(cat(fam, ": c/g=", std::to_string(c / g), " is not a multiple of vec=", std::to_string(spec.vec)));
  }
  std::int64_t ho = output_size(h, spec.filter_y, spec.stride_h, spec.pad_h, spec.dil_h);
  std::int64_t wo = output_size(w, spec.filter_x, spec.stride_w, spec.pad_w, spec.dil_w);
  if (ho < 1 || wo < 1) {
    throw LaunchError(cat(fam, ": a ", std::to_string(h), " x ", std::to_string(w), " input padded by ",
                          std::to_string(spec.pad_h), ", ", std::to_string(spec.pad_w),
                          " is smaller than the filter window"));
  }
  __int128 esize = helpers::elem_bytes(spec.dtype);
  __int128 pixels = static_cast<__int128>(n) * ho * wo;
  std::string buffer_type = cat("ptr<", spec.dtype, ", global>");
  families::LaunchContract out;
  out.args.push_back(KernelArg{"input", buffer_type, "input",
                               families::check_buffer(fam, "input", static_cast<__int128>(n) * h * w * c * esize)});
  out.args.push_back(KernelArg{"weight", buffer_type, "input",
                               families::check_buffer(fam, "weight", static_cast<__int128>(k) * spec.taps() * (c / g) * esize)});
  if (spec.bias) out.args.push_back(KernelArg{"bias", buffer_type, "input", families::check_buffer(fam, "bias", k * esize)});
  out.args.push_back(KernelArg{"output", buffer_type, "output", families::check_buffer(fam, "output", pixels * k * esize)});
  for (std::size_t i = 0; i < kProblemKeys.size(); ++i) {
    out.args.push_back(KernelArg{std::string(kProblemKeys[i]), "i32", "scalar", 0, sizes[i]});
    out.problem[std::string(kProblemKeys[i])] = sizes[i];
  }
  // pixels fits: output's bytes were checked against 2^31 - 1 (k >= 1, esize >= 1)
  out.grid = {families::ceil_div(k / g, spec.bn), families::ceil_div(static_cast<std::int64_t>(pixels), spec.bm), g};
  out.block = {spec.threads(), 1, 1};
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  return out;
}

}  // namespace rocke::library::kernels::conv::conv_igemm_fwd
