// Python twin: rocke/families/gemm/spec.py
#include "rocke/families/gemm/spec.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::families::gemm {

namespace {

template <class Items>
bool contains(const Items& items, std::string_view value) {
  return std::find(items.begin(), items.end(), value) != items.end();
}

std::string str(std::int64_t value) { return std::to_string(value); }

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
  if (!contains(kInputDtypes, a_dtype)) fail("a_dtype", util::cat("must be one of ", util::join(kInputDtypes, ", ")));
  if (b_dtype != a_dtype) fail("b_dtype", util::cat("must equal a_dtype=", a_dtype, " (one MMA input type)"));
  if (!contains(helpers::kFloatDtypes, c_dtype)) {
    fail("c_dtype", util::cat("must be one of ", util::join(helpers::kFloatDtypes, ", ")));
  }
  if (!contains(kLayouts, a_layout)) fail("a_layout", util::cat("must be one of ", util::join(kLayouts, ", ")));
  if (!contains(kLayouts, b_layout)) fail("b_layout", util::cat("must be one of ", util::join(kLayouts, ", ")));
  const arch::MmaOp& op = families::check_mma_atom(*this, "a_dtype", a_dtype);  // b_dtype equals a_dtype (checked above)
  for (auto [field, value] : {std::pair<std::string_view, std::int64_t>{"wm", wm}, {"wn", wn}}) {
    if (!(1 <= value && value <= kMaxWavesPerDim)) fail(field, util::cat("must be in 1..", str(kMaxWavesPerDim)));
  }
  for (auto [field, value, most] : {std::tuple<std::string_view, std::int64_t, std::int64_t>{"bm", bm, kMaxTileMn},
                                    {"bn", bn, kMaxTileMn},
                                    {"bk", bk, kMaxTileK}}) {
    if (!(1 <= value && value <= most)) fail(field, util::cat("must be in 1..", str(most)));
  }
  if (bm % (wm * op.m) != 0) {
    fail("bm", util::cat("must be a multiple of wm * atom m = ", str(wm), " * ", str(op.m), " (", op.id, ")"));
  }
  if (bn % (wn * op.n) != 0) {
    fail("bn", util::cat("must be a multiple of wn * atom n = ", str(wn), " * ", str(op.n), " (", op.id, ")"));
  }
  if (bk % op.k != 0) fail("bk", util::cat("must be a multiple of atom k = ", str(op.k), " (", op.id, ")"));
  if (!(0 <= lds_pad && lds_pad <= kMaxLdsPad)) fail("lds_pad", util::cat("must be in 0..", str(kMaxLdsPad)));
}

const arch::MmaOp& GemmSpec::atom() const { return arch::mma_op(op_id); }

std::int64_t GemmSpec::threads() const { return wm * wn * atom().wave_size; }

}  // namespace rocke::families::gemm
