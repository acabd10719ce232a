// Python twin: rocke_library/kernels/attention/common/softmax.py
#include "rocke_library/kernels/attention/common/softmax.hpp"

#include <limits>
#include <map>
#include <set>

#include "rocke/helpers/fmath.hpp"
#include "rocke/helpers/reduce.hpp"

namespace rocke::library::kernels::attention::common {

using helpers::f32_const;
using ir::Value;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

std::vector<std::int64_t> subset_xors(const std::vector<std::int64_t>& masks) {
  std::vector<std::int64_t> values{0};
  for (std::int64_t m : masks) {
    std::size_t count = values.size();
    for (std::size_t i = 0; i < count; ++i) values.push_back(values[i] ^ m);
  }
  return values;
}

// The C coordinate a group shares: a row (S: a query) or a column (S^T: a query).
constexpr int kRow = 0;
constexpr int kCol = 1;

std::int64_t coord(const arch::MmaOperand& c, std::int64_t lane, std::int64_t slot, int axis) {
  auto [row, col] = c.coords(lane, slot);
  return axis == kRow ? row : col;
}

// The group itself, found every time (group consults its per-thread table first).
std::optional<std::vector<std::int64_t>> group_uncached(const arch::MmaOp& op, int axis) {
  const arch::MmaOperand& c = op.c;
  std::vector<std::int64_t> cols;
  for (std::int64_t lane = 0; lane < op.wave_size; ++lane) cols.push_back(coord(c, lane, 0, axis));
  std::vector<std::int64_t> offsets;
  for (std::int64_t s = 0; s < c.length; ++s) offsets.push_back(coord(c, 0, s, axis) - cols[0]);
  for (std::int64_t lane = 0; lane < op.wave_size; ++lane) {
    for (std::int64_t s = 0; s < c.length; ++s) {
      if (coord(c, lane, s, axis) != cols[static_cast<std::size_t>(lane)] + offsets[static_cast<std::size_t>(s)]) {
        return std::nullopt;
      }
    }
  }
  std::set<std::pair<std::int64_t, std::int64_t>> pairs;
  for (std::int64_t col : cols) {
    for (std::int64_t offset : offsets) pairs.emplace(col, offset);
  }
  std::set<std::int64_t> named;
  for (const auto& [col, offset] : pairs) named.insert(col + offset);
  if (named.size() != pairs.size()) return std::nullopt;
  std::vector<std::int64_t> masks;
  for (std::int64_t bit = 1; bit < op.wave_size; bit *= 2) {
    bool same = true;
    for (std::int64_t lane = 0; lane < op.wave_size; ++lane) {
      if (cols[static_cast<std::size_t>(lane ^ bit)] != cols[static_cast<std::size_t>(lane)]) same = false;
    }
    if (same) masks.push_back(bit);
  }
  std::vector<std::int64_t> xors = subset_xors(masks);
  for (std::int64_t lane = 0; lane < op.wave_size; ++lane) {
    std::set<std::int64_t> members;
    for (std::int64_t x : xors) members.insert(lane ^ x);
    std::set<std::int64_t> column;
    for (std::int64_t other = 0; other < op.wave_size; ++other) {
      if (cols[static_cast<std::size_t>(other)] == cols[static_cast<std::size_t>(lane)]) column.insert(other);
    }
    if (members != column) return std::nullopt;
  }
  return masks;
}

std::optional<std::vector<std::int64_t>> group(const arch::MmaOp& op, int axis) {
  // A group depends on the op's C layout only, and takes wave x slots coordinates and a set per
  // lane: a catalog row's group is found once per thread (every attention_fwd config asks).
  if (!arch::is_catalog_row(op)) return group_uncached(op, axis);
  thread_local std::map<std::pair<const arch::MmaOp*, int>, std::optional<std::vector<std::int64_t>>> groups;
  auto key = std::make_pair(&op, axis);
  auto found = groups.find(key);
  if (found == groups.end()) found = groups.emplace(key, group_uncached(op, axis)).first;
  return found->second;
}

}  // namespace

std::optional<std::vector<std::int64_t>> column_group(const arch::MmaOp& op) { return group(op, kCol); }

std::optional<std::vector<std::int64_t>> row_group(const arch::MmaOp& op) { return group(op, kRow); }

Value* group_reduce(ir::Builder& b, Value* x, std::string_view kind, const std::vector<std::int64_t>& masks,
                    ir::Hint name) {
  for (std::int64_t mask : masks) {
    Value* other = b.shuffle_xor(x, mask);
    x = helpers::combine(b, kind, x, other, name);
  }
  return x;
}

Update online_update(ir::Builder& b, const ir::Values& scores, Value* m_old, Value* l_old,
                     const std::vector<std::int64_t>& masks) {
  Value* tile_max = scores[0];
  for (std::size_t i = 1; i < scores.size(); ++i) tile_max = b.maxf(tile_max, scores[i]);
  tile_max = group_reduce(b, tile_max, "max", masks, "tile_max");
  Value* m_new = b.maxf(m_old, tile_max, "m_new");
  Value* none_seen = b.cmpf("oeq", m_new, f32_const(b, kNegInf, 1));
  Value* zero = f32_const(b, 0.0, 1);
  Value* m_use = b.select(none_seen, zero, m_new, "m_use");
  Value* shift = b.sub(m_old, m_use);
  Value* alpha = b.exp2(shift, "alpha");
  ir::Values probs;
  for (Value* s : scores) {
    Value* diff = b.sub(s, m_use);
    probs.push_back(b.exp2(diff, "p"));
  }
  Value* total = probs[0];
  for (std::size_t i = 1; i < probs.size(); ++i) total = b.add(total, probs[i]);
  Value* l_new = b.fma(l_old, alpha, total, "l_new");
  return Update{std::move(probs), m_new, l_new, alpha};
}

std::pair<Value*, Value*> finalize(ir::Builder& b, Value* m, Value* l_part, const std::vector<std::int64_t>& masks) {
  Value* l_total = group_reduce(b, l_part, "add", masks, "l");
  Value* seen = b.cmpf("ogt", l_total, f32_const(b, 0.0, 1));
  Value* inv_l = b.rcp(l_total);
  Value* zero = f32_const(b, 0.0, 1);
  Value* inv = b.select(seen, inv_l, zero, "inv_l");
  Value* log_l = b.log2(l_total);
  Value* lse2 = b.add(m, log_l);
  Value* lse = b.mul(lse2, f32_const(b, kLn2, 1));
  Value* neg_inf = f32_const(b, kNegInf, 1);
  return {inv, b.select(seen, lse, neg_inf, "lse")};
}

}  // namespace rocke::library::kernels::attention::common
