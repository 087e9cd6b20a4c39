// This task's side of the graphs that other tasks place on its devices (docs/cluster.md): a
// thread that takes their requests, a part of a graph to compile, a run of it, its release;
// and, when the runtime goes, stays until every task has said it leaves too, so that no task
// goes while another may still run parts on it.
//
// The requests come on one tag from any task, as MessagePack; each is served in turn on the
// service's thread (a run of a part too). The thread waits by polling (cluster/polling.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/cluster.hpp"
#include "cluster/executable_tags.hpp"
#include "cluster/task_run.hpp"
#include "graph/graph_context.hpp"

namespace hxrt::detail {

class ClusterService {
 public:
  // The tag the requests come on.
  static constexpr int kRequestTag = 2;

  // `context` is the runtime's, held without owning it: the runtime owns the service.
  ClusterService(Cluster& cluster, std::shared_ptr<GraphContext> context);
  // Starts serving, once the runtime is whole: a request may come at once.
  void start();
  // Says this task leaves, then serves until every other task has said it too, or is lost
  // (Cluster::mark_lost): one that died does not hold this one up for ever.
  ~ClusterService();
  ClusterService(const ClusterService&) = delete;
  ClusterService& operator=(const ClusterService&) = delete;

  Cluster& cluster() const { return cluster_; }
  // The longest wait for another task without a message (cluster.timeout_ms).
  std::chrono::milliseconds timeout() const { return timeout_; }

  // Tags for an executable of `values` values that this task compiles, apart from every
  // other executable's of the process and of every other task.
  ExecutableTags new_tags(size_t values);
  // Sends `request` to the service of task `rank`, without waiting for it to be taken.
  void post(int rank, const nlohmann::json& request);

 private:
  // An executable of another task's, this task's share of it.
  struct Hosted {
    CompiledPlan compiled;
    AbandonedSends abandoned;
  };
  using ExecutableId = std::pair<int, uint64_t>;  // (client rank, its number there)

  void serve();
  void handle(const Message& message);
  void compile(int client, const nlohmann::json& request);
  void run(const nlohmann::json& request);
  // Sends of post() that have completed are let go.
  void reap_posted();

  Cluster& cluster_;
  std::shared_ptr<GraphContext> context_;  // the parts', with the placement log off
  const std::chrono::milliseconds timeout_;
  std::map<ExecutableId, std::unique_ptr<Hosted>> hosted_;  // the service thread's only

  std::mutex tags_mutex_;
  int64_t next_slot_ = 0;  // guarded by tags_mutex_

  // A message posted and not yet taken, with its bytes.
  struct Posted {
    int rank;
    std::unique_ptr<Transfer> transfer;
    std::shared_ptr<std::vector<uint8_t>> bytes;
  };
  // Sends `message` to task `rank` at `tag`, as MessagePack, without waiting.
  void send_posted(int rank, int tag, const nlohmann::json& message);

  std::mutex posted_mutex_;
  std::vector<Posted> posted_;  // guarded by posted_mutex_

  std::atomic<bool> leaving_{false};
  std::vector<bool> left_;  // per rank; the service thread's only
  std::thread thread_;
};

}  // namespace hxrt::detail
