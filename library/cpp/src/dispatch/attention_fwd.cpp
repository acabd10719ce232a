// Python twin: rocke_library/dispatch/attention_fwd.py
#include "rocke_library/dispatch/attention_fwd.hpp"

#include <algorithm>

#include "rocke/errors.hpp"

namespace rocke::library::dispatch {

std::int64_t clamped_product(const std::vector<const std::int64_t*>& factors) {
  std::int64_t product = 1;
  for (const std::int64_t* factor : factors) {
    if (factor == nullptr || *factor < 0 || *factor > kMaxSize) return 0;
    product = std::min(product * *factor, kMaxSize + 1);  // both at most 2^31: no overflow
  }
  return product;
}

std::int64_t AttentionFields::stride(std::string_view tensor, std::string_view dim) const {
  const std::int64_t* table[4][3] = {{&q_stride_b, &q_stride_s, &q_stride_h},
                                     {&k_stride_b, &k_stride_s, &k_stride_h},
                                     {&v_stride_b, &v_stride_s, &v_stride_h},
                                     {&o_stride_b, &o_stride_s, &o_stride_h}};
  std::size_t t = static_cast<std::size_t>(std::find(kTensors.begin(), kTensors.end(), tensor) -
                                           kTensors.begin());
  std::size_t d = static_cast<std::size_t>(std::find(kStrideDims.begin(), kStrideDims.end(), dim) - kStrideDims.begin());
  if (t >= 4 || d >= 3) throw ValueError(util::cat("no stride ", tensor, "_stride_", dim));
  return *table[t][d];
}

bool AttentionFields::dead() const {
  std::int64_t rows = seq_mode == "batched" ? batch * seqlen_q : total_q;
  return rows == 0 || batch == 0;
}

families::KvValues attention_defaults(const families::KvValues& given) {
  families::KvValues out = {{"align", std::int64_t{16}}, {"mask", std::string("none")},
                            {"seq_mode", std::string("batched")}};
  auto mode = given.find("seq_mode");
  bool batched = mode == given.end() || mode->second == families::FieldValue(std::string("batched"));
  if (batched) {
    const std::pair<std::string_view, std::string_view> totals[] = {{"total_q", "seqlen_q"}, {"total_k", "seqlen_k"}};
    for (const auto& [total, seqlen] : totals) {
      if (given.find("batch") != given.end() && given.find(seqlen) != given.end()) {
        out[std::string(total)] = clamped_product({given_int(given, "batch"), given_int(given, seqlen)});
      }
    }
  }
  if (given.find("head_dim") == given.end()) return out;
  const std::int64_t* d = given_int(given, "head_dim");
  for (std::string_view tensor : kTensors) {
    bool kv = tensor == "k" || tensor == "v";
    bool has_heads = given.find(kv ? "heads_kv" : "heads_q") != given.end();
    bool has_seqlen = given.find(kv ? "seqlen_k" : "seqlen_q") != given.end();
    const std::int64_t* heads = given_int(given, kv ? "heads_kv" : "heads_q");
    const std::int64_t* seqlen = given_int(given, kv ? "seqlen_k" : "seqlen_q");
    out[util::cat(tensor, "_stride_h")] = clamped_product({d});
    if (has_heads) {
      out[util::cat(tensor, "_stride_s")] = clamped_product({heads, d});
      if (!batched) {
        out[util::cat(tensor, "_stride_b")] = std::int64_t{0};
      } else if (has_seqlen) {
        out[util::cat(tensor, "_stride_b")] = clamped_product({seqlen, heads, d});
      }
    }
  }
  return out;
}

}  // namespace rocke::library::dispatch
