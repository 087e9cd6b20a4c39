// Runtime::plan_placement: the dynamic placer over a cluster described in JSON.
#include "cluster/plan_on_topology.hpp"
#include "runtime/runtime_impl.hpp"

namespace hxrt {

std::string PlacementPlan::summary() const { return placement_summary(nodes); }

PlacementPlan Runtime::plan_placement(const Graph& graph, const std::vector<NodeOutput>& fetches,
                                      const std::string& topology_json,
                                      const CompileOptions& options) {
  std::shared_ptr<detail::GraphContext> context = detail::graph_context_of(*this);
  context->eager.ensure_initialized();
  const detail::ClusterTopology topology =
      detail::topology_from_json(topology_json, "plan_placement's topology", context->devices);
  return detail::plan_on_topology(*context, graph, fetches, options, topology, 0);
}

}  // namespace hxrt
