// This process as a task of a cluster of MPI ranks (docs/cluster.md): which task it is, which
// the others are, and the devices of each, told by every task at start-up.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/device_name.hpp"
#include "base/logger.hpp"
#include "cluster/cluster_spec.hpp"
#include "cluster/transport.hpp"
#include "config/config.hpp"
#include "cost/cost_model.hpp"
#include "hxrt/device_info.hpp"

namespace hxrt::detail {

class Cluster {
 public:
  // Joins the cluster over `transport`: this task's name from "cluster.jobs" (`config`), else
  // from `tf_config` (TensorFlow's TF_CONFIG, "" when unset; cluster/cluster_spec.hpp), else
  // /job:worker/replica:0/task:<rank>.
  Cluster(std::shared_ptr<Transport> transport, const Config& config,
          const std::string& tf_config = "");

  const TaskName& task() const { return tasks_[static_cast<size_t>(rank())]; }
  const std::vector<TaskName>& tasks() const { return tasks_; }
  int rank() const { return transport_->rank(); }
  Transport& transport() const { return *transport_; }

  // Tells every other task this one's devices and learns theirs, within `timeout_ms`
  // (cluster.timeout_ms); where each rank's TF_CONFIG said its task, first the tasks' names.
  // Error(kUnavailable) naming each task that did not answer: it died, hangs, or never created
  // its runtime; Error(kInvalidArgument) when the names the ranks said are not the cluster's.
  void exchange_devices(const std::vector<DeviceInfo>& local, Logger& logger);
  // The other tasks' devices, in rank order.
  const std::vector<DeviceInfo>& remote_devices() const { return remote_devices_; }
  // The canonical name of the host device (its memory the host's) of another task `rank`, by
  // its device table; its CPU:0's name when the table names none.
  std::string remote_host_name(int rank) const {
    const std::string prefix = tasks_[static_cast<size_t>(rank)].prefix();
    for (const DeviceInfo& device : remote_devices_) {
      if (device.task == prefix && device.memory_kind == "host") return device.name;
    }
    return prefix + "/device:CPU:0";
  }

  // A task that did not answer within the timeout is lost: leaving no longer waits for it.
  // Any thread.
  void mark_lost(int rank) {
    lost_[static_cast<size_t>(rank)].store(true);
    transport_->peer_lost(rank);
  }
  bool lost(int rank) const { return lost_[static_cast<size_t>(rank)].load(); }

  // The network between this task and task `rank`, as this task measured it
  // (cluster/network_probe.hpp); nullopt before. Any thread.
  std::optional<LinkSpeed> network(int rank) const {
    std::lock_guard<std::mutex> lock(network_mutex_);
    auto found = network_.find(rank);
    if (found == network_.end()) return std::nullopt;
    return found->second;
  }
  void set_network(int rank, const LinkSpeed& speed) {
    std::lock_guard<std::mutex> lock(network_mutex_);
    network_[rank] = speed;
  }

 private:
  // The tasks' names as each rank said them (TF_CONFIG's "task"), into tasks_; the ranks that
  // did not say theirs within `timeout`, whose names are left as they were.
  std::vector<int> exchange_task_names(std::chrono::milliseconds timeout);

  std::shared_ptr<Transport> transport_;
  std::optional<TfConfig> tf_config_;  // read when cluster.jobs is unset and TF_CONFIG set
  std::vector<TaskName> tasks_;
  int timeout_ms_;
  std::vector<DeviceInfo> remote_devices_;
  std::unique_ptr<std::atomic<bool>[]> lost_;
  mutable std::mutex network_mutex_;
  std::map<int, LinkSpeed> network_;  // guarded by network_mutex_
};

}  // namespace hxrt::detail
