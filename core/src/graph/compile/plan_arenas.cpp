// The memory of a run (compile_phases.hpp): which values live in their device's arena, where
// (graph/compile/memory_plan.hpp), and whether the run fits each device.
#include <algorithm>

#include "graph/compile/compile_phases.hpp"
#include "graph/compile/memory_plan.hpp"
#include "memory/allocator_stats.hpp"

namespace hxrt::detail {
namespace {

size_t add_checked(size_t a, size_t b, const std::string& device) {
  if (a > SIZE_MAX - b) {
    throw Error(StatusCode::kInvalidArgument,
                "the graph's tensors on " + device + " add up to more bytes than size_t holds");
  }
  return a + b;
}

}  // namespace

size_t device_memory_limit(const Device& device) {
  size_t limit = device.memory_stats().bytes_limit;
  const uint64_t total = device.physical().memory_total();
  if (total > 0 && total < limit) limit = static_cast<size_t>(total);
  return limit;
}

void plan_arenas(ExecutableImpl& exe, std::vector<std::vector<size_t>> predecessors,
                 bool one_thread) {
  // Values in an arena: written by a kernel and read only by kernels of the same device,
  // whose stream (or the executor's edges, on a synchronous device) orders every use.
  std::vector<bool> own(exe.values.size(), false);
  // Not the run's to allocate: a graph input's (the caller's) or a constant's (compile's).
  std::vector<bool> fed(exe.values.size(), false);
  std::vector<bool> constant(exe.values.size(), false);
  for (const StepInfo& step : exe.steps) {
    if (step.kind == StepInfo::Kind::kOp) continue;
    for (size_t value : step.outputs) {
      own[value] = true;
      constant[value] = step.kind == StepInfo::Kind::kConstant;
      fed[value] = step.kind == StepInfo::Kind::kFeed || constant[value];
    }
    for (size_t value : step.inputs) own[value] = true;  // a transfer reads it
  }
  for (size_t value : exe.fetch_values) own[value] = true;

  std::vector<Device*> devices;  // every device a step runs on, in device order
  for (const StepInfo& step : exe.steps) {
    if (std::find(devices.begin(), devices.end(), step.device) == devices.end()) {
      devices.push_back(step.device);
    }
  }
  std::sort(devices.begin(), devices.end(),
            [](const Device* a, const Device* b) { return a->index() < b->index(); });

  std::vector<PlanStep> plan_steps(exe.steps.size());
  for (size_t s = 0; s < exe.steps.size(); ++s) {
    plan_steps[s].predecessors = std::move(predecessors[s]);
  }
  // The values planned, each with its index among them (SIZE_MAX: not planned), filled
  // straight from the steps: a large graph has one per node, and lists per value besides
  // these would cost every one of them again.
  constexpr size_t kNotPlanned = SIZE_MAX;
  std::vector<PlanValue> plan_values;
  std::vector<size_t> planned;  // plan_values[i] is exe.values[planned[i]]
  std::vector<size_t> plan_index(exe.values.size(), kNotPlanned);
  plan_values.reserve(exe.values.size());
  planned.reserve(exe.values.size());
  size_t alignment = 1;
  for (size_t v = 0; v < exe.values.size(); ++v) {
    const ValueInfo& value = exe.values[v];
    if (own[v] || value.bytes == 0) continue;
    PlanValue entry;
    entry.device = static_cast<size_t>(
        std::find(devices.begin(), devices.end(), value.device) - devices.begin());
    entry.bytes = value.bytes;
    entry.producer = 0;  // set from the steps below
    plan_index[v] = plan_values.size();
    plan_values.push_back(std::move(entry));
    planned.push_back(v);
    alignment = std::max<size_t>(alignment, value.device->physical().alignment());
  }
  for (size_t s = 0; s < exe.steps.size(); ++s) {
    const StepInfo& step = exe.steps[s];
    for (size_t value : step.outputs) {
      if (plan_index[value] != kNotPlanned) plan_values[plan_index[value]].producer = s;
    }
    for (size_t value : step.inputs) {
      if (plan_index[value] != kNotPlanned) plan_values[plan_index[value]].readers.push_back(s);
    }
  }
  std::vector<size_t>().swap(plan_index);
  const MemoryPlan plan =
      plan_memory(plan_steps, plan_values, devices.size(), alignment, one_thread);

  exe.memory_plan.resize(devices.size());
  std::vector<size_t> arena_of(devices.size(), ValueInfo::kOwnMemory);
  for (size_t d = 0; d < devices.size(); ++d) {
    DeviceMemoryPlan& report = exe.memory_plan[d];
    report.device = devices[d]->name();
    report.arena_bytes = static_cast<size_t>(plan.arena_bytes[d]);
    report.unshared_bytes = static_cast<size_t>(plan.unshared_bytes[d]);
    report.widest_bytes = static_cast<size_t>(plan.widest_bytes[d]);
    if (report.arena_bytes > 0) {
      arena_of[d] = exe.arenas.size();
      exe.arenas.push_back({devices[d], report.arena_bytes});
    }
  }
  for (size_t i = 0; i < planned.size(); ++i) {
    ValueInfo& value = exe.values[planned[i]];
    value.arena = arena_of[plan_values[i].device];
    value.offset = plan.offsets[i];
  }
  for (size_t v = 0; v < exe.values.size(); ++v) {
    const ValueInfo& value = exe.values[v];
    if (value.arena != ValueInfo::kOwnMemory) continue;
    if (fed[v] && !constant[v]) continue;
    DeviceMemoryPlan& report = exe.memory_plan[static_cast<size_t>(
        std::find(devices.begin(), devices.end(), value.device) - devices.begin())];
    size_t& bytes = constant[v] ? report.constant_bytes : report.separate_bytes;
    bytes = add_checked(bytes, value.bytes, report.device);
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    DeviceMemoryPlan& report = exe.memory_plan[d];
    report.peak_bytes = add_checked(report.arena_bytes, report.separate_bytes, report.device);
    const size_t limit = device_memory_limit(*devices[d]);
    if (report.peak_bytes > limit) {
      throw Error(StatusCode::kOutOfMemory,
                  "a run of this graph needs " + format_bytes(report.peak_bytes) + " on " +
                      report.device + " (" + format_bytes(report.arena_bytes) +
                      " of intermediate tensors, shared by lifetime from " +
                      format_bytes(report.unshared_bytes) + ", and " +
                      format_bytes(report.separate_bytes) +
                      " of fetched, copied or shared tensors), more than its memory limit of " +
                      format_bytes(limit) + " (policy: " + devices[d]->memory_policy() +
                      "); place some nodes on another device, fetch less, or raise the "
                      "device's memory limit");
    }
  }
}

}  // namespace hxrt::detail
