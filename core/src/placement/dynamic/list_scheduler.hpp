// The dynamic placer's list scheduler: a pure function from a scheduling problem (the graph's
// nodes as tasks with estimated costs, schedule_problem.hpp) to a device per task, with the
// estimates that explain each choice. HEFT (Topcuoglu, Hariri and Wu 2002: tasks by upward rank
// on mean costs, each on the device where it finishes first, inserted into idle gaps), then a
// bounded search around its assignment that keeps what shortens the makespan
// (local_search.hpp). A task may thus end up where it finishes later than it could have (its
// finish_on shows it) when that lets the graph as a whole finish sooner.
#pragma once

#include <cstddef>
#include <vector>

#include "placement/dynamic/schedule_problem.hpp"

namespace hxrt::detail {

// Throws Error(kInvalidArgument) for an inconsistent problem (validate_problem; a task-specific
// one as ScheduleTaskError) and ScheduleTaskError(kOutOfMemory) when a task fits no allowed
// device's memory budget beside the tasks placed before it (in rank order).
Schedule schedule(const ScheduleProblem& problem);

// The makespan of a given assignment (device per task) under the same model as schedule's
// estimates (list_simulation.hpp, tasks in upward-rank order): +infinity for one that cannot
// run (a task where it may not run, a device over its budget). For many assignments of one
// problem, MakespanEvaluator checks and ranks the problem once.
double makespan_of(const ScheduleProblem& problem, const std::vector<size_t>& assignment);

}  // namespace hxrt::detail
