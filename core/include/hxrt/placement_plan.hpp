// A placement planned on a cluster described rather than started (docs/cluster.md, "Planning
// on a topology"): where the dynamic placer would run each node of a graph over tasks that
// each have devices like this process's, with a network between them, and why.
#pragma once

#include <string>
#include <vector>

#include "hxrt/executable.hpp"
#include "hxrt/export.hpp"

namespace hxrt {

struct PlacementPlan {
  // Every node the fetches need, in graph order, on a device of the topology (its canonical
  // name: "/job:worker/replica:0/task:17/device:GPU:2"). A node the placer chose carries its
  // reason and one estimate per device of the topology where it could run.
  std::vector<NodePlacement> nodes;
  // The estimated time of one run, from the feeds on the first task's host to the last node.
  double makespan_ms = 0;
  // The same graph's, with the nodes the placer chooses kept to the first task's devices: what
  // spreading it over the cluster gains.
  double one_task_makespan_ms = 0;
  // How many tasks run at least one node.
  int tasks_used = 0;

  // hxrt::placement_summary(nodes).
  HXRT_API std::string summary() const;
};

}  // namespace hxrt
