// Python twin: rocke_library/kernels/attention/attention_bwd_prep/spec.py
#include "rocke_library/kernels/attention/attention_bwd_prep/spec.hpp"

#include <algorithm>

#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::attention::attention_bwd_prep {

using families::Field;
using S = AttentionBwdPrepSpec;

const std::vector<Field<S>>& S::fields() {
  static const std::vector<Field<S>> list = {
      {"block", &S::block},       {"dtype", &S::dtype}, {"head_dim", &S::head_dim},
      {"seq_mode", &S::seq_mode}, {"vec", &S::vec},
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
  using util::cat;
  if (!contains(kInputDtypes, dtype)) fail("dtype", cat("must be one of ", util::join(kInputDtypes, ", ")));
  if (!contains(kHeadDims, head_dim)) {
    std::vector<std::string> dims;
    for (std::int64_t d : kHeadDims) dims.push_back(std::to_string(d));
    fail("head_dim", cat("must be one of ", util::join(dims, ", ")));
  }
  if (!contains(kSeqModes, seq_mode)) fail("seq_mode", cat("must be one of ", util::join(kSeqModes, ", ")));
  families::check_vec(*this);
  families::check_threads(*this, "block", block);
}

}  // namespace rocke::library::kernels::attention::attention_bwd_prep
