// Python twin: rocke/helpers/dtypes.py
#include "rocke/helpers/dtypes.hpp"

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::helpers {

ir::Type ir_type(std::string_view dtype) { return ir::scalar_type(dtype); }

std::int64_t elem_bytes(std::string_view dtype) {
  if (dtype == "f16" || dtype == "bf16") return 2;
  if (dtype == "f32") return 4;
  throw KeyError(util::cat("'", dtype, "'"));
}

ir::Type vector_type(ir::Type elem, std::int64_t lanes) { return lanes == 1 ? elem : ir::vec(elem, lanes); }

}  // namespace rocke::helpers
