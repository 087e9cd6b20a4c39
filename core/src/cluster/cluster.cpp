#include "cluster/cluster.hpp"

#include <chrono>
#include <stdexcept>

#include "cluster/cluster_spec.hpp"
#include "cluster/device_table.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

Cluster::Cluster(std::shared_ptr<Transport> transport, const Config& config)
    : transport_(std::move(transport)),
      // An origin is recorded for "cluster.jobs" whenever it is set; unset, it is not quoted.
      tasks_(tasks_of_ranks(config.cluster, transport_->size(),
                            config.cluster.jobs.empty() ? std::string()
                                                        : config.origins.at("/cluster/jobs"))),
      timeout_ms_(config.cluster.timeout_ms),
      lost_(new std::atomic<bool>[tasks_.size()]()) {}

void Cluster::exchange_devices(const std::vector<DeviceInfo>& local, Logger& logger) {
  const std::chrono::milliseconds timeout(timeout_ms_);
  std::vector<int> silent;  // the ranks that did not answer, at joining or at the exchange
  std::vector<std::optional<std::string>> tables;
  try {
    silent = transport_->join(timeout);
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
