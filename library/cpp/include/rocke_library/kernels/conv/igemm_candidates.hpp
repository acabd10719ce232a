// rocKE library: the dispatch rules the implicit-GEMM conv hooks share (dtype, layout, the largest
// MMA atom, tiles large first, the vector width).
// Python twin: rocke_library/kernels/conv/igemm_candidates.py
#pragma once

#include <array>
#include <cstdint>
#include <span>
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
  bool fill;
};
// (bm, bn, bk, wm, wn, double_buffer, fill) per MMA kind, large first; fill: only where the tile's
// workgroups fill the arch's CUs (GemmGrid::fills).
inline constexpr std::array<GemmTile, 2> kTilesMfma = {{{64, 64, 32, 2, 2, true, false}, {32, 32, 16, 1, 1, false, false}}};
inline constexpr std::array<GemmTile, 2> kTilesWmma = {{{64, 64, 32, 2, 2, true, false}, {32, 32, 16, 1, 2, false, false}}};
inline constexpr std::array<GemmTile, 3> kTilesMmaSync = {
    {{128, 64, 32, 4, 2, true, true}, {64, 64, 32, 2, 2, true, false}, {32, 32, 16, 1, 2, false, false}}};

// The tiles of an MMA kind (TILES[mma_kind]); std::out_of_range for a kind without tiles.
std::span<const GemmTile> tiles_of(std::string_view mma_kind);

// A hook's GEMM view: m rows (the grid's y), n columns (its x), `batches` independent GEMMs (its z).
struct GemmGrid {
  std::int64_t m, n, batches;
  // Workgroups of a bm x bn tile.
  std::int64_t workgroups(std::int64_t bm, std::int64_t bn) const;
  // A bm x bn tile fits the GEMM (m >= bm, n >= bn) and its workgroups fill cu_count CUs.
  bool fills(std::int64_t bm, std::int64_t bn, std::int64_t cu_count) const;
};

// The dtype and layout reasons (codes, details) every implicit-GEMM hook gives.
std::pair<std::vector<std::string>, std::vector<std::string>> hook_reasons(const dispatch::ConvFields& problem,
                                                                           std::string_view family);

// The arch's largest f32-accumulating MMA atom for dtype (catalog order on a tie), or nullptr.
const arch::MmaOp* largest_atom(const arch::ArchTarget& target, const std::string& dtype);

// EMPTY when the reduction is: `field` (its size `value`, e.g. k for dgrad) is 0, or the filter
// window does not fit the padded input (no output pixel).
void add_empty(const dispatch::ConvFields& problem, std::string_view field, std::int64_t value,
               std::vector<std::string>& reasons, std::vector<std::string>& details);

// Per tile in order (a `fill` tile only where it fills target's CUs: GemmGrid::fills), the spec
// fields and the contract's problem sizes; empty when the hook's reasons (with the atom's) reject the
// problem, filling reasons and details.
std::vector<std::pair<families::KvValues, families::ProblemSizes>> gemm_candidates(
    const dispatch::ConvFields& problem, const arch::ArchTarget& target, std::vector<std::string>& reasons,
    std::vector<std::string>& details, std::int64_t run, const families::KvValues& extra, const GemmGrid& grid);

// The one candidate of a hook that rejects the problem before a spec exists.
std::vector<Candidate> rejected(std::string_view family, const std::vector<std::string>& reasons,
                                const std::vector<std::string>& details);

}  // namespace rocke::library::kernels::conv
