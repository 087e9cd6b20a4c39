#include "graph/compile/memory_plan.hpp"

#include <algorithm>

#include <string>

#include "graph/compile/shared_arena_packing.hpp"
#include "graph/compile/searched_packing.hpp"
#include "graph/compile/size_order_packing.hpp"
#include "graph/compile/step_order.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

// The planner's input comes from the graph compiler: each error names the index that is wrong
// and the rule it breaks.
[[noreturn]] void refuse(const std::string& what) {
  throw Error(StatusCode::kInvalidArgument, "memory plan: " + what);
}

void check_steps(const std::vector<PlanStep>& steps) {
  for (size_t step = 0; step < steps.size(); ++step) {
    for (const size_t predecessor : steps[step].predecessors) {
      if (predecessor >= step) {
        refuse("step " + std::to_string(step) + " has predecessor " + std::to_string(predecessor) +
               ", not below it; give the steps in topological order");
      }
    }
  }
}

void check_value(const PlanValue& value, size_t index, size_t num_steps, size_t num_devices) {
  const std::string name = "value " + std::to_string(index);
  if (value.device >= num_devices) {
    refuse(name + " is on device " + std::to_string(value.device) + ", but there are " +
           std::to_string(num_devices) + " devices");
  }
  if (value.bytes == 0) {
    refuse(name + " has 0 bytes; leave values without bytes out of the plan");
  }
  if (value.producer >= num_steps) {
    refuse(name + " is produced by step " + std::to_string(value.producer) + ", but there are " +
           std::to_string(num_steps) + " steps");
  }
  for (const size_t reader : value.readers) {
    if (reader >= num_steps) {
      refuse(name + " is read by step " + std::to_string(reader) + ", but there are " +
             std::to_string(num_steps) + " steps");
    }
    if (reader <= value.producer) {
      refuse(name + " is read by step " + std::to_string(reader) +
             ", which is not after its producer, step " + std::to_string(value.producer));
    }
  }
}

// Each value's size rounded up to the alignment, and each device's sum of them; refuses sizes
// that overflow 64 bits. Every offset the planner computes is at most that sum.
std::vector<uint64_t> aligned_sizes(const std::vector<PlanValue>& values, size_t alignment,
                                    std::vector<uint64_t>& device_sums) {
  std::vector<uint64_t> sizes;
  sizes.reserve(values.size());
  for (size_t index = 0; index < values.size(); ++index) {
    const PlanValue& value = values[index];
    uint64_t size = 0;
    uint64_t& sum = device_sums[value.device];
    if (__builtin_add_overflow(uint64_t{value.bytes}, uint64_t{alignment - 1}, &size) ||
        __builtin_add_overflow(sum, size & ~uint64_t{alignment - 1}, &sum)) {
      refuse("value " + std::to_string(index) + " (" + std::to_string(value.bytes) +
             " bytes) takes the values of device " + std::to_string(value.device) +
             " past 2^64 bytes in all, aligned to " + std::to_string(alignment) +
             "; no arena can hold them");
    }
    sizes.push_back(size & ~uint64_t{alignment - 1});
  }
  return sizes;
}

// MemoryPlan::widest_bytes: a sweep over the steps, each value added at its producer and
// taken away after its last reader.
std::vector<uint64_t> widest_bytes(size_t num_steps, const std::vector<PlanValue>& values,
                                   const std::vector<uint64_t>& sizes, size_t num_devices) {
  std::vector<std::vector<size_t>> born(num_steps);
  std::vector<std::vector<size_t>> dead_after(num_steps);
  for (size_t index = 0; index < values.size(); ++index) {
    const PlanValue& value = values[index];
    size_t last = value.producer;
    for (size_t reader : value.readers) last = std::max(last, reader);
    born[value.producer].push_back(index);
    dead_after[last].push_back(index);
  }
  std::vector<uint64_t> live(num_devices, 0);
  std::vector<uint64_t> widest(num_devices, 0);
  for (size_t step = 0; step < num_steps; ++step) {
    for (size_t index : born[step]) {
      uint64_t& bytes = live[values[index].device];
      bytes += sizes[index];  // no overflow: aligned_sizes checked the sum per device
      widest[values[index].device] = std::max(widest[values[index].device], bytes);
    }
    for (size_t index : dead_after[step]) live[values[index].device] -= sizes[index];
  }
  return widest;
}

}  // namespace

MemoryPlan plan_memory(const std::vector<PlanStep>& steps, const std::vector<PlanValue>& values,
                       size_t num_devices, size_t alignment, bool largest_first) {
  return plan_memory_within(steps, values, num_devices, alignment, kMaxReachabilityBytes,
                            largest_first);
}

MemoryPlan plan_memory_within(const std::vector<PlanStep>& steps,
                              const std::vector<PlanValue>& values, size_t num_devices,
                              size_t alignment, size_t max_reachability_bytes,
                              bool largest_first) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    refuse("alignment " + std::to_string(alignment) + " is not a power of two");
  }
  check_steps(steps);
  for (size_t index = 0; index < values.size(); ++index) {
    check_value(values[index], index, steps.size(), num_devices);
  }
  MemoryPlan plan;
  plan.unshared_bytes.assign(num_devices, 0);
  const std::vector<uint64_t> sizes = aligned_sizes(values, alignment, plan.unshared_bytes);
  plan.offsets.assign(values.size(), 0);
  const StepOrder order(steps, max_reachability_bytes);
  plan.arena_bytes =
      pack_shared_values(steps.size(), order, values, sizes, num_devices, plan.offsets);
  if (largest_first && values.size() <= kMostValuesBySize) {
    // Packed the other way too; per device, the smaller arena's offsets.
    std::vector<uint64_t> by_size_offsets(values.size(), 0);
    const std::vector<uint64_t> by_size =
        pack_by_size(order, values, sizes, num_devices, by_size_offsets);
    for (size_t index = 0; index < values.size(); ++index) {
      const size_t device = values[index].device;
      if (by_size[device] < plan.arena_bytes[device]) plan.offsets[index] = by_size_offsets[index];
    }
    for (size_t device = 0; device < num_devices; ++device) {
      plan.arena_bytes[device] = std::min(plan.arena_bytes[device], by_size[device]);
    }
    // Where both left a gap above the least possible, a search for a packing of that height.
    const std::vector<uint64_t> widest = widest_bytes(steps.size(), values, sizes, num_devices);
    for (size_t device = 0; device < num_devices; ++device) {
      if (plan.arena_bytes[device] > widest[device] &&
          pack_within(order, values, sizes, device, widest[device], plan.offsets)) {
        plan.arena_bytes[device] = widest[device];
      }
    }
  }
  // Values that share nothing lie end to end above the shared ones.
  for (size_t index = 0; index < values.size(); ++index) {
    if (values[index].shareable) continue;
    plan.offsets[index] = plan.arena_bytes[values[index].device];
    plan.arena_bytes[values[index].device] += sizes[index];
  }
  plan.widest_bytes = widest_bytes(steps.size(), values, sizes, num_devices);
  return plan;
}

}  // namespace hxrt::detail
