// What a graph's compile and runs use of the runtime that made them: references to its parts,
// named one by one, so that the graph layer sees these and nothing else of the runtime's state.
// The runtime owns one (runtime/runtime_impl.hpp); executables hold it by a shared_ptr that
// keeps the runtime alive while they live.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "base/logger.hpp"
#include "config/config.hpp"
#include "cost/cost_model.hpp"
#include "devices/device_manager.hpp"
#include "eager/eager_ops.hpp"
#include "execution/event_waiter.hpp"
#include "graph/run/inter_op_pool.hpp"
#include "hxrt/runtime_options.hpp"
#include "ops/op_schema.hpp"
#include "placement/placer.hpp"
#include "plugins/kernel_registry.hpp"

namespace hxrt {
class Runtime;
}

namespace hxrt::detail {

struct GraphContext {
  EagerOps& eager;  // ops run and tensors copied or placed as the eager path does
  const Config& config;  // read after the runtime is initialised, when it no longer changes
  Logger& logger;
  const OpRegistry& ops;
  const KernelRegistry& kernels;  // which plugins have a kernel for an op (the fusion pass)
  DeviceManager& devices;
  const std::unique_ptr<Placer>& placer;  // set once eager.ensure_initialized() returned
  CostModel& cost_model;                  // the dynamic placer's measurements
  std::mutex& calibration_mutex;          // one calibration at a time
  EventWaiter& event_waiter;              // resumes graph steps that wait for a device
  InterOpPool& inter_op_pool;             // the threads that run graphs
  const std::atomic<bool>& log_placement;
  const std::atomic<SoftPlacement>& soft_placement;
};

// The context of `runtime`'s graphs, sharing ownership of the runtime's state; Error for a
// moved-from Runtime (runtime/graph_context.cpp).
std::shared_ptr<GraphContext> graph_context_of(const Runtime& runtime);

}  // namespace hxrt::detail
