// rocKE C++ engine: the intrinsic table (data/intrinsics.toml + the MMA catalog) and the
// sync.waitcnt encodings.
// Python twin: rocke/arch/intrinsics.py
//
// Table order: the [[intrinsic]] rows of intrinsics.toml in file order, then the MMA catalog's
// intrinsics in catalog order. A row may be overloaded on a float type ("{T}" in its types, "{M}"
// in its name); instantiate() fills those in and applies a flavor's declaration override.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocke::arch {

inline constexpr std::string_view kImmarg = " immarg";

// One row of the full intrinsic table (index = its position, which orders declarations).
struct IntrinsicDef {
  std::int64_t index = 0;
  std::string name;  // with "{M}" when overloaded
  std::string ret;   // with "{T}" when overloaded
  std::vector<std::string> params;
  std::string overload;   // "" or "float"
  std::string mma_op_id;  // "" for rows of intrinsics.toml
};

// A concrete declaration: overload filled in, flavor override applied.
struct IntrinsicDecl {
  std::int64_t index = 0;
  std::string name;
  std::string ret;
  std::vector<std::string> params;
  std::string domain_key;  // the name whose arch-domain entry covers this declaration
  // arg_types() and text(), filled in by instantiate() (read for every call and module).
  std::vector<std::string> call_types;
  std::string declaration;

  // declare RET @NAME(P1, P2, ...)
  const std::string& text() const { return declaration; }
  // Parameter types as a call site writes them (without immarg).
  const std::vector<std::string>& arg_types() const { return call_types; }
};

struct WaitcntWait {
  std::string attr;
  std::string counter;
  std::string intrinsic;
};

struct WaitcntField {
  std::string counter;
  std::int64_t value_shift = 0;
  std::int64_t bits = 0;
  std::int64_t imm_shift = 0;
};

struct WaitcntEncoding {
  std::string model;
  std::string form;  // "packed" or "split"
  std::string intrinsic;
  std::vector<WaitcntWait> waits;
  std::vector<WaitcntField> fields;
};

// INTRINSICS, in table order.
const std::vector<IntrinsicDef>& intrinsics();
// WAITCNT_ENCODINGS, in file order.
const std::vector<WaitcntEncoding>& waitcnt_encodings();

// The row called name (overloaded rows by their "{M}" name); ValueError otherwise.
const IntrinsicDef& intrinsic_def(std::string_view name);
// The row of MMA op op_id; ValueError otherwise.
const IntrinsicDef& mma_intrinsic_def(std::string_view op_id);
// The encoding of a waitcnt model; ValueError otherwise.
const WaitcntEncoding& waitcnt_encoding(std::string_view model);

// The declaration of row for flavor; an overloaded row needs its element type (and lanes, 0 for a
// scalar). The arch-domain key of a vector instantiation is the scalar one.
IntrinsicDecl instantiate(const IntrinsicDef& row, std::string_view flavor, std::string_view elem = "",
                          std::int64_t lanes = 0);

}  // namespace rocke::arch
