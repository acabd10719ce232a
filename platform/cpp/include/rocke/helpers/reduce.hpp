// rocKE C++ engine: reductions across lanes (shuffle-xor butterflies) and across the waves of a
// workgroup (LDS).
// Python twin: rocke/helpers/reduce.py
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

inline constexpr std::array<std::string_view, 2> kReduceKinds = {"add", "max"};

// x + y or max(x, y) for f32 or i32 scalars.
ir::Value* combine(ir::Builder& b, std::string_view kind, ir::Value* x, ir::Value* y, ir::Hint name = {});
// Reduce x (f32 or i32) over aligned groups of `width` lanes (a power of two, at least 2 and at
// most the wave size); every lane of a group gets the group's result.
ir::Value* wave_reduce(ir::Builder& b, ir::Value* x, std::string_view kind, std::int64_t width, ir::Hint name = {});
// Reduce x over a workgroup of `waves` waves; every lane gets the result. partials is an LDS
// allocation of at least `waves` elements of x's type. Ends with a barrier, so partials may be
// reused right after.
ir::Value* block_reduce(ir::Builder& b, ir::Value* x, std::string_view kind, ir::Value* partials,
                        std::int64_t wave_size, std::int64_t waves, ir::Hint name = {});

}  // namespace rocke::helpers
