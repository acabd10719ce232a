// Python twin: rocke_library/kernels/conv/img2col/contract.py
#include "rocke_library/kernels/conv/img2col/contract.hpp"

#include <string_view>
#include <vector>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::kernels::conv::img2col {

namespace {

using families::KernelArg;
using families::LaunchError;
using util::cat;

const std::vector<std::string_view> kProblemKeys = {"n", "h", "w", "c", "g"};

// Channels per group; LaunchError unless g divides c and vec divides the quotient.
std::int64_t check_channels(const Img2colSpec& spec, std::int64_t c, std::int64_t g) {
  if (c % g != 0) {
    throw LaunchError(cat(Img2colSpec::kFamily, ": c=", std::to_string(c), " is not a multiple of g=", std::to_string(g)));
  }
  if ((c / g) % spec.vec != 0) {
    throw LaunchError(cat(Img2colSpec::kFamily, ": channels per group c/g=", std::to_string(c / g),
                          " are not a multiple of vec=", std::to_string(spec.vec)));
  }
  return c / g;
}

}  // namespace

families::LaunchContract launch(const Img2colSpec& spec, const families::ProblemSizes& problem) {
  std::vector<std::int64_t> sizes = families::problem_sizes(Img2colSpec::kFamily, problem, kProblemKeys);
  std::string_view fam = Img2colSpec::kFamily;
  std::int64_t n = sizes[0], h = sizes[1], w = sizes[2], c = sizes[3], g = sizes[4];
  std::int64_t cg = check_channels(spec, c, g);
  std::int64_t ho = output_size(h, spec.filter_y, spec.stride_h, spec.pad_h, spec.dil_h);
  std::int64_t wo = output_size(w, spec.filter_x, spec.stride_w, spec.pad_w, spec.dil_w);
  if (ho < 1 || wo < 1) {
    throw LaunchError(cat(fam, ": a ", std::to_string(h), " x ", std::to_string(w), " input padded by ",
                          std::to_string(spec.pad_h), ", ", std::to_string(spec.pad_w),
                          " is smaller than the filter window"));
  }
  __int128 esize = helpers::elem_bytes(spec.dtype);
  __int128 rows = static_cast<__int128>(n) * ho * wo;
  std::string buffer_type = cat("ptr<", spec.dtype, ", global>");
  families::LaunchContract out;
  out.args.push_back(KernelArg{"input", buffer_type, "input",
                               families::check_buffer(fam, "input", static_cast<__int128>(n) * h * w * c * esize)});
  out.args.push_back(
      KernelArg{"col", buffer_type, "output", families::check_buffer(fam, "col", g * rows * spec.taps() * cg * esize)});
  for (std::size_t i = 0; i < kProblemKeys.size(); ++i) {
    out.args.push_back(KernelArg{std::string(kProblemKeys[i]), "i32", "scalar", 0, sizes[i]});
    out.problem[std::string(kProblemKeys[i])] = sizes[i];
  }
  // rows * (cg / vec) fits: col's bytes were checked against 2^31 - 1
  out.grid = {families::ceil_div(static_cast<std::int64_t>(rows) * (cg / spec.vec), spec.block), g, 1};
  out.block = {spec.block, 1, 1};
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  return out;
}

}  // namespace rocke::library::kernels::conv::img2col
