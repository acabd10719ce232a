// rocKE C++ engine: the MMA catalog (the generated twin of data/mma.toml) and its queries.
// Python twin: rocke/arch/mma.py
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "rocke/arch/layout_expr.hpp"
#include "rocke/arch/target.hpp"
#include "rocke/ir/types.hpp"
#include "rocke/util/strings.hpp"

namespace rocke::arch {

// An immediate passed to the intrinsic after A, B and C (e.g. MFMA cbsz/abid/blgp).
struct ImmOperand {
  std::string name;
  std::string type;
  std::int64_t value = 0;
  std::string llvm_text() const { return type + " " + std::to_string(value); }
};

// One operand fragment: length slots per lane, laid out over a rows x cols tile.
struct MmaOperand {
  std::string name;       // "a", "b" or "c" (C and D share one layout)
  std::string dtype;      // rocke IR element type
  std::int64_t length = 0;
  std::int64_t parts = 1;  // LLVM arguments the fragment is passed as: 1 = one vector, else parts llvm_elem values
  std::string llvm_elem;  // element type of the intrinsic's vector (i16 for gfx942 bf16), or each part's type
  std::int64_t replication = 0;
  std::string row;
  std::string col;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  LayoutExpr row_expr;
  LayoutExpr col_expr;

  std::string ir_type_text() const { return util::cat("vec<", dtype, "x", std::to_string(length), ">"); }
  // The LLVM type of the whole fragment as the intrinsic sees it: the vector "<4 x i16>" (one part)
  // or the struct "{ float, float, float, float }" (a result in parts).
  std::string llvm_type() const {
    if (parts == 1) return util::cat("<", std::to_string(length), " x ", llvm_elem, ">");
    std::string out = "{ ";
    for (std::int64_t i = 0; i < parts; ++i) out.append(i == 0 ? "" : ", ").append(llvm_elem);
    return out.append(" }");
  }
  // The intrinsic's argument types for this operand: the vector, or one per part.
  std::vector<std::string> llvm_arg_types() const {
    if (parts == 1) return {llvm_type()};
    return std::vector<std::string>(static_cast<std::size_t>(parts), llvm_elem);
  }
  // (row, col) of the tile element held in slot of lane.
  std::pair<std::int64_t, std::int64_t> coords(std::int64_t lane, std::int64_t slot) const {
    return {row_expr(lane, slot), col_expr(lane, slot)};
  }
};

// One catalog entry: D[m x n] = A[m x k] * B[k x n] + C[m x n] over one wave.
struct MmaOp {
  std::string id;
  std::string kind;
  std::vector<std::string> archs;
  std::int64_t wave_size = 0;
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  std::string intrinsic;
  std::string mnemonic;
  std::vector<ImmOperand> imm_operands;
  std::string source;
  std::string layout_source;
  MmaOperand a;
  MmaOperand b;
  MmaOperand c;
  // (a, b, c) fragment types: vec<dtype x length> of each operand, made once by the catalog reader
  // (the verifier asks for them at every MMA op).
  std::array<ir::Type, 3> fragments{};

  const std::string& a_dtype() const { return a.dtype; }
  const std::string& b_dtype() const { return b.dtype; }
  const std::string& acc_dtype() const { return c.dtype; }
  const MmaOperand& operand(std::string_view name) const;  // ValueError for other names
  // (return type, argument types) of the intrinsic, as LLVM IR text.
  std::pair<std::string, std::vector<std::string>> llvm_call_types() const;
  // rocke.ir types of the A, B and C/D fragments.
  std::array<ir::Type, 3> fragment_types() const { return fragments; }
};

// Every op, in catalog order.
const std::vector<MmaOp>& mma_catalog();
// The op called op_id, or nullptr.
const MmaOp* find_mma_op(std::string_view op_id);
// The op called op_id; UnknownMmaOpError lists the known ids otherwise.
const MmaOp& mma_op(std::string_view op_id);
// Whether op is the catalog's own row of its id (never changed once read), not a copy or a made-up
// op: what a per-thread plan memo may key by address.
bool is_catalog_row(const MmaOp& op);

// Filters of mma_ops and largest_k; an unset filter matches anything.
struct MmaFilter {
  std::optional<std::string> arch = std::nullopt;  // an arch name (UnknownArchError otherwise)
  std::optional<std::string> a_dtype = std::nullopt;
  std::optional<std::string> b_dtype = std::nullopt;
  std::optional<std::string> acc_dtype = std::nullopt;
  std::optional<std::int64_t> m = std::nullopt;
  std::optional<std::int64_t> n = std::nullopt;
};

// Catalog ops matching every given filter, in catalog order; a dtype filter naming no IR scalar
// type is a ValueError.
std::vector<const MmaOp*> mma_ops(const MmaFilter& filter = {});
// Among the ops of arch with these dtypes (and m, n when given), the one with the largest k (the
// first in catalog order on a tie), or nullptr when nothing matches.
const MmaOp* largest_k(const std::string& arch, const std::string& a_dtype, const std::string& b_dtype,
                       const std::string& acc_dtype, std::optional<std::int64_t> m = std::nullopt,
                       std::optional<std::int64_t> n = std::nullopt);
// Every (lane, slot, row, col) of one operand fragment, lanes outer and slots inner.
std::vector<std::array<std::int64_t, 4>> operand_layout(std::string_view op_id, std::string_view operand);

}  // namespace rocke::arch
