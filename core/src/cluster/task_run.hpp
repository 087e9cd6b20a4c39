// One run of one task's share of a graph across tasks (cluster/task_plan.hpp): the receives
// posted at once, then stage by stage: wait for what the part reads, run it, send what other
// tasks read of it; at the end, wait for the rest to come and for the sends to be taken.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "cluster/cluster.hpp"
#include "cluster/executable_tags.hpp"
#include "cluster/task_plan.hpp"
#include "cluster/transport.hpp"
#include "graph/executable_impl.hpp"

namespace hxrt::detail {

// A task's plan with its parts compiled here, one per stage (nullptr for a collective's).
struct CompiledPlan {
  TaskPlan plan;
  std::vector<PartValue> values;
  std::vector<std::shared_ptr<const ExecutableImpl>> parts;
  std::vector<int> participants;  // the ranks of every task with work in the executable
  ExecutableTags tags;
};

// What a run waits with and reports to.
struct RunSetting {
  Cluster& cluster;  // a task waited for in vain is marked lost there
  EagerOps& eager;   // copies to the host of what is sent from another device
  Device& host;
  std::chrono::milliseconds timeout;  // the longest wait without a message (cluster.timeout_ms)
};

// Sends and collectives that a failed run left in flight, and what keeps the memory they use:
// a peer may still take part in them, so they are kept until their executable goes.
class AbandonedSends {
 public:
  void keep(std::unique_ptr<Transfer> transfer, std::shared_ptr<const void> memory) {
    std::lock_guard<std::mutex> lock(mutex_);
    sends_.emplace_back(std::move(transfer), std::move(memory));
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::unique_ptr<Transfer>, std::shared_ptr<const void>>> sends_;
};

// Runs `compiled` once on this task. `values` has an entry per value of the plan: the graph
// inputs set (on the client), and on return what this task computed and received. A failure
// here is told to the other tasks, then thrown; one of another task's is thrown as its task
// told it; a wait of longer than the timeout with nothing coming throws Error(kUnavailable)
// naming the task waited for, which is then lost (Cluster::mark_lost).
void run_task_plan(const CompiledPlan& compiled, const RunSetting& setting,
                   std::vector<Tensor>& values, AbandonedSends& abandoned);

}  // namespace hxrt::detail
