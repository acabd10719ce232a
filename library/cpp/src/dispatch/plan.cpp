// Python twin: rocke_library/dispatch/plan.py
#include "rocke_library/dispatch/plan.hpp"

#include "rocke/util/strings.hpp"
#include "rocke_library/dispatch/reasons.hpp"

namespace rocke::library::dispatch {

using families::Json;

std::pair<std::vector<WorkspaceSlice>, std::int64_t> layout_workspace(
    const std::vector<std::pair<std::string, std::int64_t>>& requests) {
  std::vector<WorkspaceSlice> slices;
  std::int64_t offset = 0;
  for (const auto& [name, nbytes] : requests) {
    if (nbytes <= 0) continue;
    slices.push_back(WorkspaceSlice{name, offset, nbytes});
    offset += (nbytes + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
  }
  return {slices, offset};
}

bool reads_workspace(const Launch& launch) {
  for (const families::KernelArg& arg : launch.contract.args) {
    if (arg.name == "workspace" && arg.role == "input") return true;
  }
  return false;
}

std::pair<std::vector<WorkspaceSlice>, std::int64_t> Plan::workspace() const {
  if (shared) return {shared->slices, shared->bytes};
  std::vector<std::pair<std::string, std::int64_t>> requests;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    requests.emplace_back(util::cat(std::to_string(i), ".", launches[i].family),
                          reads_workspace(launches[i]) ? 0 : launches[i].contract.workspace_bytes);
  }
  return layout_workspace(requests);
}

std::optional<WorkspaceSlice> Plan::workspace_slice(std::size_t index) const {
  std::vector<WorkspaceSlice> slices = workspace().first;
  auto find = [&](std::size_t i) -> std::optional<WorkspaceSlice> {
    std::string name = util::cat(std::to_string(i), ".", launches[i].family);
    for (const WorkspaceSlice& piece : slices) {
      if (piece.name == name) return piece;
    }
    return std::nullopt;
  };
  const Launch& launch = launches[index];
  if (!reads_workspace(launch)) return find(index);
  for (std::size_t earlier = index; earlier-- > 0;) {
    if (launches[earlier].family != launch.family) continue;
    if (std::optional<WorkspaceSlice> piece = find(earlier)) return piece;
  }
  return std::nullopt;
}

std::vector<std::pair<std::size_t, std::string>> Plan::zero_init() const {
  if (shared) return shared->zero_init;
  std::vector<std::pair<std::size_t, std::string>> out;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    for (const std::string& arg : launches[i].contract.zero_init) out.emplace_back(i, arg);
  }
  return out;
}

Json Plan::to_dict() const {
  Json launch_list = Json::array();
  for (const Launch& launch : launches) {
    Json entry = Json::object();
    entry.set("contract", launch.contract.to_dict());
    entry.set("family", Json::of(launch.family));
    entry.set("spec", Json::of(launch.spec));
    launch_list.push(std::move(entry));
  }
  Json rejected_list = Json::array();
  for (const Rejection& rejection : rejected) {
    Json reasons = Json::array();
    for (const std::string& code : rejection.reasons) {
      Json reason = Json::object();
      reason.set("code", Json::of(code));
      reason.set("text", Json::of(reason_text(code)));
      reasons.push(std::move(reason));
    }
    Json entry = Json::object();
    entry.set("detail", Json::of(rejection.detail));
    entry.set("family", Json::of(rejection.family));
    entry.set("reasons", std::move(reasons));
    entry.set("spec", Json::of(rejection.spec));
    rejected_list.push(std::move(entry));
  }
  auto [slices, total] = workspace();
  Json slice_list = Json::array();
  for (const WorkspaceSlice& piece : slices) {
    Json entry = Json::object();
    entry.set("bytes", Json::of(piece.bytes));
    entry.set("name", Json::of(piece.name));
    entry.set("offset", Json::of(piece.offset));
    slice_list.push(std::move(entry));
  }
  Json space = Json::object();
  space.set("bytes", Json::of(total));
  space.set("slices", std::move(slice_list));
  Json zeros = Json::array();
  for (const auto& [i, arg] : zero_init()) {
    Json entry = Json::object();
    entry.set("arg", Json::of(arg));
    entry.set("launch", Json::of(static_cast<std::int64_t>(i)));
    zeros.push(std::move(entry));
  }
  Json out = Json::object();
  out.set("arch", Json::of(arch));
  out.set("format", Json::of(kPlanFormat));
  out.set("kind", Json::of(kind));
  out.set("launches", std::move(launch_list));
  out.set("problem", Json::of(problem));
  out.set("rejected", std::move(rejected_list));
  out.set("status", Json::of(status));
  out.set("workspace", std::move(space));
  out.set("zero_init", std::move(zeros));
  return out;
}

std::string Plan::to_json() const { return families::dump_json(to_dict()) + "\n"; }

std::string Plan::to_text() const {
  std::vector<std::string> lines = {util::cat(kind, " on ", arch, ": ", status)};
  auto [slices, total] = workspace();
  if (status == "planned") {
    lines[0] += util::cat(", ", std::to_string(launches.size()), " launch(es), workspace ", std::to_string(total),
                          " bytes");
  }
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& grid = launches[i].contract.grid;
    const auto& block = launches[i].contract.block;
    lines.push_back(util::cat("  launch ", std::to_string(i), ": ", launches[i].family, " [", launches[i].spec,
                              "] grid (", std::to_string(grid[0]), ", ", std::to_string(grid[1]), ", ",
                              std::to_string(grid[2]), ") block (", std::to_string(block[0]), ", ",
                              std::to_string(block[1]), ", ", std::to_string(block[2]), ")"));
  }
  for (const WorkspaceSlice& piece : slices) {
    lines.push_back(util::cat("  workspace ", piece.name, ": offset ", std::to_string(piece.offset), ", ",
                              std::to_string(piece.bytes), " bytes"));
  }
  for (const auto& [i, arg] : zero_init()) lines.push_back(util::cat("  zero before launch ", std::to_string(i), ": ", arg));
  for (const Rejection& rejection : rejected) {
    std::string who = rejection.family.empty() ? kind : rejection.family;
    if (!rejection.spec.empty()) who += util::cat(" [", rejection.spec, "]");
    for (const std::string& code : rejection.reasons) {
      lines.push_back(util::cat("  rejected ", who, ": ", code, ": ", reason_text(code)));
    }
    if (!rejection.detail.empty()) lines.push_back(util::cat("    ", rejection.detail));
  }
  return util::join(lines, "\n") + "\n";
}

}  // namespace rocke::library::dispatch
