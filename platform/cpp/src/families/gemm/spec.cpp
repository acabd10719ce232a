// Python twin: rocke/families/gemm/spec.py
#include "rocke/families/gemm/spec.hpp"

#include <algorithm>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::gemm {

namespace {

template <class Items>
bool contains(const Items& items, std::string_view value) {
  return std::find(items.begin(), items.end(), value) != items.end();
}

}  // namespace

const std::vector<Field<GemmSpec>>& GemmSpec::fields() {
  static const std::vector<Field<GemmSpec>> fields = {
      {"a_dtype", &GemmSpec::a_dtype}, {"a_layout", &GemmSpec::a_layout},
      {"b_dtype", &GemmSpec::b_dtype}, {"b_layout", &GemmSpec::b_layout},
      {"bias", &GemmSpec::bias},       {"bk", &GemmSpec::bk},
      {"bm", &GemmSpec::bm},           {"bn", &GemmSpec::bn},
      {"c_dtype", &GemmSpec::c_dtype}, {"double_buffer", &GemmSpec::double_buffer},
      {"lds_pad", &GemmSpec::lds_pad}, {"op_id", &GemmSpec::op_id},
      {"wm", &GemmSpec::wm},           {"wn", &GemmSpec::wn},
  };
  return fields;
}

void GemmSpec::check() const {
  if (!contains(INPUT_DTYPES, a_dtype)) fail("a_dtype", util::cat("must be one of ", util::join(INPUT_DTYPES, ", ")));
  if (b_dtype != a_dtype) fail("b_dtype", util::cat("must equal a_dtype=", a_dtype, " (one MMA input type)"));
  if (!contains(helpers::FLOAT_DTYPES, c_dtype)) {
    fail("c_dtype", util::cat("must be one of ", util::join(helpers::FLOAT_DTYPES, ", ")));
  }
  if (!contains(LAYOUTS, a_layout)) fail("a_layout", util::cat("must be one of ", util::join(LAYOUTS, ", ")));
  if (!contains(LAYOUTS, b_layout)) fail("b_layout", util::cat("must be one of ", util::join(LAYOUTS, ", ")));
  const arch::MmaOp& op = families::check_mma_atom(*this, "a_dtype", a_dtype);  // b_dtype equals a_dtype (checked above)
  families::check_tile_gemm(*this, op);
}

const arch::MmaOp& GemmSpec::atom() const { return arch::mma_op(op_id); }

std::int64_t GemmSpec::threads() const { return wm * wn * atom().wave_size; }

}  // namespace rocke::families::gemm
