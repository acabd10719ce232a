// Python twin: rocke_library/kernels/attention/attention_bwd_main/spec.py
#include "rocke_library/kernels/attention/attention_bwd_main/spec.hpp"

#include <algorithm>

#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::attention::attention_bwd_main {

using families::Field;
using S = AttentionBwdMainSpec;

const std::vector<Field<S>>& S::fields() {
  static const std::vector<Field<S>> list = {
      {"block_m", &S::block_m},   {"block_n", &S::block_n},   {"d_chunk", &S::d_chunk}, {"dkv_mode", &S::dkv_mode},
      {"dq_mode", &S::dq_mode},   {"dtype", &S::dtype},       {"head_dim", &S::head_dim}, {"lds_pad", &S::lds_pad},
      {"mask", &S::mask},         {"op_id", &S::op_id},       {"seq_mode", &S::seq_mode}, {"waves", &S::waves},
  };
  return list;
}

namespace {

template <class List, class T>
bool contains(const List& list, const T& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

void S::check() const {
  using std::to_string;
  using util::cat;
  if (!contains(kInputDtypes, dtype)) fail("dtype", cat("must be one of ", util::join(kInputDtypes, ", ")));
  if (!contains(kHeadDims, head_dim)) {
    std::vector<std::string> dims;
    for (std::int64_t d : kHeadDims) dims.push_back(to_string(d));
    fail("head_dim", cat("must be one of ", util::join(dims, ", ")));
  }
  if (!contains(kMasks, mask)) fail("mask", cat("must be one of ", util::join(kMasks, ", ")));
  if (!contains(kSeqModes, seq_mode)) fail("seq_mode", cat("must be one of ", util::join(kSeqModes, ", ")));
  if (!contains(kDqModes, dq_mode)) fail("dq_mode", cat("must be one of ", util::join(kDqModes, ", ")));
  if (!contains(kDkvModes, dkv_mode)) fail("dkv_mode", cat("must be one of ", util::join(kDkvModes, ", ")));
  const arch::MmaOp& op = families::check_mma_atom(*this, "dtype", dtype);
  if (waves < 1 || waves > kMaxWaves) fail("waves", cat("must be in 1..", to_string(kMaxWaves)));
  if (block_m < 1 || block_m > kMaxBlockM) fail("block_m", cat("must be in 1..", to_string(kMaxBlockM)));
  if (block_n < 1 || block_n > kMaxBlockN) fail("block_n", cat("must be in 1..", to_string(kMaxBlockN)));
  if (block_n % (waves * op.n) != 0 || (block_n / waves) % op.k != 0) {
    fail("block_n", cat("must be a multiple of waves * atom n = ", to_string(waves), " * ", to_string(op.n),
                        " with block_n / waves a multiple of atom k = ", to_string(op.k), " (", op.id, ")"));
  }
  if (block_m % op.m != 0 || block_m % op.k != 0) {
    fail("block_m", cat("must be a multiple of atom m = ", to_string(op.m), " and atom k = ", to_string(op.k), " (",
                        op.id, ")"));
  }
  if (head_dim % op.m != 0 || head_dim % op.k != 0) {
    fail("head_dim", cat("must be a multiple of atom m = ", to_string(op.m), " and atom k = ", to_string(op.k), " (",
                         op.id, ")"));
  }
  if (!contains(kDChunks, d_chunk)) {
    std::vector<std::string> chunks;
    for (std::int64_t d : kDChunks) chunks.push_back(to_string(d));
    fail("d_chunk", cat("must be one of ", util::join(chunks, ", ")));
  }
  if (head_dim % d_chunk != 0) fail("d_chunk", cat("must divide head_dim = ", to_string(head_dim)));
  if (d_chunk % op.m != 0) fail("d_chunk", cat("must be a multiple of atom m = ", to_string(op.m), " (", op.id, ")"));
  if (lds_pad < 0 || lds_pad > kMaxLdsPad) fail("lds_pad", cat("must be in 0..", to_string(kMaxLdsPad)));
}

}  // namespace rocke::library::kernels::attention::attention_bwd_main
