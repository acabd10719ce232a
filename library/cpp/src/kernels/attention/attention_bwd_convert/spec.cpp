// Python twin: rocke_library/kernels/attention/attention_bwd_convert/spec.py
#include "rocke_library/kernels/attention/attention_bwd_convert/spec.hpp"

#include <algorithm>

#include "rocke/util/strings.hpp"

namespace rocke::library::kernels::attention::attention_bwd_convert {

using families::Field;
using S = AttentionBwdConvertSpec;

const std::vector<Field<S>>& S::fields() {
  static const std::vector<Field<S>> list = {
      {"block", &S::block},       {"dkv_mode", &S::dkv_mode}, {"dq_mode", &S::dq_mode}, {"dtype", &S::dtype},
      {"head_dim", &S::head_dim}, {"seq_mode", &S::seq_mode}, {"vec", &S::vec},
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
  if (!contains(kDqModes, dq_mode)) fail("dq_mode", cat("must be one of ", util::join(kDqModes, ", ")));
  if (!contains(kDkvModes, dkv_mode)) fail("dkv_mode", cat("must be one of ", util::join(kDkvModes, ", ")));
  if (dq_mode == "split" && dkv_mode == "direct") {
    fail("dkv_mode", "with dq_mode=split there is nothing to convert (use atomic or split)");
  }
  families::check_vec(*this);
  std::int64_t most = families::kMaxAccessBytes / 4;
  if (vec > most) {
    fail("vec", cat("one f32 workspace access holds at most ", std::to_string(most), " elements (",
                    std::to_string(families::kMaxAccessBytes), " bytes)"));
  }
  families::check_threads(*this, "block", block);
}

std::vector<std::string> S::tensors() const {
  std::vector<std::string> out;
  if (dq_mode == "atomic") out.emplace_back("dq");
  if (dkv_mode != "direct") {
    out.emplace_back("dk");
    out.emplace_back("dv");
  }
  return out;
}

}  // namespace rocke::library::kernels::attention::attention_bwd_convert
