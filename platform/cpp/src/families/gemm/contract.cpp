// Python twin: rocke/families/gemm/contract.py
#include "rocke/families/gemm/contract.hpp"

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::gemm {

LaunchContract launch(const GemmSpec& spec, const ProblemSizes& problem) {
  std::vector<std::int64_t> sizes = problem_sizes(GemmSpec::kFamily, problem, {"m", "n", "k"});
  std::int64_t m = sizes[0], n = sizes[1], k = sizes[2];
  std::string_view fam = GemmSpec::kFamily;
  __int128 in_size = helpers::elem_bytes(spec.a_dtype), out_size = helpers::elem_bytes(spec.c_dtype);
  std::string in_type = util::cat("ptr<", spec.a_dtype, ", global>");
  std::string out_type = util::cat("ptr<", spec.c_dtype, ", global>");
  LaunchContract out;
  out.args.push_back(KernelArg{"a", in_type, "input", check_buffer(fam, "a", static_cast<__int128>(m) * k * in_size)});
  out.args.push_back(KernelArg{"b", in_type, "input", check_buffer(fam, "b", static_cast<__int128>(k) * n * in_size)});
  out.args.push_back(KernelArg{"c", out_type, "output", check_buffer(fam, "c", static_cast<__int128>(m) * n * out_size)});
  if (spec.bias) out.args.push_back(KernelArg{"bias", out_type, "input", check_buffer(fam, "bias", n * out_size)});
  out.args.push_back(KernelArg{"m", "i32", "scalar", 0, m});
  out.args.push_back(KernelArg{"n", "i32", "scalar", 0, n});
  out.args.push_back(KernelArg{"k", "i32", "scalar", 0, k});
  out.args.push_back(KernelArg{"alpha", "f32", "scalar"});
  out.family = std::string(fam);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = {{"k", k}, {"m", m}, {"n", n}};
  out.grid = {ceil_div(n, spec.bn), ceil_div(m, spec.bm), 1};
  out.block = {spec.threads(), 1, 1};
  return out;
}

}  // namespace rocke::families::gemm
