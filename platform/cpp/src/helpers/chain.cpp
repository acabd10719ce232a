// Python twin: rocke/helpers/chain.py
#include "rocke/helpers/chain.hpp"

#include <map>
#include <tuple>

#include "rocke/errors.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::helpers {

std::optional<ChainPlan> plan_chain(const arch::MmaOp& first, std::int64_t reps, const arch::MmaOp& next,
                                    std::string_view operand) {
  if (operand != "a" && operand != "b") {
    throw ValueError(util::cat("unknown chained operand '", operand, "'; expected one of: a, b"));
  }
  bool is_b = operand == "b";
  if (first.wave_size != next.wave_size) return std::nullopt;
  std::int64_t chained = is_b ? first.m : first.n;  // the C extent along the chained dimension
  std::int64_t other = is_b ? next.n : next.m;
  if (other != (is_b ? first.n : first.m) || (reps * chained) % next.k != 0) return std::nullopt;
  using Pick = std::pair<std::int64_t, std::int64_t>;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, Pick> source;  // (lane, row, col) -> (rep, slot)
  for (std::int64_t rep = 0; rep < reps; ++rep) {
    for (std::int64_t lane = 0; lane < first.wave_size; ++lane) {
      for (std::int64_t slot = 0; slot < first.c.length; ++slot) {
        auto [row, col] = first.c.coords(lane, slot);
        if (is_b) {
          row += rep * chained;
        } else {
          col += rep * chained;
        }
        source[{lane, row, col}] = {rep, slot};
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
        auto found = source.find({lane, row, col});
        if (found == source.end() || (pick && found->second != *pick)) return std::nullopt;
        pick = found->second;
      }
      row_picks.push_back(*pick);
    }
    picks.push_back(std::move(row_picks));
  }
  return ChainPlan{std::string(operand), steps, std::move(picks)};
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
