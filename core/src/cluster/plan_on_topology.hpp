// Runtime::plan_placement (docs/cluster.md, "Planning on a topology"): the dynamic placer over
// a cluster described by a ClusterTopology rather than one started, in this process.
#pragma once

#include <vector>

#include "cluster/cluster_topology.hpp"
#include "graph/graph_context.hpp"
#include "hxrt/graph.hpp"
#include "hxrt/placement_plan.hpp"

namespace hxrt::detail {

// Places the nodes `fetches` need over `topology`, planned from its task `client`, by the dynamic
// placer's list scheduling on this runtime's cost model (calibrated first where it knows nothing):
// a topology device runs a node where its like has a kernel for it, in its like's time divided by
// its speed; a copy within a task costs what one between the likes does, and between tasks a copy
// to the source task's host, the network's latency and bandwidth, and a copy from the other task's
// host. A node's request (or a placement given back) is a constraint, matched on the topology's
// names (one naming no task: the client's), under the soft-placement mode where those devices have
// no kernel; a graph input is fed on the client's host, or where CompileOptions::feed_devices says.
// The plan's one-task makespan keeps the nodes the placer chooses on the client.
// Error(kInvalidArgument) names a node whose request names no device of the topology or that no
// device may run.
PlacementPlan plan_on_topology(GraphContext& context, const Graph& graph,
                               const std::vector<NodeOutput>& fetches,
                               const CompileOptions& options, const ClusterTopology& topology,
                               size_t client);

}  // namespace hxrt::detail
