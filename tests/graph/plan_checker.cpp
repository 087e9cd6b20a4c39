#include "plan_checker.hpp"

#include <cstdint>

using hxrt::detail::MemoryPlan;
using hxrt::detail::PlanStep;
using hxrt::detail::PlanValue;

namespace hxrt_test {
namespace {

// reaches[x][y]: y is reachable from x by predecessor edges, x != y.
std::vector<std::vector<bool>> reachability(const std::vector<PlanStep>& steps) {
  std::vector<std::vector<bool>> reaches(steps.size(), std::vector<bool>(steps.size(), false));
  for (size_t y = 0; y < steps.size(); ++y) {
    std::vector<size_t> pending = steps[y].predecessors;
    while (!pending.empty()) {
      const size_t x = pending.back();
      pending.pop_back();
      if (reaches[x][y]) continue;
      reaches[x][y] = true;
      pending.insert(pending.end(), steps[x].predecessors.begin(), steps[x].predecessors.end());
    }
  }
  return reaches;
}

bool dead_before(const PlanValue& value, size_t step,
                 const std::vector<std::vector<bool>>& reaches) {
  if (!reaches[value.producer][step]) return false;
  for (const size_t reader : value.readers) {
    if (!reaches[reader][step]) return false;
  }
  return true;
}

std::string name(size_t index) { return "value " + std::to_string(index); }

}  // namespace

std::string plan_problem(const std::vector<PlanStep>& steps, const std::vector<PlanValue>& values,
                         size_t num_devices, size_t alignment, const MemoryPlan& plan) {
  if (plan.offsets.size() != values.size() || plan.arena_bytes.size() != num_devices ||
      plan.unshared_bytes.size() != num_devices) {
    return "the plan's vectors have the wrong sizes";
  }
  std::vector<uint64_t> sums(num_devices, 0);
  for (size_t index = 0; index < values.size(); ++index) {
    const PlanValue& value = values[index];
    const uint64_t offset = plan.offsets[index];
    if (offset % alignment != 0) return name(index) + " is at an unaligned offset";
    if (offset + value.bytes > plan.arena_bytes[value.device]) {
      return name(index) + " ends beyond its arena";
    }
    sums[value.device] += (value.bytes + alignment - 1) / alignment * alignment;
  }
  for (size_t device = 0; device < num_devices; ++device) {
    if (plan.unshared_bytes[device] != sums[device]) return "wrong unshared_bytes";
    if (plan.arena_bytes[device] > sums[device]) return "an arena larger than its values";
  }
  const auto reaches = reachability(steps);
  for (size_t a = 0; a < values.size(); ++a) {
    for (size_t b = a + 1; b < values.size(); ++b) {
      const PlanValue& first = values[a];
      const PlanValue& second = values[b];
      if (first.device != second.device) continue;
      if (plan.offsets[a] >= plan.offsets[b] + second.bytes ||
          plan.offsets[b] >= plan.offsets[a] + first.bytes) {
        continue;
      }
      const std::string pair = name(a) + " and " + name(b);
      if (!first.shareable || !second.shareable) return pair + " overlap, one unshareable";
      if (!dead_before(first, second.producer, reaches) &&
          !dead_before(second, first.producer, reaches)) {
        return pair + " overlap, and both may be live at once";
      }
    }
  }
  return "";
}

}  // namespace hxrt_test
