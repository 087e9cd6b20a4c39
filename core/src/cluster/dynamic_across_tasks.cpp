#include "cluster/dynamic_across_tasks.hpp"

#include "cluster/cluster_topology.hpp"
#include "cluster/network_probe.hpp"
#include "cluster/plan_on_topology.hpp"
#include "graph/compile/compile_phases.hpp"

namespace hxrt::detail {
namespace {

// Whether an op node the fetches need names no device: something for the placer to choose.
bool has_free_ops(const Graph& graph, const std::vector<NodeOutput>& fetches,
                  const CompileOptions& options) {
  const std::vector<bool> needed = needed_nodes(graph, fetches);
  for (size_t i = 0; i < needed.size(); ++i) {
    const GraphNode& node = graph.nodes()[i];
    const bool op = needed[i] && node.kind == GraphNode::Kind::kOp;
    if (op && request_of(node, options).device->empty()) return true;
  }
  return false;
}

}  // namespace

PlacedAcrossTasks place_across_tasks(ClusterService& service,
                                     const std::shared_ptr<GraphContext>& context,
                                     const Graph& graph, const std::vector<NodeOutput>& fetches,
                                     const CompileOptions& options) {
  PlacedAcrossTasks placed{options, {}};
  Cluster& cluster = service.cluster();
  const int tasks = static_cast<int>(cluster.tasks().size());
  if (options.placer.value_or(context->config.placer) != GraphPlacer::kDynamic || tasks < 2 ||
      !has_free_ops(graph, fetches, options)) {
    return placed;
  }
  const LinkSpeed network = network_to(service, context, (cluster.rank() + 1) % tasks);
  const ClusterTopology topology = topology_of_cluster(cluster, context->devices, network);
  PlacementPlan plan = plan_on_topology(*context, graph, fetches, options, topology,
                                        static_cast<size_t>(cluster.rank()));
  for (NodePlacement& node : plan.nodes) {
    const GraphNode& graph_node = *graph.find(node.node);
    const bool placer_chooses = graph_node.kind == GraphNode::Kind::kOp &&
                                request_of(graph_node, options).device->empty();
    if (!placer_chooses) continue;
    placed.options.placement[node.node] = node.device;
    placed.chosen.emplace(node.node, std::move(node));
  }
  return placed;
}

}  // namespace hxrt::detail
