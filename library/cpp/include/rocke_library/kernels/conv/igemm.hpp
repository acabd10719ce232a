// rocKE library: shared pieces of the implicit-GEMM conv families.
// Python twin: rocke_library/kernels/conv/igemm.py
// The dtype, vector and tile rules of a spec (f16/bf16 inputs, the MMA atom and the tile-GEMM main
// loop's tile: families::check_tile_gemm); the prologue every builder emits before its operands (the
// main loop placed at the workgroup's tile, the group and split-K part of workgroup z, the per-group
// channel counts, the output extents); the buffer resource of a dense NHWC tensor; and the host-side
// sizes of one problem with their launch checks (conv_problem).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/arch/mma.hpp"
#include "rocke/families/launch.hpp"
#include "rocke/families/spec.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/tile_gemm.hpp"
#include "rocke/ir/builder.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/conv/pixels.hpp"
#include "rocke_library/kernels/conv/geometry.hpp"

namespace rocke::library::kernels::conv {

inline constexpr std::array<std::string_view, 2> kInputDtypes = {"f16", "bf16"};

// The rules, in order: dtype, vec (families::check_vec), the atom (check_mma_atom), the tile of the
// main loop (check_tile_gemm); returns the atom. S is a conv spec with the tile fields and Spec::fail.
template <class S>
const arch::MmaOp& check_gemm_tile(const S& spec) {
  if (spec.dtype != kInputDtypes[0] && spec.dtype != kInputDtypes[1]) {
    spec.fail("dtype", util::cat("must be one of ", kInputDtypes[0], ", ", kInputDtypes[1]));
  }
  families::check_vec(spec);
  const arch::MmaOp& op = families::check_mma_atom(spec, "dtype", spec.dtype);
  families::check_tile_gemm(spec, op);
  return op;
}

// The values igemm_prologue emits (part is nullptr without split-K).
struct IgemmPrologue {
  helpers::TileGemm loop;
  ir::Value* row0 = nullptr;
  ir::Value* col0 = nullptr;
  ir::Value* group = nullptr;
  ir::Value* part = nullptr;
  ir::Value* cg = nullptr;
  ir::Value* kg = nullptr;
  ir::Value* ho = nullptr;
  ir::Value* wo = nullptr;
};

// The main loop placed at workgroup (x, y)'s tile, then group = z (split_k 0) or z / split_k with
// part = z % split_k, C / G, K / G and the output extents (Ho, Wo), in that order. S: a conv spec
// with the window fields and bm, bn; P: the family's Params (h, w, c, k, g).
template <class S, class P>
IgemmPrologue igemm_prologue(ir::Builder& b, const S& spec, const helpers::TileGemmPlan& plan, ir::Type elem,
                             const P& params, std::int64_t split_k = 0) {
  helpers::TileGemm loop(b, plan, elem);
  auto [row0, col0] = loop.place_grid(b, spec.bm, spec.bn);
  ir::Value* group = nullptr;
  ir::Value* part = nullptr;
  if (split_k == 0) {
    group = b.block_id_z("group");
  } else {
    ir::Value* z = b.block_id_z("z");
    group = helpers::divu_i32(b, z, split_k, "group");
    part = helpers::remu_i32(b, z, split_k, "part");
  }
  ir::Value* cg = b.divu(params.c, params.g, "cg");
  ir::Value* kg = b.divu(params.k, params.g, "kg");
  auto [ho, wo] = out_dims(b, spec, params.h, params.w);
  return IgemmPrologue{.loop = std::move(loop), .row0 = row0, .col0 = col0, .group = group, .part = part,
                       .cg = cg, .kg = kg, .ho = ho, .wo = wo};
}

// The buffer resource over a dense n x h x w x c tensor (dims) of esize-byte elements at base.
ir::Value* nhwc_rsrc(ir::Builder& b, ir::Value* base, const std::array<ir::Value*, 4>& dims, std::int64_t esize,
                     ir::Hint name);

}  // namespace rocke::library::kernels::conv

// ---- host-side sizes of one NHWC x KYXC problem (Python: igemm.ConvProblem, conv_problem) ----

namespace rocke::library::kernels::conv {

inline const std::vector<std::string_view> kProblemKeys = {"n", "h", "w", "c", "k", "g"};

// x is n x h x w x c, w is k x Y x X x c/g, y (and dy) n x ho x wo x k, g groups.
struct ConvProblem {
  std::int64_t n = 0, h = 0, w = 0, c = 0, k = 0, g = 0, ho = 0, wo = 0;
  std::int64_t cg() const { return c / g; }
  std::int64_t kg() const { return k / g; }
  // The problem keys and values (LaunchContract.problem).
  families::ProblemSizes sizes() const { return {{"c", c}, {"g", g}, {"h", h}, {"k", k}, {"n", n}, {"w", w}}; }
  std::int64_t get(std::string_view key) const {
    return key == "n" ? n : key == "h" ? h : key == "w" ? w : key == "c" ? c : key == "k" ? k : g;
  }
};

// The sizes of problem (exactly kProblemKeys), or LaunchError: c and k multiples of g, both per-group
// channel counts multiples of vec, and an input at least as large as the filter window.
template <class S>
ConvProblem conv_problem(std::string_view family, const S& spec, std::int64_t vec, const families::ProblemSizes& problem) {
  using util::cat;
  std::vector<std::int64_t> s = families::problem_sizes(family, problem, kProblemKeys);
  ConvProblem p{s[0], s[1], s[2], s[3], s[4], s[5], 0, 0};
  if (p.c % p.g != 0) {
    throw families::LaunchError(cat(family, ": c=", std::to_string(p.c), " is not a multiple of g=", std::to_string(p.g)));
  }
  if (p.k % p.g != 0) {
    throw families::LaunchError(cat(family, ": k=", std::to_string(p.k), " is not a multiple of g=", std::to_string(p.g)));
  }
  const std::pair<std::string_view, std::int64_t> per_group[] = {{"c/g", p.cg()}, {"k/g", p.kg()}};
  for (const auto& [name, size] : per_group) {
    if (size % vec != 0) {
      throw families::LaunchError(cat(family, ": ", name, "=", std::to_string(size), " is not a multiple of vec=",
                                      std::to_string(vec)));
    }
  }
  p.ho = output_size(p.h, spec.filter_y, spec.stride_h, spec.pad_h, spec.dil_h);
  p.wo = output_size(p.w, spec.filter_x, spec.stride_w, spec.pad_w, spec.dil_w);
  if (p.ho < 1 || p.wo < 1) {
    throw families::LaunchError(cat(family, ": a ", std::to_string(p.h), " x ", std::to_string(p.w), " input padded by ",
                                    std::to_string(spec.pad_h), ", ", std::to_string(spec.pad_w),
                                    " is smaller than the filter window"));
  }
  return p;
}

}  // namespace rocke::library::kernels::conv
