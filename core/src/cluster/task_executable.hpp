// Runtime::compile's way for a graph that places nodes on other tasks (cluster/task_plan.hpp):
// the plan made here, each task's share sent to its service and compiled there, this task's
// compiled here; each run drives them all from here, the client.
#pragma once

#include <memory>
#include <vector>

#include "cluster/cluster_service.hpp"
#include "graph/staged/staged_runs.hpp"

namespace hxrt::detail {

// The executable of `graph` for `fetches` across tasks; nullptr when every node the fetches
// need runs on this task. Error naming the task whose compile of its share failed, with its
// error.
std::unique_ptr<const StagedRuns> compile_across_tasks(ClusterService& service,
                                                       std::shared_ptr<GraphContext> context,
                                                       const Graph& graph,
                                                       const std::vector<NodeOutput>& fetches,
                                                       const CompileOptions& options);

}  // namespace hxrt::detail
