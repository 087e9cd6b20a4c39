// placement_summary: what hxrt-run prints under "Placement:", and the Python
// package's Model.placement_summary().
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hxrt/executable.hpp"

namespace hxrt {
namespace {

// "MatMulBias 12, Add 5": the ops by count, most first.
std::string op_counts(const std::map<std::string, int>& counts) {
  std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (const auto& [op, count] : sorted) {
    text += (text.empty() ? "" : ", ") + op + " " + std::to_string(count);
  }
  return text;
}

}  // namespace

std::string Executable::placement_summary() const { return hxrt::placement_summary(placement()); }

std::string placement_summary(const std::vector<NodePlacement>& placements) {
  std::map<std::string, std::map<std::string, int>> per_device;
  std::vector<const NodePlacement*> moved;
  for (const NodePlacement& placement : placements) {
    if (placement.op == "Placeholder" || placement.op == "Const") continue;
    ++per_device[placement.device][placement.op];
    if (!placement.requested.empty() && !placement.reason.empty()) moved.push_back(&placement);
  }
  std::string out;
  for (const auto& [device, counts] : per_device) {
    int total = 0;
    for (const auto& entry : counts) total += entry.second;
    out += "  " + device + ": " + std::to_string(total) + " node" + (total == 1 ? "" : "s") +
           " (" + op_counts(counts) + ")\n";
  }
  if (moved.empty()) {
    out += "  no node fell back from the device it asked for\n";
    return out;
  }
  out += "  fell back (" + std::to_string(moved.size()) + "):\n";
  for (const NodePlacement* placement : moved) {
    out += "    " + placement->node + " (" + placement->op + ") asked for " +
           placement->requested + ", runs on " + placement->device + ": " + placement->reason +
           "\n";
  }
  return out;
}

}  // namespace hxrt
