// Python twin: rocke_library/kernels/conv/igemm_candidates.py
#include "rocke_library/kernels/conv/igemm_candidates.hpp"

#include <algorithm>
#include <stdexcept>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/igemm.hpp"

namespace rocke::library::kernels::conv {

namespace {

bool input_dtype(const std::string& dtype) { return std::find(kInputDtypes.begin(), kInputDtypes.end(), dtype) != kInputDtypes.end(); }

}  // namespace

std::span<const GemmTile> tiles_of(std::string_view mma_kind) {
  if (mma_kind == "mfma") return kTilesMfma;
  if (mma_kind == "wmma") return kTilesWmma;
  if (mma_kind == "mma_sync") return kTilesMmaSync;
  throw std::out_of_range(util::cat("no conv tiles for MMA kind ", mma_kind));
}

std::int64_t GemmGrid::workgroups(std::int64_t bm, std::int64_t bn) const {
  return batches * helpers::ceil_div(m, bm) * helpers::ceil_div(n, bn);
}

bool GemmGrid::fills(std::int64_t bm, std::int64_t bn, std::int64_t cu_count) const {
  return m >= bm && n >= bn && workgroups(bm, bn) >= cu_count;
}

std::pair<std::vector<std::string>, std::vector<std::string>> hook_reasons(const dispatch::ConvFields& problem,
                                                                           std::string_view family) {
  std::vector<std::string> reasons, details;
  if (!input_dtype(problem.dtype)) {
    reasons.emplace_back("DTYPE_UNSUPPORTED");
    details.push_back(util::cat("dtype=", problem.dtype, "; ", family, " has ", util::join(kInputDtypes, ", ")));
  }
  if (problem.layout != "nhwc") {
    reasons.emplace_back("LAYOUT_UNSUPPORTED");
    details.push_back(util::cat("layout=", problem.layout, "; ", family, " has nhwc"));
  }
  return {reasons, details};
}

const arch::MmaOp* largest_atom(const arch::ArchTarget& target, const std::string& dtype) {
  std::vector<const arch::MmaOp*> atoms =
      arch::mma_ops({.arch = target.name, .a_dtype = dtype, .b_dtype = dtype, .acc_dtype = "f32"});
  std::stable_sort(atoms.begin(), atoms.end(),
                   [](const arch::MmaOp* x, const arch::MmaOp* y) { return x->m * x->n * x->k > y->m * y->n * y->k; });
  return atoms.empty() ? nullptr : atoms.front();
}

void add_empty(const dispatch::ConvFields& problem, std::string_view field, std::int64_t value,
               std::vector<std::string>& reasons, std::vector<std::string>& details) {
  std::vector<std::string> empty;
  if (value == 0) empty.push_back(util::cat(field, "=0"));
  auto [ho, wo] = problem.output_hw();
  if (ho * wo == 0) {
    empty.push_back(util::cat("Ho x Wo = ", std::to_string(ho), " x ", std::to_string(wo),
                              ": the filter window does not fit the padded input"));
  }
  if (!empty.empty()) {
    reasons.emplace_back("EMPTY");
    details.push_back(util::join(empty, "; "));
  }
}

std::vector<std::pair<families::KvValues, families::ProblemSizes>> gemm_candidates(
    const dispatch::ConvFields& problem, const arch::ArchTarget& target, std::vector<std::string>& reasons,
    std::vector<std::string>& details, std::int64_t run, const families::KvValues& extra, const GemmGrid& grid) {
  const arch::MmaOp* atom = input_dtype(problem.dtype) ? largest_atom(target, problem.dtype) : nullptr;
  if (reasons.empty() && atom == nullptr) {
    reasons.emplace_back("ARCH_UNSUPPORTED");
    details.push_back(util::cat(target.name, " has no MMA atom for ", problem.dtype, " accumulating in f32"));
  }
  if (!reasons.empty()) return {};
  std::int64_t vec = vector_width(helpers::elem_bytes(problem.dtype), run, problem.align);
  families::ProblemSizes sizes = {{"c", problem.c}, {"g", problem.g}, {"h", problem.h},
                                  {"k", problem.k}, {"n", problem.n}, {"w", problem.w}};
  std::vector<std::pair<families::KvValues, families::ProblemSizes>> out;
  for (const GemmTile& tile : tiles_of(target.mma_kind)) {
    if (tile.fill && !grid.fills(tile.bm, tile.bn, target.cu_count)) continue;
    families::KvValues fields = {
        {"dil_h", problem.dil_h},       {"dil_w", problem.dil_w},       {"filter_x", problem.filter_x},
        {"filter_y", problem.filter_y}, {"pad_h", problem.pad_h},       {"pad_w", problem.pad_w},
        {"stride_h", problem.stride_h}, {"stride_w", problem.stride_w}, {"bk", tile.bk},
        {"bm", tile.bm},                {"bn", tile.bn},                {"double_buffer", tile.double_buffer},
        {"dtype", problem.dtype},       {"lds_pad", kLdsPad},           {"op_id", atom->id},
        {"vec", vec},                   {"wm", tile.wm},                {"wn", tile.wn}};
    for (const auto& [key, value] : extra) fields[key] = value;
    out.emplace_back(std::move(fields), sizes);
  }
  return out;
}

std::vector<Candidate> rejected(std::string_view family, const std::vector<std::string>& reasons,
                                const std::vector<std::string>& details) {
  return {Candidate{std::string(family), "", {}, reasons, util::join(details, "; ")}};
}

}  // namespace rocke::library::kernels::conv
