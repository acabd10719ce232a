// rocKE C++ engine: launch contracts (how a host launches a family's kernel for one problem:
// arguments in order, grid, block, buffer sizes, workspace, zero-fills) and the launch template
// of a built kernel (symbol, arguments with IR types, block bound, spec), as JSON.
// Python twin: rocke/families/launch.py (KernelArg, LaunchContract, LaunchError, problem_sizes,
// check_size, check_buffer, launch_template, template_json), byte for byte.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocke/errors.hpp"
#include "rocke/ir/core.hpp"

namespace rocke::families {

inline constexpr std::string_view kTemplateFormat = "rocke.launch-template/1";

// JSON values written as Python's json.dumps(value, sort_keys=True, indent=2) writes them (what
// LaunchContract.to_json and the library's plans call; integers, strings, booleans, null, lists,
// dicts; ensure_ascii).
struct Json {
  enum class Kind { Null, Bool, Int, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::int64_t integer = 0;
  std::string text;
  std::vector<Json> items;
  std::map<std::string, Json, std::less<>> members;  // sorted by key, as sort_keys=True

  static Json null() { return {}; }
  static Json of(bool value);
  static Json of(std::int64_t value);
  static Json of(std::string_view value);
  static Json of(const char* value) { return of(std::string_view(value)); }
  static Json array();
  static Json object();

  // Append to an array; set a member of an object. Both return *this.
  Json& push(Json value);
  Json& set(std::string_view key, Json value);
};

// json.dumps(value, sort_keys=True, indent=2) (no final newline).
std::string dump_json(const Json& value);

// json.dumps(text) of one string (ensure_ascii).
std::string json_quote(std::string_view text);

inline constexpr std::string_view kContractFormat = "rocke.launch/1";
inline constexpr std::int64_t kMaxBufferBytes = 2147483647;  // buffer offsets are i32
inline constexpr std::int64_t kMaxSize = 2147483647;          // problem sizes are i32 kernel arguments

// A problem the family cannot launch (bad sizes, buffers too large, missing arguments).
class LaunchError : public ValueError {
 public:
  explicit LaunchError(std::string message) : Error(std::move(message)) {}
};

// Problem sizes by name (sorted, as the contract's problem).
using ProblemSizes = std::map<std::string, std::int64_t, std::less<>>;

// One kernel argument (Python: KernelArg).
struct KernelArg {
  std::string name;
  std::string type;  // IR type text
  std::string role;  // input | output | scalar
  std::int64_t bytes = 0;
  std::optional<std::int64_t> value = std::nullopt;

  Json to_dict() const;
};

// Python: LaunchContract.
struct LaunchContract {
  std::string family;
  std::string kernel;
  std::string spec;
  ProblemSizes problem;
  std::vector<KernelArg> args;
  std::array<std::int64_t, 3> grid{};
  std::array<std::int64_t, 3> block{};
  std::int64_t workspace_bytes = 0;
  std::vector<std::string> zero_init;

  Json to_dict() const;
  // Sorted keys, two-space indent, LF line ends, final LF.
  std::string to_json() const;
};

// Python: problem_sizes -- the problem's sizes for exactly keys, each a positive int that fits an
// i32; LaunchError otherwise.
std::vector<std::int64_t> problem_sizes(std::string_view family, const ProblemSizes& problem,
                                        const std::vector<std::string_view>& keys);

// Python: check_size -- value when it fits the i32 kernel argument that carries it.
std::int64_t check_size(std::string_view family, std::string_view key, std::int64_t value);

// Python: check_buffer -- nbytes when a buffer of that size is addressable by i32 byte offsets.
// nbytes is exact (sizes are at most kMaxSize, so products of four fit 128 bits).
std::int64_t check_buffer(std::string_view family, std::string_view name, __int128 nbytes);

// Python: family.launch(family.spec.from_kv(kv), problem) of a platform family by name
// (elementwise, gemm): SpecError, LaunchError; KeyError for another name.
LaunchContract platform_launch_contract(std::string_view family, std::string_view kv, const ProblemSizes& problem);

// Python: ceil_div for the grid.
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }


// template_json(launch_template(kernel, family=, spec=, arch=)): sorted keys, two-space indent, LF.
std::string launch_template_json(const ir::KernelDef& kernel, std::string_view family, std::string_view spec,
                                 std::string_view arch);

}  // namespace rocke::families
