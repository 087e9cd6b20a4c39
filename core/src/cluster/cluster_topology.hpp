// The cluster as the dynamic placer plans over it (docs/cluster.md, "Planning on a
// topology"): tasks, each with devices that are like one of this process's (that device's
// kernels, its measured speed scaled, its memory), and a network between any two tasks. Read
// from JSON, so that a cluster of 64 tasks can be planned, explained and tested in one process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/device_name.hpp"
#include "cluster/cluster.hpp"
#include "cost/cost_model.hpp"
#include "devices/device_manager.hpp"

namespace hxrt::detail {

struct TopologyDevice {
  std::string name;        // "/job:worker/replica:0/task:17/device:GPU:2"
  std::string short_name;  // "task:17/GPU:2", for explanations
  size_t task = 0;         // index into ClusterTopology::tasks
  std::string type;        // its like's
  int index = 0;           // among its task's devices of its type
  Device* like = nullptr;  // this process's device whose kernels it has
  double speed = 1;        // its kernels take like's time divided by this
  uint64_t memory_bytes = UINT64_MAX;  // what one run's outputs may take there
};

struct ClusterTopology {
  std::vector<TaskName> tasks;
  std::vector<TopologyDevice> devices;  // task by task
  LinkSpeed network;                    // between the hosts of any two tasks
};

// The most devices a topology may have, all tasks together: a bound on what a plan costs.
inline constexpr size_t kMaxTopologyDevices = 4096;

// The topology a JSON text describes:
//   {"job": "worker",
//    "tasks": [{"count": 60, "devices": [{"like": "/CPU:0"}, {"like": "/GPU:0", "count": 4}]},
//              {"count": 4, "devices": [{"like": "/CPU:0", "speed": 2, "memory_mb": 1024}]}],
//    "network": {"gigabytes_per_second": 12.5, "latency_us": 5}}
// "like" names a device of `devices`. Error(kInvalidArgument) from `source` naming the JSON
// pointer of what is wrong, and what is expected there.
ClusterTopology topology_from_json(const std::string& text, const std::string& source,
                                   const DeviceManager& devices);

// The cluster this process is a task of, as the dynamic placer plans over it: this task's
// devices as they are; another task's each like this task's device of the same plugin and type,
// else of the same type, else like its host (so that a kind of device this task lacks is
// planned as a host); the network between any two tasks as `network`.
ClusterTopology topology_of_cluster(const Cluster& cluster, const DeviceManager& devices,
                                    const LinkSpeed& network);

// Whether `spec` (a request) leaves `device` in.
bool topology_admits(const ClusterTopology& topology, const TopologyDevice& device,
                     const DeviceSpec& spec);

}  // namespace hxrt::detail
