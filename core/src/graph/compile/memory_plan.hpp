// The memory plan of a compiled graph: where, in one arena per device, each tensor that a run
// writes lives. Tensors share memory only when no order the executor may choose (it starts a
// step once its predecessors have completed, independent steps in any order or at once) lets
// their lifetimes overlap. A pure function of the graph's steps and values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hxrt::detail {

// One step of a compiled graph, as the planner sees it. Steps are given in a topological order:
// every predecessor of step i has an index below i.
struct PlanStep {
  std::vector<size_t> predecessors;  // steps that complete before this one starts
};

// One tensor a run writes into an arena.
struct PlanValue {
  size_t device;                // 0 .. num_devices-1: whose arena holds it
  size_t bytes;                 // > 0
  size_t producer;              // the step that writes it
  std::vector<size_t> readers;  // the steps that read it (may be empty: a dead output)
  bool shareable = true;        // false: its memory overlaps no other value's
};

struct MemoryPlan {
  std::vector<uint64_t> offsets;         // per value: its byte offset in its device's arena
  std::vector<uint64_t> arena_bytes;     // per device: the arena's size
  std::vector<uint64_t> unshared_bytes;  // per device: the sum of its values' sizes, aligned
  // Per device: the most of its values' sizes (aligned) live at once when the steps run one
  // by one in the order given, each value from its producer to its last reader. Those values
  // overlap pairwise, so no plan's arena is smaller: arena_bytes / widest_bytes is how far
  // the plan is from the least possible.
  std::vector<uint64_t> widest_bytes;
};

// Two values of one device overlap only if one of them is dead before the other is written: its
// producer and every reader of it happen before (are ancestors, by predecessor edges, of) the
// other's producer. `alignment`: a power of two; every offset and every value's extent are
// multiples of it. Throws hxrt::Error(kInvalidArgument) for inconsistent input (an index out of
// range, a predecessor not below its step, a reader not after its producer, bytes == 0, a bad
// alignment) and for sizes whose sum per device overflows 64 bits.
// `largest_first`: also pack the values largest first (size_order_packing.hpp) and keep, per
// device, the smaller arena. Tighter, but memory reused that soon is memory another core wrote
// moments before: only for runs on one thread (compile's choice).
MemoryPlan plan_memory(const std::vector<PlanStep>& steps, const std::vector<PlanValue>& values,
                       size_t num_devices, size_t alignment, bool largest_first = false);

// The most memory plan_memory spends on knowing exactly which steps happen before which (a bit
// per pair of steps: about 32,000 steps). Larger graphs are planned on a cheaper relation that
// misses some orderings, so they share less memory, never unsafely.
inline constexpr size_t kMaxReachabilityBytes = size_t{64} << 20;

// plan_memory with that limit chosen by the caller (tests make it small to plan on the cheaper
// relation).
MemoryPlan plan_memory_within(const std::vector<PlanStep>& steps,
                              const std::vector<PlanValue>& values, size_t num_devices,
                              size_t alignment, size_t max_reachability_bytes,
                              bool largest_first = false);

}  // namespace hxrt::detail
