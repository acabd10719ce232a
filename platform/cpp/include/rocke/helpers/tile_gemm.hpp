// rocKE C++ engine: the tile-GEMM main loop, C[bm x bn] += A[bm x K] @ B[K x bn] per workgroup on
// MMA atoms, with the global side of each operand supplied by an operand address generator.
// Python twin: rocke/helpers/tile_gemm.py (class for class, same op order and hints)
//
// A workgroup owns a bm x bn tile of C; wave w owns the sub-tile at (w / wn, w % wn) and
// accumulates rep_m x rep_n MMA atoms in f32. Per K tile of bk: every thread copies its share of A
// and B into LDS with bounds-checked buffer loads (out-of-range or masked elements read 0), a
// barrier, then each wave loads its fragments from LDS and issues the MMAs. With double_buffer the
// copy of tile t + 1 goes to the other LDS stage while the MMAs read tile t. The accumulators then
// go to the caller's epilogue.
//
// LDS holds A as [bm][bk + lds_pad] and B as [bn][bk + lds_pad] (k contiguous for both), in 1 or 2
// stages. Copies read vectors along each operand's contiguous dimension: k when the operand is
// k-contiguous (vector LDS stores), the outer dimension otherwise (one LDS store per element).
//
// An OperandAddress says where a thread's access lives in global memory: setup(b, outer, k) runs
// once per access before the K loop with the access's tile-local outer and k index, address(b,
// state, k0) returns for the K tile at k0 (nullptr: the first) the element index of the access's
// first element and its valid count (elements j >= valid read 0; the vector runs along k for a
// k-contiguous operand, along the outer dimension otherwise). MatrixOperand is a dense strided
// matrix (gemm's A and B); implicit-GEMM convolutions bring their own.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "rocke/arch/mma.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/helpers/layout.hpp"
#include "rocke/helpers/lds.hpp"
#include "rocke/helpers/mma_frag.hpp"
#include "rocke/helpers/tiles.hpp"
#include "rocke/ir/builder.hpp"

namespace rocke::helpers {

inline constexpr std::int64_t kMaxLdsAllocElems = 65536;  // mem.lds_alloc count limit

// Spec::fail: throws SpecError("kFamily: FIELD=VALUE: RULE"), never returns.
using Fail = std::function<void(std::string_view, std::string_view)>;

// The tile fields of a spec: the workgroup tile bm x bn x bk, the wm x wn wave grid, the MMA atom,
// the LDS line padding and staging, the input dtype, each operand's global contiguity and the
// widest copy vector (elements) each operand's generator accepts.
struct TileShape {
  std::int64_t bm = 0;
  std::int64_t bn = 0;
  std::int64_t bk = 0;
  std::int64_t wm = 0;
  std::int64_t wn = 0;
  std::int64_t lds_pad = 0;
  bool double_buffer = false;
  std::string dtype;
  const arch::MmaOp* op = nullptr;
  bool a_k_contiguous = false;
  bool b_k_contiguous = false;
  std::int64_t a_max_vec = 8;
  std::int64_t b_max_vec = 8;
};

// Staging of one input operand (A or B) through LDS.
struct OperandPlan {
  std::string name;           // "a" or "b"
  bool k_contiguous = false;  // the global layout puts consecutive k next to each other
  PaddedTile tile;            // [outer = bm or bn][bk + pad]
  TileSplit split;            // the copy: k-contiguous: bm lines of bk; else bk lines of bm
  FragmentPlan frag;
};

struct TileGemmPlan {
  const arch::MmaOp* op = nullptr;
  std::int64_t threads = 0;
  std::int64_t bk = 0;
  std::int64_t wn = 0;
  std::int64_t rep_m = 0;  // atoms per wave along m
  std::int64_t rep_n = 0;
  std::int64_t wave_tile_m = 0;  // bm / wm
  std::int64_t wave_tile_n = 0;
  std::int64_t stages = 0;
  OperandPlan a;
  OperandPlan b;
  SplitFormula c_row;
  SplitFormula c_col;
  std::int64_t lds_bytes = 0;
};

// The plan of the main loop on target; fail(field, rule) for what the arch refuses, in order: the
// atom's arch, the workgroup size, each operand's copy split and LDS tile, the LDS total, the C
// layout. (The Python twin's test-only transpose_a_frag hook is not twinned.)
TileGemmPlan plan_tile_gemm(const TileShape& shape, const arch::ArchTarget& target, const Fail& fail);

// The global side of one operand: where each thread's copy access reads (header comment).
class OperandAddress {
 public:
  virtual ~OperandAddress() = default;
  // The buffer resource the accesses read through.
  virtual ir::Value* rsrc() const = 0;
  // Per access, once before the K loop: whatever address() needs (tile-local outer and k).
  virtual ir::Values setup(ir::Builder& b, ir::Value* outer, ir::Value* k) const = 0;
  // (element index, valid count) of the access in the K tile starting at k0 (nullptr: the first).
  virtual std::pair<ir::Value*, ir::Value*> address(ir::Builder& b, const ir::Values& state, ir::Value* k0) const = 0;
};

// A dense matrix operand: element (o, k) at base + o * lead + k when k-contiguous, base + k * lead +
// o otherwise; o < outer_size and k < k_size are valid. origin: the workgroup's first outer index;
// lead: the line stride in elements (nullptr: k_size when k-contiguous, outer_size otherwise);
// base: an element offset added to every index (nullptr: 0).
//
// k-contiguous (access = vec consecutive k of one line o):
//     index(k0) = gbase + k0, valid(k0) = line_ok ? kcap - k0 : 0
// outer-contiguous (access = vec consecutive o at one k row kr):
//     index(k0) = (kr + k0) * lead + gbase, valid(k0) = kr + k0 < k_size ? ocap : 0
class MatrixOperand : public OperandAddress {
 public:
  MatrixOperand(std::string name, ir::Value* rsrc, bool k_contiguous, ir::Value* origin, ir::Value* outer_size,
                ir::Value* k_size, ir::Value* lead = nullptr, ir::Value* base = nullptr);
  ir::Value* rsrc() const override { return rsrc_; }
  ir::Values setup(ir::Builder& b, ir::Value* outer, ir::Value* k) const override;
  std::pair<ir::Value*, ir::Value*> address(ir::Builder& b, const ir::Values& state, ir::Value* k0) const override;

