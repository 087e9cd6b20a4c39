// The heart of the memory planner: packing the values that may share memory into each device's
// arena. (Packing, not placement: placement is which device runs a node, placement/.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/compile/memory_plan.hpp"
#include "graph/compile/step_order.hpp"

namespace hxrt::detail {

// Packs every shareable value of `values` (sizes already aligned, in `sizes`) into its
// device's arena, writing `offsets`; returns each device's arena size. Values go in the order
// of their producers, each into the smallest gap among the values it may not overlap (those not
// dead before its producer), else as low as it can at the top.
std::vector<uint64_t> pack_shared_values(size_t num_steps, const StepOrder& order,
                                         const std::vector<PlanValue>& values,
                                         const std::vector<uint64_t>& sizes, size_t num_devices,
                                         std::vector<uint64_t>& offsets);

}  // namespace hxrt::detail
