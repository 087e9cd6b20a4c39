#include "cluster/cluster.hpp"

#include <chrono>
#include <stdexcept>

#include "cluster/cluster_spec.hpp"
#include "cluster/device_table.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {
namespace {

std::string origin_of(const Config& config, const std::string& path) {
  auto found = config.origins.find(path);
  return found == config.origins.end() ? std::string("the defaults") : found->second;
}

}  // namespace

Cluster::Cluster(std::shared_ptr<Transport> transport, const Config& config)
    : transport_(std::move(transport)),
      tasks_(tasks_of_ranks(config.cluster, transport_->size(),
                            origin_of(config, "/cluster/jobs"))),
      timeout_ms_(config.cluster.timeout_ms) {}

void Cluster::exchange_devices(const std::vector<DeviceInfo>& local, Logger& logger) {
  std::vector<std::optional<std::string>> tables;
  try {
    const std::vector<int> absent = transport_->join(std::chrono::milliseconds(timeout_ms_));
    tables.resize(tasks_.size(), std::string());
    for (int rank : absent) tables[static_cast<size_t>(rank)].reset();
    if (absent.empty()) {
      tables = transport_->exchange(device_table_text(local),
                                    std::chrono::milliseconds(timeout_ms_));
    }
  } catch (const std::runtime_error& e) {
    throw Error(StatusCode::kUnavailable,
                task().prefix() + ": the tasks' device tables could not be exchanged: " +
                    e.what());
  }
  std::string silent;
  for (size_t rank = 0; rank < tables.size(); ++rank) {
    if (!tables[rank]) silent += (silent.empty() ? "" : ", ") + tasks_[rank].prefix();
  }
  if (!silent.empty()) {
    throw Error(StatusCode::kUnavailable,
                task().prefix() + " waited " + std::to_string(timeout_ms_) +
                    " ms at start-up for the devices of " + silent +
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
