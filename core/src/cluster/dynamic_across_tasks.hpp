// The dynamic placer across the tasks of a cluster (docs/cluster.md, "Placing by cost across
// tasks"): the needed op nodes that name no device are placed over every task's devices
// (cluster/plan_on_topology.hpp), on the network measured to the next task, and the devices it
// chose are given to the plan as a placement given back.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cluster/cluster_service.hpp"
#include "hxrt/executable.hpp"
#include "hxrt/graph.hpp"

namespace hxrt::detail {

struct PlacedAcrossTasks {
  CompileOptions options;  // the compile's, the placer's choices added to its placement
  std::map<std::string, NodePlacement> chosen;  // the nodes it placed, with its reasons
};

// `options` as they are where the placer is not dynamic (CompileOptions::placer, else
// placement.placer), the cluster has one task, or every op node names its device.
PlacedAcrossTasks place_across_tasks(ClusterService& service,
                                     const std::shared_ptr<GraphContext>& context,
                                     const Graph& graph, const std::vector<NodeOutput>& fetches,
                                     const CompileOptions& options);

}  // namespace hxrt::detail
