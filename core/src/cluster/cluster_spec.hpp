// Which task of which job each MPI rank is: "cluster.jobs" laid over the ranks there are.
#pragma once

#include <vector>

#include "base/device_name.hpp"
#include "config/config.hpp"

namespace hxrt::detail {

// One TaskName per rank of a cluster of `size` ranks, in rank order. Without "cluster.jobs",
// rank r is /job:worker/replica:0/task:r. With them, every rank 0 to size - 1 must be listed
// once: Error(kInvalidArgument) naming `source` and the rank missing or out of range.
std::vector<TaskName> tasks_of_ranks(const ClusterSettings& settings, int size,
                                     const std::string& source);

}  // namespace hxrt::detail
