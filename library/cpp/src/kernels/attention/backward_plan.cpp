// Python twin: rocke_library/kernels/attention/backward_plan.py
#include "rocke_library/kernels/attention/backward_plan.hpp"

#include <algorithm>
#include <map>

#include "rocke/helpers/dtypes.hpp"
#include "rocke/util/strings.hpp"
#include "rocke_library/kernels/attention/attention_bwd_convert/contract.hpp"
#include "rocke_library/kernels/attention/attention_bwd_dq/contract.hpp"
#include "rocke_library/kernels/attention/attention_bwd_main/contract.hpp"
#include "rocke_library/kernels/attention/attention_bwd_prep/contract.hpp"

namespace rocke::library::kernels::attention {

namespace {

using families::ProblemSizes;
using util::cat;

template <class List, class T>
bool contains(const List& list, const T& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string none_or(const std::vector<std::string>& names) {
  return names.empty() ? std::string("none") : util::join(names, ", ");
}

// Whether a tensor is laid out like K (rows of S_k and kv heads) rather than like Q.
bool kv_tensor(std::string_view tensor) { return tensor == "k" || tensor == "v" || tensor == "dk" || tensor == "dv"; }

std::int64_t product(const std::vector<std::int64_t>& shape) {
  __int128 count = 1;
  for (std::int64_t dim : shape) count *= dim;
  return static_cast<std::int64_t>(count);
}

// Shape of lse, lse2 and delta: batched [B, H_q, S_q], varlen [H_q, total_q].
std::vector<std::int64_t> stat_shape(std::string_view seq_mode, const ProblemSizes& sizes) {
  if (seq_mode == "batched") return {sizes.at("batch"), sizes.at("heads_q"), sizes.at("seqlen_q")};
  return {sizes.at("heads_q"), sizes.at("total_q")};
}

std::vector<std::int64_t> acc_shape(std::string_view seq_mode, const ProblemSizes& sizes, std::string_view name,
                                    std::int64_t head_dim, std::string_view dkv_mode) {
  std::int64_t heads = 0;
  std::vector<std::int64_t> shape;
  if (name == "dq_acc") {
    heads = sizes.at("heads_q");
    shape = seq_mode == "batched" ? std::vector<std::int64_t>{sizes.at("batch"), sizes.at("seqlen_q")}
                                  : std::vector<std::int64_t>{sizes.at("total_q")};
  } else {
    heads = sizes.at(dkv_mode == "split" ? "heads_q" : "heads_kv");
    shape = seq_mode == "batched" ? std::vector<std::int64_t>{sizes.at("batch"), sizes.at("seqlen_k")}
                                  : std::vector<std::int64_t>{sizes.at("total_k")};
  }
  shape.push_back(heads);
  shape.push_back(head_dim);
  return shape;
}

ProblemSizes plan_sizes(std::string_view seq_mode, std::int64_t head_dim, const ProblemSizes& problem) {
  std::vector<std::string_view> keys = seq_mode == "batched"
                                           ? std::vector<std::string_view>(kBatchedKeys.begin(), kBatchedKeys.end())
                                           : std::vector<std::string_view>(kVarlenKeys.begin(), kVarlenKeys.end());
  std::vector<std::string_view> dims = seq_mode == "batched" ? std::vector<std::string_view>{"b", "s", "h"}
                                                             : std::vector<std::string_view>{"s", "h"};
  std::vector<std::string> strides;
  for (std::string_view t : kTensors) {
    for (std::string_view d : dims) strides.push_back(cat(t, "_stride_", d));
  }
  std::vector<std::string> unknown, missing;
  for (const auto& [key, value] : problem) {
    if (!contains(keys, key) && !contains(strides, key)) unknown.push_back(key);
  }
  for (std::string_view key : keys) {
    if (problem.find(key) == problem.end()) missing.emplace_back(key);
  }
  if (!unknown.empty() || !missing.empty()) {
    throw PlanError(cat("attention backward: the ", seq_mode, " problem needs arch and the sizes ",
                        util::join(keys, ", "), " (and optionally scale and the strides of ",
                        util::join(kTensors, ", "), "); unknown: ", none_or(unknown), ", missing: ", none_or(missing)));
  }
  ProblemSizes sizes;
  std::vector<std::string> order(keys.begin(), keys.end());
  order.insert(order.end(), strides.begin(), strides.end());
  for (const std::string& key : order) {
    auto it = problem.find(key);
    if (it == problem.end()) continue;
    bool length = key.rfind("seqlen_", 0) == 0 || key.rfind("max_seqlen_", 0) == 0 || key.rfind("total_", 0) == 0;
    std::int64_t smallest = length ? 0 : 1;
    if (it->second < smallest) {
      throw PlanError(cat("attention backward: problem size ", key, " must be an int >= ", std::to_string(smallest)));
    }
    sizes[key] = it->second;
  }
  if (sizes.at("heads_q") % sizes.at("heads_kv") != 0) {
    throw PlanError(cat("attention backward: heads_q=", std::to_string(sizes.at("heads_q")),
                        " is not a multiple of heads_kv=", std::to_string(sizes.at("heads_kv"))));
  }
  for (std::string_view tensor : kTensors) {
    std::int64_t heads = sizes.at(kv_tensor(tensor) ? "heads_kv" : "heads_q");
    sizes.emplace(cat(tensor, "_stride_h"), head_dim);
    sizes.emplace(cat(tensor, "_stride_s"), heads * head_dim);
    if (seq_mode == "batched") {
      // a tensor of no rows (seqlen_k = 0) is never addressed: one row's stride, as a contract takes it
      __int128 seqlen = std::max<std::int64_t>(sizes.at(kv_tensor(tensor) ? "seqlen_k" : "seqlen_q"), 1);
      sizes.emplace(cat(tensor, "_stride_b"), static_cast<std::int64_t>(seqlen * heads * head_dim));
    }
  }
  return sizes;
}

// Elements a user tensor's buffer must hold (see the Python twin).
__int128 tensor_elems(std::string_view seq_mode, const ProblemSizes& sizes, std::string_view tensor,
                      std::int64_t head_dim) {
  if (tensor == "lse") {
    __int128 count = 1;
    for (std::int64_t dim : stat_shape(seq_mode, sizes)) count *= dim;
    return count;
  }
  if (tensor.rfind("cu_seqlens", 0) == 0) return static_cast<__int128>(sizes.at("batch")) + 1;
  bool kv = kv_tensor(tensor);
  __int128 heads = sizes.at(kv ? "heads_kv" : "heads_q");
  std::string side = kv ? "k" : "q";
  __int128 rows = sizes.at(seq_mode == "batched" ? cat("seqlen_", side) : cat("total_", side));
  if (rows == 0) return 0;
  __int128 outer =
      seq_mode == "batched" ? static_cast<__int128>(sizes.at("batch") - 1) * sizes.at(cat(tensor, "_stride_b")) : 0;
  return outer + (rows - 1) * sizes.at(cat(tensor, "_stride_s")) + (heads - 1) * sizes.at(cat(tensor, "_stride_h")) +
         head_dim;
}

// The problem one family's contract takes: the sizes restricted to its problem and stride keys,
// plus zero_count for prep.
template <class Spec, class Keys, class Strides>
ProblemSizes family_problem(const Spec& spec, const ProblemSizes& sizes, Keys keys, Strides strides) {
  std::vector<std::string_view> names = keys(spec);
  std::vector<std::string> stride_names = strides(spec);
  ProblemSizes out;
  for (const auto& [key, value] : sizes) {
    if (contains(names, key) || contains(stride_names, key)) out[key] = value;
  }
  return out;
}

template <class Spec, class Launch>
families::LaunchContract component_contract(std::string_view family, const Spec& spec, const ProblemSizes& sub,
                                            Launch launch) {
  try {
    return launch(spec, sub);
  } catch (const families::LaunchError& exc) {
    throw ComponentLaunchError(std::string(family), exc.what());
  }
}

}  // namespace

std::int64_t BackwardPlan::workspace_bytes() const {
  return slices.empty() ? 0 : align_up(slices.back().offset + slices.back().bytes);
}

std::int64_t align_up(std::int64_t value, std::int64_t align) { return (value + align - 1) / align * align; }

std::vector<Slice> workspace_layout(std::string_view seq_mode, const ProblemSizes& sizes, std::int64_t head_dim,
                                    std::string_view dq_mode, std::string_view dkv_mode) {
  std::vector<std::string_view> names(kStatSlices.begin(), kStatSlices.end());
  if (dq_mode == "atomic") names.push_back("dq_acc");
  if (dkv_mode != "direct") {
    names.push_back("dk_acc");
    names.push_back("dv_acc");
  }
  std::vector<Slice> slices;
  std::int64_t offset = 0;
  for (std::string_view name : names) {
    std::vector<std::int64_t> shape = contains(kStatSlices, name) ? stat_shape(seq_mode, sizes)
                                                                  : acc_shape(seq_mode, sizes, name, head_dim, dkv_mode);
    std::int64_t count = product(shape);
    slices.push_back(Slice{std::string(name), offset, count * 4, shape});
    offset = align_up(offset + count * 4);
  }
  return slices;
}

std::optional<Slice> zero_region(const std::vector<Slice>& slices) {
  std::vector<const Slice*> accs;
  for (const Slice& s : slices) {
    if (contains(kAccSlices, s.name)) accs.push_back(&s);
  }
  if (accs.empty()) return std::nullopt;
  std::int64_t end = accs.back()->offset + accs.back()->bytes;
  std::int64_t bytes = end - accs.front()->offset;
  return Slice{std::string(kZeroRegion), accs.front()->offset, bytes, {bytes / 4}};
}

BackwardPlan plan_attention_bwd(const ProblemSizes& problem, std::string_view arch, const BackwardSpecs& specs) {
  const auto& main = specs.main;
  const std::string& dq_mode = main.dq_mode;
  const std::string& dkv_mode = main.dkv_mode;
  if (!contains(kDqModes, dq_mode) || !contains(kDkvModes, dkv_mode)) {
    throw PlanError(cat("attention backward: main spec modes dq_mode=", dq_mode, " dkv_mode=", dkv_mode,
                        " are not one of ", util::join(kDqModes, ", "), " / ", util::join(kDkvModes, ", ")));
  }
  std::vector<std::string> wanted = {"attention_bwd_prep", "attention_bwd_main"};
  if (dq_mode == "split") wanted.emplace_back("attention_bwd_dq");
  if (dq_mode == "atomic" || dkv_mode != "direct") wanted.emplace_back("attention_bwd_convert");
  std::vector<std::string> given = {"attention_bwd_prep", "attention_bwd_main"};
  if (specs.dq) given.emplace_back("attention_bwd_dq");
  if (specs.convert) given.emplace_back("attention_bwd_convert");
  if (given != wanted) {
    throw PlanError(cat("attention backward: dq_mode=", dq_mode, " dkv_mode=", dkv_mode, " launches ",
                        util::join(wanted, ", "), "; got specs of ", util::join(given, ", ")));
  }
  const auto& prep = specs.prep;
  auto agree = [&](std::string_view name, const std::string& dtype, std::int64_t head_dim, const std::string& seq) {
    if (dtype != prep.dtype) {
      throw PlanError(cat("attention backward: ", name, " has dtype=", dtype, ", attention_bwd_prep has dtype=",
                          prep.dtype));
    }
    if (head_dim != prep.head_dim) {
      throw PlanError(cat("attention backward: ", name, " has head_dim=", std::to_string(head_dim),
                          ", attention_bwd_prep has head_dim=", std::to_string(prep.head_dim)));
    }
    if (seq != prep.seq_mode) {
      throw PlanError(cat("attention backward: ", name, " has seq_mode=", seq, ", attention_bwd_prep has seq_mode=",
                          prep.seq_mode));
    }
  };
  agree("attention_bwd_main", main.dtype, main.head_dim, main.seq_mode);
  if (specs.dq) agree("attention_bwd_dq", specs.dq->dtype, specs.dq->head_dim, specs.dq->seq_mode);
  if (specs.convert) {
    const auto& convert = *specs.convert;
    agree("attention_bwd_convert", convert.dtype, convert.head_dim, convert.seq_mode);
    if (convert.dq_mode != dq_mode || convert.dkv_mode != dkv_mode) {
      throw PlanError(cat("attention backward: attention_bwd_convert has dq_mode=", convert.dq_mode, " dkv_mode=",
                          convert.dkv_mode, ", the main spec dq_mode=", dq_mode, " dkv_mode=", dkv_mode));
    }
  }
  const std::string& seq_mode = prep.seq_mode;
  std::int64_t head_dim = prep.head_dim;
  ProblemSizes sizes = plan_sizes(seq_mode, head_dim, problem);
  if (dkv_mode == "direct" && sizes.at("heads_q") != sizes.at("heads_kv")) {
    throw PlanError(cat("attention backward: dkv_mode=direct needs heads_q == heads_kv (got ",
                        std::to_string(sizes.at("heads_q")), " and ", std::to_string(sizes.at("heads_kv")),
                        "); GQA / MQA sum dK, dV with dkv_mode atomic or split"));
  }
  BackwardPlan plan;
  plan.arch = std::string(arch);
  plan.problem = sizes;
  plan.slices = workspace_layout(seq_mode, sizes, head_dim, dq_mode, dkv_mode);
  plan.zero = zero_region(plan.slices);
  std::map<std::string, Slice, std::less<>> by_name;
  for (const Slice& s : plan.slices) by_name[s.name] = s;
  if (plan.zero) by_name[std::string(kZeroRegion)] = *plan.zero;
  std::int64_t esize = helpers::elem_bytes(prep.dtype);
  std::map<std::string, std::int64_t, std::less<>> held;
  std::vector<std::string_view> names(kInputs.begin(), kInputs.end());
  names.insert(names.end(), kOutputs.begin(), kOutputs.end());
  for (std::string_view t : names) {
    bool cu = t.rfind("cu_seqlens", 0) == 0;
    if (seq_mode != "varlen" && cu) continue;
    std::string dtype = t == "lse" ? "f32" : cu ? "i32" : prep.dtype;
    std::int64_t size = dtype == prep.dtype ? esize : 4;
    std::int64_t bytes = static_cast<std::int64_t>(tensor_elems(seq_mode, sizes, t, head_dim) * size);
    held[std::string(t)] = bytes;
    plan.tensors.push_back(Tensor{std::string(t), bytes, dtype, contains(kOutputs, t) ? "output" : "input"});
  }
  std::sort(plan.tensors.begin(), plan.tensors.end(), [](const Tensor& a, const Tensor& b) { return a.name < b.name; });
  std::int64_t zero_count = plan.zero ? plan.zero->bytes / 4 : 0;
  for (const std::string& name : wanted) {
    families::LaunchContract contract;
    if (name == "attention_bwd_prep") {
      ProblemSizes sub = family_problem(prep, sizes, attention_bwd_prep::problem_keys, attention_bwd_prep::stride_keys);
      sub["zero_count"] = zero_count;
      contract = component_contract(name, prep, sub, attention_bwd_prep::launch);
    } else if (name == "attention_bwd_main") {
      ProblemSizes sub = family_problem(main, sizes, attention_bwd_main::problem_keys, attention_bwd_main::stride_keys);
      contract = component_contract(name, main, sub, attention_bwd_main::launch);
    } else if (name == "attention_bwd_dq") {
      ProblemSizes sub =
          family_problem(*specs.dq, sizes, attention_bwd_dq::problem_keys, attention_bwd_dq::stride_keys);
      contract = component_contract(name, *specs.dq, sub, attention_bwd_dq::launch);
    } else {
      ProblemSizes sub = family_problem(*specs.convert, sizes, attention_bwd_convert::problem_keys,
                                        attention_bwd_convert::stride_keys);
      contract = component_contract(name, *specs.convert, sub, attention_bwd_convert::launch);
    }
    Launch launch{name, contract.spec, contract.kernel, contract.grid, contract.block, {}, contract};
    for (const families::KernelArg& arg : contract.args) {
      Binding binding{arg.name, arg.type, "", 0, 0, std::nullopt};
      if (contains(kInputs, arg.name) || contains(kOutputs, arg.name)) {
        std::int64_t bytes = held.at(arg.name);
        if (arg.bytes > bytes) {
          throw PlanError(cat("attention backward: ", name, " needs ", std::to_string(arg.bytes), " bytes of ",
                              arg.name, ", the problem's tensor holds ", std::to_string(bytes)));
        }
        binding.kind = "tensor";
      } else if (by_name.count(arg.name) != 0 || arg.name == kZeroRegion) {
        auto it = by_name.find(arg.name);
        Slice s = it != by_name.end() ? it->second : Slice{std::string(kZeroRegion), 0, 0, {0}};
        if (arg.bytes > s.bytes) {
          throw PlanError(cat("attention backward: ", name, " needs ", std::to_string(arg.bytes), " bytes of ",
                              arg.name, ", the slice holds ", std::to_string(s.bytes)));
        }
        binding.kind = "workspace";
        binding.offset = s.offset;
        binding.bytes = s.bytes;
      } else if (arg.value.has_value()) {
        binding.kind = "scalar";
        binding.value = arg.value;
      } else if (arg.name == "scale") {
        binding.kind = "scalar";
      } else {
        throw PlanError(cat("attention backward: ", name, " argument ", arg.name, " has no binding in the plan"));
      }
      launch.args.push_back(std::move(binding));
    }
    plan.launches.push_back(std::move(launch));
  }
  return plan;
}

}  // namespace rocke::library::kernels::attention
