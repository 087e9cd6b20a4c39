// The order in which the list scheduler places tasks: HEFT's upward rank (Topcuoglu, Hariri and
// Wu, 2002), the longest path from a task to the end of the graph in mean costs, highest first.
// A task's mean cost is the mean of its seconds over the devices it may run on; an edge's is
// the expected transfer when producer and consumer go to allowed devices chosen at random, a
// shared device costing nothing (so two tasks pinned together have no edge cost, and one that
// only orders costs nothing); over more than 32 allowed devices a side, 32 spread evenly over
// them stand for them all. The order depends on the problem alone, never on an assignment,
// so that every assignment is simulated in the same order (makespan_evaluator.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "placement/dynamic/schedule_problem.hpp"

namespace hxrt::detail {

// Task indices by decreasing upward rank, ties by increasing index: a topological order, since
// a task's rank is at least every successor's. The problem must be valid (validate_problem).
std::vector<size_t> upward_rank_order(const ScheduleProblem& problem);

}  // namespace hxrt::detail
