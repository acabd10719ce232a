// rocKE C++ engine: chained MMAs -- the C/D fragments of one MMA fed to the next MMA as its A or B
// operand, through registers, when the catalog's layouts put every element of the next operand in
// the lane that already holds it.
// Python twin: rocke/helpers/chain.py
//
// The first MMA's C tile spans reps atoms along the chained dimension: its rows when the next
// operand is B (the rows of B are the next op's k), its columns when the next operand is A. Those
// reps * atom elements split into steps of the next op's k. For every step and slot of the next
// operand, plan_chain looks for the (rep, C slot) holding the same tile element in the same lane,
// the same for every lane; when one slot has none (e.g. an operand the catalog replicates across
// lanes, as gfx11 WMMA does) there is no register path and the caller goes through LDS.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

inline constexpr std::array<std::string_view, 2> kChainOperands = {"a", "b"};

// picks[step][slot] = (rep, C slot) of the element the next operand's slot takes.
struct ChainPlan {
  std::string operand;  // "a" or "b": which operand of the next MMA the C fragments become
  std::int64_t steps = 0;  // next-op k steps covered by the reps
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> picks;
};

// The register path from reps C fragments of first (consecutive atoms along the chained dimension)
// to operand `operand` of next; nullopt when the layouts do not allow one. ValueError for an
// operand other than "a" or "b".
std::optional<ChainPlan> plan_chain(const arch::MmaOp& first, std::int64_t reps, const arch::MmaOp& next,
                                    std::string_view operand);

// The next operand's fragment of step: values[rep][slot] are the C elements, already in the next
// operand's element type elem.
ir::Value* chain_fragment(ir::Builder& b, const ChainPlan& plan, std::int64_t step,
                          const std::vector<ir::Values>& values, ir::Type elem, ir::Hint name = {});

}  // namespace rocke::helpers
