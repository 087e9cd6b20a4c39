// The network between two tasks as the dynamic placer models it (docs/dynamic-placer.md):
// given by cluster.network, or measured as its other links are (eager/calibration.hpp), at the
// first dynamic compile that may place nodes on another task, by round trips to the next task.
#pragma once

#include <memory>

#include "cluster/cluster_service.hpp"
#include "cost/cost_model.hpp"

namespace hxrt::detail {

// An Identity on the host of task `peer`, run from here: 16 bytes and 1 MiB there and back,
// each the fastest of three after a warm-up. Latency: half the small round trip; bandwidth:
// the large round trip's extra bytes, both ways, over its extra time. Error as a run's.
LinkSpeed measure_network(ClusterService& service, const std::shared_ptr<GraphContext>& context,
                          int peer);

// The network to task `peer`: cluster.network where the config gives it, else as the Cluster
// keeps it, measured first when it was not yet.
LinkSpeed network_to(ClusterService& service, const std::shared_ptr<GraphContext>& context,
                     int peer);

}  // namespace hxrt::detail
