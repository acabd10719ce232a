// rocKE C++ engine: authoring helpers shared by kernel builders (platform and library families).
// Python twin: rocke/helpers/__init__.py (every helper keeps its Python name, in namespace
// rocke::helpers)
//
// Every helper emits IR through an ir::Builder and makes its decisions at build time in plain
// code, mirroring its Python twin function for function:
//
//     dtypes    storage dtype names -> IR types, byte sizes, vector types
//     index     i32 index math with host-time folding; host integer facts (ceil_div, alignment)
//     buffers   bounds-checked raw-buffer loads/stores (OOB lanes read 0, stores dropped)
//     fmath     f32 constants, widening/narrowing, activations (silu, gelu_tanh, relu)
//     tiles     splitting a tile over a workgroup's threads for vectorized copies
//     lds       padded, multi-stage LDS tiles
//     layout    MMA layout formulas split into an IR lane part and constant slot offsets
//     mma_frag  MMA fragment plans, vector LDS fragment loads and stores
//     chain     chained MMAs: C fragments re-laid as the next MMA's A or B operand in registers
//     reduce    wave (shuffle-xor) and workgroup (LDS) reductions
//     tile_gemm the tile-GEMM main loop (LDS staging, K loop, MMA grid) over operand address generators
#pragma once

#include "rocke/helpers/buffers.hpp"
#include "rocke/helpers/chain.hpp"
#include "rocke/helpers/dtypes.hpp"
#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/index.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/reduce.hpp"
#include "rocke/helpers/tile_gemm.hpp"
#include "rocke/helpers/tiles.hpp"
