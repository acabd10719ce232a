// rocKE library: plans -- what dispatch answers for a problem on an arch, as JSON rocke.plan/1.
// Python twin: rocke_library/dispatch/plan.py (byte for byte)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocke/families/launch.hpp"

namespace rocke::library::dispatch {

inline constexpr std::string_view kPlanFormat = "rocke.plan/1";
inline constexpr std::int64_t kWorkspaceAlign = 256;

struct WorkspaceSlice {
  std::string name;  // "<launch index>.<family>"
  std::int64_t offset = 0;
  std::int64_t bytes = 0;
};

// Slices for (name, bytes) requests in order, each at the next kWorkspaceAlign multiple, and the
// total bytes; empty requests get no slice.
std::pair<std::vector<WorkspaceSlice>, std::int64_t> layout_workspace(
    const std::vector<std::pair<std::string, std::int64_t>>& requests);

// A layout a plan assembler gives (launches sharing slices, each bound to the arguments of its
// name), with the buffers to zero first as (launch index, argument).
struct Workspace {
  std::vector<WorkspaceSlice> slices;
  std::int64_t bytes = 0;
  std::vector<std::pair<std::size_t, std::string>> zero_init = {};
};

struct Rejection {
  std::string family;  // "" when no family serves the kind
  std::string spec;    // "" when the hook rejected before a spec existed
  std::vector<std::string> reasons;
  std::string detail;
};

struct Launch {
  std::string family;
  std::string spec;
  families::LaunchContract contract;
};

// The launch only reads its workspace (an earlier launch of its family wrote it).
bool reads_workspace(const Launch& launch);

struct Plan {
  std::string kind;
  std::string arch;
  std::string problem;
  std::string status;  // planned | dead | refused
  std::vector<Launch> launches;
  std::vector<Rejection> rejected;
  std::optional<Workspace> shared = std::nullopt;  // the assembler's layout of a launch set

  std::pair<std::vector<WorkspaceSlice>, std::int64_t> workspace() const;
  // The slice launch `index` gets as its `workspace` argument: its own, or for a launch that only
  // reads its workspace the slice of the latest launch of its family before it.
  std::optional<WorkspaceSlice> workspace_slice(std::size_t index) const;
  std::vector<std::pair<std::size_t, std::string>> zero_init() const;
  families::Json to_dict() const;
  std::string to_json() const;
  std::string to_text() const;
};

}  // namespace rocke::library::dispatch
