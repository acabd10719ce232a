// Python twin: rocke/families/elementwise/contract.py
#include "rocke/families/elementwise/contract.hpp"

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::elementwise {

LaunchContract launch(const ElementwiseSpec& spec, const ProblemSizes& problem) {
  std::int64_t n = problem_sizes(ElementwiseSpec::kFamily, problem, {"n"})[0];
  std::string buffer_type = util::cat("ptr<", spec.dtype, ", global>");
  __int128 nbytes = static_cast<__int128>(n) * helpers::elem_bytes(spec.dtype);
  LaunchContract out;
  for (const std::string& name : spec.inputs()) {
    out.args.push_back(KernelArg{name, buffer_type, "input", check_buffer(ElementwiseSpec::kFamily, name, nbytes)});
  }
  out.args.push_back(KernelArg{"out", buffer_type, "output", check_buffer(ElementwiseSpec::kFamily, "out", nbytes)});
  out.args.push_back(KernelArg{"n", "i32", "scalar", 0, n});
  out.family = std::string(ElementwiseSpec::kFamily);
  out.kernel = spec.kernel_name();
  out.spec = spec.to_kv();
  out.problem = {{"n", n}};
  out.grid = {ceil_div(n, spec.block * spec.vec), 1, 1};
  out.block = {spec.block, 1, 1};
  return out;
}

}  // namespace rocke::families::elementwise
