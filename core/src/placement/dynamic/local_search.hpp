// What closes the gap between HEFT's greedy choices and the best assignment. HEFT places each
// task where it finishes first, blind to what that does to the tasks after it: a fast device
// taken by a task that could have waited, a group of tasks split across devices when the data
// between them costs more than the split gains. The search starts from HEFT's assignment and
// from every device alone (the answer when transfers dominate), descends from each with moves
// that the makespan measures (single tasks; groups of tasks that share data on one device; two
// devices' tasks swapped), then descends again from kicked assignments (a few tasks of the best
// moved, or all of them drawn anew, from a fixed seed so that the result is the same every
// time), keeping what is better, until kicks stop paying or the budget of evaluations is spent.
// On graphs of up to ten tasks this lands within a few percent of the optimum (bench/README.md,
// hxrt_placer_bench); on big ones the budget allows little more than measuring the starts.
#pragma once

#include <cstddef>
#include <vector>

#include "placement/dynamic/makespan_evaluator.hpp"
#include "placement/dynamic/schedule_problem.hpp"

namespace hxrt::detail {

// The best assignment found within `max_evaluations` evaluations, never slower than `heft`
// (which must be one that can run, as the result is).
std::vector<size_t> improve_assignment(const ScheduleProblem& problem,
                                       MakespanEvaluator& evaluate, std::vector<size_t> heft,
                                       size_t max_evaluations);

}  // namespace hxrt::detail
