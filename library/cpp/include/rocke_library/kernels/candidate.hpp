// rocKE library: what a family's dispatch hook returns -- its candidates for one problem, in order.
// Python twin: rocke_library/kernels/candidate.py
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/families/launch.hpp"
#include "rocke/families/spec.hpp"

namespace rocke::library::kernels {

// One candidate: the family, its spec's kv text and the contract's problem sizes; or, when the
// hook already rejects it, no spec and the reason codes (with a detail). `then`: the launches of
// the same family that follow it in the plan, each checked like the first. A launch set (the
// attention backward): parts lists (family, spec kv) of every launch in order, spec is empty and
// sizes is the problem its plan assembler takes.
struct Candidate {
  std::string family;
  std::string spec;
  families::ProblemSizes sizes;
  std::vector<std::string> reasons;
  std::string detail;
  std::vector<Candidate> then{};
  std::vector<std::pair<std::string, std::string>> parts = {};
};

// The widest access (1, 2, 4 or 8 elements of esize bytes, at most 16 bytes) that divides a
// contiguous run of `run` elements and whose bytes divide the alignment `align`.
std::int64_t vector_width(std::int64_t esize, std::int64_t run, std::int64_t align);

// Canonical spec text of the given fields (keys sorted; bools as 0/1).
std::string spec_kv(const families::KvValues& fields);

}  // namespace rocke::library::kernels
