// Python twin: rocke/helpers/chain.py
#include "rocke/helpers/chain.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::helpers {

namespace {

using Pick = std::pair<std::int64_t, std::int64_t>;

// The C tile's (lane, row, col) -> (rep, slot), Python's dict: a later set of a key replaces its
// pick. Open addressing over a flat table sized once for every key a plan sets (a tree map paid a
// node and a rebalance per key: about a twelfth of attention_fwd's native run).
class TileSource {
 public:
  explicit TileSource(std::size_t keys)
      : cells_(std::bit_ceil(2 * keys + 1), -1) { entries_.reserve(keys); }

  void set(std::int64_t lane, std::int64_t row, std::int64_t col, Pick pick) {
    std::int32_t& at = cell_of(lane, row, col);
    if (at >= 0) {
      entries_[static_cast<std::size_t>(at)].pick = pick;
      return;
    }
    at = static_cast<std::int32_t>(entries_.size());
    entries_.push_back({lane, row, col, pick});
  }

  const Pick* find(std::int64_t lane, std::int64_t row, std::int64_t col) {
    std::int32_t at = cell_of(lane, row, col);
    return at < 0 ? nullptr : &entries_[static_cast<std::size_t>(at)].pick;
  }

 private:
  struct Entry {
    std::int64_t lane, row, col;
    Pick pick;
  };

  // The table cell holding the key's entry index, or the empty cell (-1) where it would go.
  std::int32_t& cell_of(std::int64_t lane, std::int64_t row, std::int64_t col) {
    std::uint64_t hash = static_cast<std::uint64_t>(lane) * 0x9E3779B97F4A7C15ULL;
    hash ^= static_cast<std::uint64_t>(row) * 0xC2B2AE3D27D4EB4FULL + (hash >> 29);
    hash ^= static_cast<std::uint64_t>(col) * 0x165667B19E3779F9ULL + (hash >> 31);
    std::size_t mask = cells_.size() - 1;
    for (std::size_t i = (hash ^ (hash >> 32)) & mask;; i = (i + 1) & mask) {
      std::int32_t& at = cells_[i];
      if (at < 0) return at;
      const Entry& e = entries_[static_cast<std::size_t>(at)];
      if (e.lane == lane && e.row == row && e.col == col) return at;
    }
  }

  std::vector<std::int32_t> cells_;
  std::vector<Entry> entries_;
};

// The plan itself, made every time (plan_chain consults its per-thread table first).
std::optional<ChainPlan> plan_uncached(const arch::MmaOp& first, std::int64_t reps, const arch::MmaOp& next,
                                       std::string_view operand) {
  bool is_b = operand == "b";
  if (first.wave_size != next.wave_size) return std::nullopt;
  std::int64_t chained = is_b ? first.m : first.n;  // the C extent along the chained dimension
  std::int64_t other = is_b ? next.n : next.m;
  if (other != (is_b ? first.n : first.m) || (reps * chained) % next.k != 0) return std::nullopt;
  // (lane, row, col) of the C tile -> (rep, slot)
  TileSource source(static_cast<std::size_t>(std::max<std::int64_t>(0, reps) * first.wave_size * first.c.length));
  for (std::int64_t rep = 0; rep < reps; ++rep) {
    for (std::int64_t lane = 0; lane < first.wave_size; ++lane) {
      for (std::int64_t slot = 0; slot < first.c.length; ++slot) {
        auto [row, col] = first.c.coords(lane, slot);
        if (is_b) {
          row += rep * chained;
        } else {
          col += rep * chained;
        }
        source.set(lane, row, col, {rep, slot});
      }
    }
  }
  const arch::MmaOperand& dest = next.operand(operand);
  std::int64_t steps = reps * chained / next.k;
  std::vector<std::vector<Pick>> picks;
  for (std::int64_t step = 0; step < steps; ++step) {
    std::vector<Pick> row_picks;
    for (std::int64_t slot = 0; slot < dest.length; ++slot) {
      std::optional<Pick> pick;
      for (std::int64_t lane = 0; lane < next.wave_size; ++lane) {
        auto [row, col] = dest.coords(lane, slot);
        if (is_b) {
          row += step * next.k;
        } else {
          col += step * next.k;
        }
        const Pick* found = source.find(lane, row, col);
        if (found == nullptr || (pick && *found != *pick)) return std::nullopt;
        pick = *found;
      }
      row_picks.push_back(*pick);
    }
    picks.push_back(std::move(row_picks));
  }
  return ChainPlan{std::string(operand), steps, std::move(picks)};
}

}  // namespace

std::optional<ChainPlan> plan_chain(const arch::MmaOp& first, std::int64_t reps, const arch::MmaOp& next,
                                    std::string_view operand) {
  if (operand != "a" && operand != "b") {
    throw ValueError(util::cat("unknown chained operand '", operand, "'; expected one of: a, b"));
  }
  // A plan depends on the two ops' layouts, reps and the operand only, and takes reps x wave x
  // slots lookups: a plan of two catalog rows (which never change) is made once per thread (every
  // attention config plans its op's chain).
  if (!arch::is_catalog_row(first) || !arch::is_catalog_row(next)) return plan_uncached(first, reps, next, operand);
  using Key = std::tuple<const arch::MmaOp*, std::int64_t, const arch::MmaOp*, bool>;
  thread_local std::map<Key, std::optional<ChainPlan>> plans;
  Key key{&first, reps, &next, operand == "b"};
  auto found = plans.find(key);
  if (found == plans.end()) found = plans.emplace(key, plan_uncached(first, reps, next, operand)).first;
  return found->second;
}

ir::Value* chain_fragment(ir::Builder& b, const ChainPlan& plan, std::int64_t step,
                          const std::vector<ir::Values>& values, ir::Type elem, ir::Hint name) {
  const auto& picks = plan.picks[static_cast<std::size_t>(step)];
  auto count = static_cast<std::int64_t>(picks.size());
  ir::Value* frag = b.splat(b.const_(0.0, elem), count);
  for (std::int64_t slot = 0; slot < count; ++slot) {
    auto [rep, source] = picks[static_cast<std::size_t>(slot)];
    ir::Value* element = values[static_cast<std::size_t>(rep)][static_cast<std::size_t>(source)];
    frag = b.insert(frag, element, slot, slot == count - 1 ? name : ir::Hint{});
  }
  return frag;
}

}  // namespace rocke::helpers
