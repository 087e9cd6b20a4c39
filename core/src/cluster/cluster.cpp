#include "cluster/cluster.hpp"

#include <chrono>
#include <stdexcept>

#include "cluster/cluster_spec.hpp"
#include "cluster/device_table.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

Cluster::Cluster(std::shared_ptr<Transport> transport, const Config& config,
                 const std::string& tf_config)
    : transport_(std::move(transport)),
      timeout_ms_(config.cluster.timeout_ms),
      lost_(new std::atomic<bool>[static_cast<size_t>(transport_->size())]()) {
  if (!config.cluster.jobs.empty() || tf_config.empty()) {
    // An origin is recorded for "cluster.jobs" whenever it is set; unset, it is not quoted.
    tasks_ = tasks_of_ranks(config.cluster, transport_->size(),
                            config.cluster.jobs.empty() ? std::string()
                                                        : config.origins.at("/cluster/jobs"));
    return;
  }
  tf_config_ = read_tf_config(tf_config);
  tasks_ = tasks_of_tf_config(*tf_config_, transport_->size());
  // The others' names come at the exchange, where each says its own.
  if (tf_config_->task) tasks_[static_cast<size_t>(rank())] = *tf_config_->task;
}

std::vector<int> Cluster::exchange_task_names(std::chrono::milliseconds timeout) {
  const std::vector<std::optional<std::string>> said =
      transport_->exchange(task().prefix(), timeout);
  std::vector<int> silent;
  for (size_t rank = 0; rank < said.size(); ++rank) {
    if (!said[rank]) silent.push_back(static_cast<int>(rank));
  }
  if (!silent.empty()) return silent;
  std::vector<TaskName> named = tasks_;
  for (size_t rank = 0; rank < said.size(); ++rank) {
    DeviceSpec spec;
    try {
      spec = parse_device_name(*said[rank]);
    } catch (const Error&) {
    }
    if (spec.job.empty() || spec.task < 0) {
      throw Error(StatusCode::kInvalidArgument,
                  "rank " + std::to_string(rank) + " said it is '" + *said[rank] +
                      "', which is no task's name");
    }
    named[rank] = {spec.job, spec.task};
  }
  check_tasks_said(*tf_config_, named);
  tasks_ = std::move(named);
  return silent;
}

void Cluster::exchange_devices(const std::vector<DeviceInfo>& local, Logger& logger) {
  const std::chrono::milliseconds timeout(timeout_ms_);
  std::vector<int> silent;  // the ranks that did not answer, at joining or at the exchange
  std::vector<std::optional<std::string>> tables;
  try {
    silent = transport_->join(timeout);
    if (silent.empty() && tf_config_ && tf_config_->task) silent = exchange_task_names(timeout);
    if (silent.empty()) tables = transport_->exchange(device_table_text(local), timeout);
  } catch (const std::runtime_error& e) {
    throw Error(StatusCode::kUnavailable,
                task().prefix() + ": the tasks' device tables could not be exchanged: " +
                    e.what());
  }
  for (size_t rank = 0; rank < tables.size(); ++rank) {
    if (!tables[rank]) silent.push_back(static_cast<int>(rank));
  }
  if (!silent.empty()) {
    std::string names;
    for (int rank : silent) {
      names += (names.empty() ? "" : ", ") + tasks_[static_cast<size_t>(rank)].prefix();
    }
    throw Error(StatusCode::kUnavailable,
                task().prefix() + " waited " + std::to_string(timeout_ms_) +
                    " ms at start-up for the devices of " + names +
                    ", which did not answer: each task must create its runtime (a task that "
                    "died or hangs never does); cluster.timeout_ms sets the wait");
  }
  remote_devices_.clear();
  for (size_t rank = 0; rank < tables.size(); ++rank) {
    if (static_cast<int>(rank) == this->rank()) continue;
    for (DeviceInfo& device : read_device_table(*tables[rank], tasks_[rank].prefix())) {
      remote_devices_.push_back(std::move(device));
    }
  }
  logger.log(LogLevel::kInfo, task().prefix() + " of a cluster of " +
                                  std::to_string(tasks_.size()) + " tasks (" +
                                  transport_->library() + "): " +
                                  std::to_string(remote_devices_.size()) +
                                  " devices of other tasks");
}

}  // namespace hxrt::detail
