// Python twin: rocke_library/kernels/conv/conv_igemm_wgrad/contract.py
#include "rocke_library/kernels/conv/conv_igemm_wgrad/contract.hpp"

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"

namespace rocke::library::kernels::conv::conv_igemm_wgrad {

families::LaunchContract launch(const ConvIgemmWgradSpec& spec, const families::ProblemSizes& problem) {
  using families::KernelArg;
  std::string_view fam = ConvIgemmWgradSpec::kFamily;
  ConvProblem p = conv_problem(fam, spec, spec.vec, problem);
  __int128 esize = helpers::elem_bytes(spec.dtype);
  std::string buffer_type = util::cat("ptr<", spec.dtype, ", global>");
  __int128 elements = static_cast<__int128>(p.k) * spec.taps() * p.cg();
  KernelArg workspace{"workspace", "ptr<f32, global>", spec.convert ? "input" : "inout",
                      families::check_buffer(fam, "workspace", elements * 4)};
  KernelArg dw{"dw", buffer_type, "output", families::check_buffer(fam, "dw", elements * esize)};
  families::LaunchContract out;
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = p.sizes();
  out.block = {spec.threads(), 1, 1};
  // elements fits: the workspace's bytes were checked against 2^31 - 1
  std::int64_t count = static_cast<std::int64_t>(elements);
  if (spec.convert) {
    out.args = {workspace, dw, KernelArg{"elements", "i32", "scalar", 0, count}};
    out.grid = {families::ceil_div(count, spec.threads() * spec.vec), 1, 1};
    out.workspace_bytes = workspace.bytes;
    return out;
  }
  out.args.push_back(KernelArg{"input", buffer_type, "input",
                               families::check_buffer(fam, "input", static_cast<__int128>(p.n) * p.h * p.w * p.c * esize)});
  out.args.push_back(KernelArg{"dy", buffer_type, "input",
                               families::check_buffer(fam, "dy", static_cast<__int128>(p.n) * p.ho * p.wo * p.k * esize)});
  out.args.push_back(spec.atomic() ? workspace : dw);
  for (std::string_view name : kProblemKeys) out.args.push_back(KernelArg{std::string(name), "i32", "scalar", 0, p.get(name)});
  out.grid = {families::ceil_div(spec.taps() * p.cg(), spec.bn), families::ceil_div(p.kg(), spec.bm), p.g * spec.split_k};
  if (spec.atomic()) {
    out.workspace_bytes = workspace.bytes;
    out.zero_init = {"workspace"};
  }
  return out;
}

}  // namespace rocke::library::kernels::conv::conv_igemm_wgrad