 private:
  std::string name_;
  ir::Value* rsrc_;
  bool k_contiguous_;
  ir::Value* origin_;
  ir::Value* outer_size_;
  ir::Value* k_size_;
  ir::Value* lead_;
  ir::Value* base_;
};

// (rn, column slot offset): one of this lane's C columns.
using ColumnKey = std::pair<std::int64_t, std::int64_t>;

// One accumulator element of this lane, as the epilogue visits it: its C row and column, its f32
// value and its column's key (the key of TileAccumulators::column_values).
struct AccElement {
  ir::Value* row = nullptr;
  ir::Value* col = nullptr;
  ir::Value* value = nullptr;
  ColumnKey col_key;

  // row < rows and col < cols (signed compares): the element lies inside a rows x cols C.
  ir::Value* inside(ir::Builder& b, ir::Value* rows, ir::Value* cols) const;
};

using ColumnLoad = std::function<ir::Value*(ir::Value*)>;
using ElementVisit = std::function<void(const AccElement&)>;
using AtomMap = std::function<ir::Value*(ir::Value*)>;

// What the epilogue gets: the f32 accumulators (rep_m * rep_n atoms, index rm * rep_n + rn, each a
// vector of op.c.length slots), this lane, and the wave's first C row and column.
struct TileAccumulators {
  const TileGemmPlan* plan = nullptr;
  ir::Values accs;
  ir::Value* lane = nullptr;
  ir::Value* row_origin = nullptr;
  ir::Value* col_origin = nullptr;

  // (rows per rm, cols per rn) of this lane's slot 0; slot s adds plan->c_row/c_col.slot_offsets[s].
  std::pair<ir::Values, ir::Values> coords(ir::Builder& b) const;
  // load(col) once per column of this lane (cols from coords()), by key, in rn then slot order: a
  // per-column value such as a bias, loaded before the elements are visited.
  std::map<ColumnKey, ir::Value*> column_values(ir::Builder& b, const ir::Values& cols,
                                                const ColumnLoad& load) const;
  // visit(element) for every accumulator element of this lane (rows, cols from coords()), in rm, rn,
  // slot order; atom (empty: none) first maps each atom's accumulator vector (a vector scale).
  void each_element(ir::Builder& b, const ir::Values& rows, const ir::Values& cols, const ElementVisit& visit,
                    const AtomMap& atom = nullptr) const;
};

using Epilogue = std::function<void(const TileAccumulators&)>;

// The main loop, emitted in three calls (so the caller's own values fall in between): the
// constructor allocates the LDS tiles and reads the thread, lane and wave ids; place(b, row0, col0)
// (or place_grid(b, bm, bn)) sets the workgroup's C origin and the wave's; run(b, a, b_, k_size,
// epilogue) sets up the copies, emits the K loop over ceil(k_size / bk) tiles and calls epilogue
// with the accumulators.
class TileGemm {
 public:
  TileGemm(ir::Builder& b, const TileGemmPlan& plan, ir::Type elem);
  // The workgroup's first C row and column; emits the wave's offsets inside the tile.
  void place(ir::Builder& b, ir::Value* row0, ir::Value* col0);
  // place() at workgroup (x, y)'s tile of the bm x bn grid over C (rows y * bm .., columns x * bn ..);
  // returns (row0, col0).
  std::pair<ir::Value*, ir::Value*> place_grid(ir::Builder& b, std::int64_t bm, std::int64_t bn);
  // The copies' setup, the K loop over ceil(k_size / bk) tiles, then epilogue(accumulators).
  void run(ir::Builder& b, const OperandAddress& a, const OperandAddress& b_, ir::Value* k_size,
           const Epilogue& epilogue) const;

  ir::Value* a_lds = nullptr;
  ir::Value* b_lds = nullptr;
  ir::Value* tid = nullptr;
  ir::Value* lane = nullptr;
  ir::Value* wave = nullptr;

 private:
  // Per repeat r: the LDS element index of slot 0 of this lane's fragment in stage 0.
  ir::Values fragment_bases(ir::Builder& b, const OperandPlan& plan, ir::Value* wave_origin, std::int64_t reps,
                            std::int64_t atom) const;
  // Every MMA of one K tile: per atom-k step, load the fragments, then rep_m * rep_n MMAs.
  ir::Values mma_tile(ir::Builder& b, const ir::Values& a_bases, const ir::Values& b_bases, ir::Values accs) const;

  const TileGemmPlan& plan_;
  ir::Type elem_;
  std::int64_t esize_;
  ir::Value* row0_ = nullptr;
  ir::Value* col0_ = nullptr;
  ir::Value* wave_row_ = nullptr;
  ir::Value* wave_col_ = nullptr;
};

}  // namespace rocke::helpers
