// rocKE library: the dispatch rules the implicit-GEMM conv hooks share (dtype, layout, the largest
// MMA atom, tiles large first, the vector width).
// Python twin: rocke_library/kernels/conv/igemm_candidates.py
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/families/launch.hpp"
#include "rocke/families/spec.hpp"
#include "rocke_library/dispatch/conv_fwd.hpp"
#include "rocke_library/kernels/candidate.hpp"

namespace rocke::library::kernels::conv {

inline constexpr std::int64_t kLdsPad = 8;

struct GemmTile {
  std::int64_t bm, bn, bk, wm, wn;
  bool double_buffer;
};
// (bm, bn, bk, wm, wn, double_buffer) per wave size, large first: [0] wave64, [1] wave32.
inline constexpr std::array<std::array<GemmTile, 2>, 2> kTiles = {
    {{{{64, 64, 32, 2, 2, true}, {32, 32, 16, 1, 1, false}}}, {{{64, 64, 32, 2, 2, true}, {32, 32, 16, 1, 2, false}}}}};

// The dtype and layout reasons (codes, details) every implicit-GEMM hook gives.
std::pair<std::vector<std::string>, std::vector<std::string>> hook_reasons(const dispatch::ConvFields& problem,
                                                                           std::string_view family);

// The arch's largest f32-accumulating MMA atom for dtype (catalog order on a tie), or nullptr.
const arch::MmaOp* largest_atom(const arch::ArchTarget& target, const std::string& dtype);

// EMPTY when the reduction is: `field` (its size `value`, e.g. k for dgrad) is 0, or the filter
// window does not fit the padded input (no output pixel).
void add_empty(const dispatch::ConvFields& problem, std::string_view field, std::int64_t value,
               std::vector<std::string>& reasons, std::vector<std::string>& details);

// Per tile in order, the spec fields and the contract's problem sizes; empty when the hook's
// reasons (with the atom's) reject the problem, filling reasons and details.
std::vector<std::pair<families::KvValues, families::ProblemSizes>> gemm_candidates(
    const dispatch::ConvFields& problem, const arch::ArchTarget& target, std::vector<std::string>& reasons,
    std::vector<std::string>& details, std::int64_t run, const families::KvValues& extra);

// The one candidate of a hook that rejects the problem before a spec exists.
std::vector<Candidate> rejected(std::string_view family, const std::vector<std::string>& reasons,
                                const std::vector<std::string>& details);

}  // namespace rocke::library::kernels::conv
