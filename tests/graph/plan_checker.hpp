// A memory plan checked by brute force against the rule it must keep, with reachability
// computed naively: independent of the planner's own reasoning.
#pragma once

#include <string>
#include <vector>

#include "graph/compile/memory_plan.hpp"

namespace hxrt_test {

// What is wrong with `plan`, or "" when nothing is: offsets not multiples of `alignment`, a value
// beyond its arena, unshared_bytes not the sum of aligned sizes, an arena larger than that sum,
// an unshareable value overlapping another, or two values overlapping although neither is dead
// (its producer and every reader an ancestor of the other's producer) before the other starts.
std::string plan_problem(const std::vector<hxrt::detail::PlanStep>& steps,
                         const std::vector<hxrt::detail::PlanValue>& values, size_t num_devices,
                         size_t alignment, const hxrt::detail::MemoryPlan& plan);

}  // namespace hxrt_test
