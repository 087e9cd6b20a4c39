// A second way to pack an arena, offline: the values largest first (the longest-lived first
// among those of one size), each at the lowest offset
// where it overlaps no value already placed that it may not share memory with (the rule of
// memory_plan.hpp). TensorFlow Lite's arena planner ("greedy by size") does the same. It
// knows every lifetime before it places anything, so it often leaves less fragmentation than
// placing in production order (shared_arena_packing.hpp); plan_memory keeps, per device,
// whichever arena is smaller, for runs on one thread (memory_plan.hpp). Quadratic in the
// values, so only for graphs of at most kMostValuesBySize of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/compile/memory_plan.hpp"
#include "graph/compile/step_order.hpp"

namespace hxrt::detail {

inline constexpr size_t kMostValuesBySize = 4096;

// Packs every shareable value of `values` (sizes already aligned, in `sizes`) into its
// device's arena, writing `offsets`; returns each device's arena size. At most
// kMostValuesBySize values.
std::vector<uint64_t> pack_by_size(const StepOrder& order, const std::vector<PlanValue>& values,
                                   const std::vector<uint64_t>& sizes, size_t num_devices,
                                   std::vector<uint64_t>& offsets);

}  // namespace hxrt::detail
