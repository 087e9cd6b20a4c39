// Eager ops on another task's device (docs/cluster.md, "Eager ops on other tasks"): each call
// is a graph of one node, its inputs fed from here and its outputs fetched back, compiled
// across tasks once per kind of call (op, attributes, inputs' dtypes and shapes, device) and
// kept, so that a call is one round trip: the inputs go, the op runs there, the outputs come
// back to this task's host memory.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "cluster/cluster_service.hpp"
#include "graph/staged/staged_runs.hpp"

namespace hxrt::detail {

class RemoteCalls {
 public:
  // The most kinds of call kept; past it they are compiled again.
  static constexpr size_t kKept = 256;

  // `context` is the runtime's, held without owning it: the runtime owns these.
  RemoteCalls(ClusterService& service, std::shared_ptr<GraphContext> context)
      : service_(service), context_(std::move(context)) {}

  // Whether `request` names a task of the cluster other than this one. Cheap for a request
  // that names no job or task, as most do.
  bool names_another_task(const std::string& request) const;

  // Runs `schema`'s op on `inputs` on the device `request` names, of another task, as
  // Runtime::execute does here: writes its outputs (on this task's host) to `outputs`. Error
  // as a graph across tasks gives it (placement, a failed run naming the task).
  void run(const OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
           const Attrs& attrs, const std::string& request, Tensor* outputs);

  // Lets the kept graphs go (their parts on the other tasks too), as the runtime goes.
  void forget() {
    std::lock_guard<std::mutex> lock(mutex_);
    kept_.clear();
  }

 private:
  ClusterService& service_;
  std::shared_ptr<GraphContext> context_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const StagedRuns>> kept_;  // guarded by mutex_
};

}  // namespace hxrt::detail
