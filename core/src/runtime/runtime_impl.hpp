// The state behind a Runtime handle, in start-up order. Members are destroyed in reverse:
// the placer, then the devices (which keep their plugins alive while tensors hold memory).
//
// Two phases, as TensorFlow's: create() loads plugins and opens physical devices; the device
// setup (visible devices, logical split, memory policies) may change until initialize()
// creates the logical devices and the placer, which the first call needing them does.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "cluster/cluster.hpp"
#include "cluster/cluster_service.hpp"
#include "cluster/remote_calls.hpp"
#include "config/config.hpp"
#include "eager/eager_ops.hpp"
#include "eager/quiet_placement_log.hpp"
#include "cost/cost_model.hpp"
#include "devices/device_manager.hpp"
#include "execution/event_waiter.hpp"
#include "execution/pinned_regions.hpp"
#include "graph/graph_context.hpp"
#include "graph/run/inter_op_pool.hpp"
#include "hxrt/runtime.hpp"
#include "plugins/kernel_registry.hpp"
#include "base/logger.hpp"
#include "ops/op_schema.hpp"
#include "placement/placer.hpp"
#include "eager/call_plan.hpp"
#include "plugins/plugin_loader.hpp"

namespace hxrt {

namespace detail {
// How many device scopes the calling thread has open, of every runtime (device_scope.cpp):
// readable without a thread_local's machinery (a call into the dynamic linker from a shared
// library), as every eager op asks and most threads have none. Initial-exec, as
// memory/thread_cache_slots.hpp explains.
extern __thread size_t t_scope_depth __attribute__((tls_model("initial-exec")));

}  // namespace detail

// final: the eager path's calls through an Impl are direct calls, not virtual ones.
struct Runtime::Impl final : detail::EagerOps {
  std::shared_ptr<detail::Logger> logger = std::make_shared<detail::Logger>();
  detail::Config config;
  detail::OpRegistry ops;
  detail::KernelRegistry kernels;
  detail::LoadedPlugins loaded;
  detail::DeviceManager devices;
  // This process as a task of a cluster (cluster/cluster.hpp); null outside one.
  std::unique_ptr<detail::Cluster> cluster;
  std::unique_ptr<detail::Placer> placer;  // made by initialize()
  // After the placer: destroyed first, as plans hold its kernel instances.
  detail::CallPlans call_plans;
  detail::InterOpPool inter_op_pool;       // runs graphs; made by the first run
  detail::EventWaiter event_waiter;        // resumes graph steps that wait for a device
  detail::CostModel cost_model;            // the dynamic placer's: measured by graph runs
  // Shared with the PinnedMemory handles, which may outlive the runtime.
  std::shared_ptr<detail::PinnedRegions> pinned_regions =
      std::make_shared<detail::PinnedRegions>();
  std::mutex calibration_mutex;            // one calibration at a time
  std::mutex setup_mutex;  // guards config.devices and config.origins, and initialize()
  std::atomic<bool> initialized{false};
  std::atomic<bool> log_placement{false};
  std::atomic<SoftPlacement> soft_placement{SoftPlacement::kFallbackOnMissingKernel};
  std::mutex placement_function_mutex;
  PlacementFunction placement_function;  // guarded by the mutex above
  std::atomic<bool> has_placement_function{false};
  // What the graphs compiled here see of it (graph/graph_context.hpp).
  detail::GraphContext graph_context{*this,           config,          *logger,
                                     ops,             kernels,         devices,
                                     placer,          cost_model,      calibration_mutex,
                                     event_waiter,    inter_op_pool,   log_placement,
                                     soft_placement};
  // Declared last, so destroyed first: work still queued completes, and memory other streams
  // still read is released, before the placer's kernel instances and the devices go.
  struct QuiesceOnExit {
    detail::DeviceManager& devices;
    ~QuiesceOnExit() { devices.quiesce(); }
  } quiesce_on_exit{devices};
  // In a cluster: the service of the graphs other tasks place here (cluster/
  // cluster_service.hpp), and this task's eager ops on their devices (cluster/
  // remote_calls.hpp). Destroyed first, while the devices and kernels their parts use are all
  // there, in an order: the remote calls' graphs (released through the service), then the
  // service, once every task has said it leaves (its parts' ops still reach the remote calls
  // until then).
  struct ClusterRole {
    std::unique_ptr<detail::RemoteCalls> remote_calls;
    std::unique_ptr<detail::ClusterService> service;
    ~ClusterRole() {
      if (remote_calls != nullptr) remote_calls->forget();
      service.reset();
    }
  } cluster_role;

  // Writes the trace this runtime started, if it still runs (trace_control.cpp).
  ~Impl();
  // Starts the trace trace.path / $HXRT_TRACE asks for, at create (trace_control.cpp).
  void start_configured_trace();

  // Creates the logical devices and the placer once; later calls return at once.
  void ensure_initialized() override {
    if (!initialized.load(std::memory_order_acquire)) initialize();
  }
  void initialize();
  // In a cluster: joins it, sets the devices up, and exchanges device tables with every
  // other task (runtime/join_cluster.cpp).
  // `communicator`: RuntimeOptions::mpi_communicator.
  void join_cluster(const void* communicator);
  // A lock on the device setup, for a setter; throws Error(kFailedPrecondition) with
  // `guide_error` (TensorFlow's text) once the runtime is initialised.
  std::unique_lock<std::mutex> lock_setup(const char* guide_error);
  // Keeps effective_config() true to a run-time switch: applies `change` to the config and
  // marks `path` as set by the API.
  template <class Change>
  void record_api_setting(const std::string& path, Change change) {
    std::lock_guard<std::mutex> lock(setup_mutex);
    change(config);
    config.origins[path] = "API";
  }
  // The logical device `name` names ("GPU:0", "/device:GPU:0", ...); Error when none.
  detail::Device& named_device(const std::string& name);

  // Runs one op: shape inference, placement, input copies, output allocation, the kernel. Writes
  // num_outputs_of(schema, attrs, num_inputs) tensors to `outputs`, which must have room for them.
  void run(const detail::OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
           const Attrs& attrs, const std::string& requested, Tensor* outputs) override;
  // run's quick way, for an untraced call of the kind its op's last call was: the call's
  // request and inputs compared with that plan's, then the kernel (run_planned), without
  // run_body's frame. False, having done nothing, when the call is of another kind or needs
  // run_body's bookkeeping. Always inline, in run and in execute, whose calls then have no
  // frame for run either.
  __attribute__((always_inline)) inline bool run_quickly(
      const detail::OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
      const Attrs& attrs, const std::string& requested, Tensor* outputs);
  // run's other way, for any call: run_body, with the trace's hooks or without.
  void run_in_full(const detail::OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
                   const Attrs& attrs, const std::string& requested, Tensor* outputs);
  // run's body, made twice: with the trace's hooks, and without (untraced calls then pay one
  // test of the switch, in run_in_full). Hidden, so that run_in_full calls it directly rather
  // than through the PLT, as a symbol the dynamic linker could interpose would need.
  template <bool kTraced>
  __attribute__((visibility("hidden"))) void run_body(
      const detail::OpSchema& schema, const TensorArg* inputs, size_t num_inputs,
      const Attrs& attrs, const std::string& requested, Tensor* outputs);
  // run_body's way when the op's last plan is not this call's: checks the inputs, then finds
  // the call's plan among those kept, or decides it (placed_now), kept or left in `unkept`.
  const detail::CallPlan& find_or_plan(const detail::CallKey& key,
                                       std::unique_ptr<detail::CallPlan>& unkept,
                                       bool& placed_now);
  // The schema of `op`, or Error(kNotFound) listing the ops that exist.
  const detail::OpSchema& schema_of(const std::string& op) const override;
  // The schema `op` holds; Error(kInvalidArgument) for an empty handle or one that another
  // runtime resolved. Inline: every execute through a handle asks for it.
  const detail::OpSchema& schema_of(const Op& op) const {
    if (op.schema() == nullptr || op.runtime() != this) throw_bad_op(op);
    return *op.schema();
  }
  [[noreturn]] void throw_bad_op(const Op& op) const;
  // Where a new tensor goes: the device `spec` names (the first match), else the innermost
  // scope's, else placement.tensor_device's, else default_tensor_device(). A device that does
  // not exist is an error, or default_tensor_device() under soft placement.
  detail::Device& data_device(const std::string& spec) override;
  // Where TensorFlow puts a tensor made with no device: the first device of the type the
  // placer prefers (placement.device_priority, else the placement-class order).
  detail::Device& default_tensor_device() override;
  // A copy of `tensor` on `device` (the same handle when it is there already); not logged.
  Tensor copy_to(const Tensor& tensor, detail::Device& device) override;
  // The device spec of this thread's innermost scope on this runtime; nullptr outside scopes.
  const std::string* innermost_scope() const override {
    return detail::t_scope_depth == 0 ? nullptr : innermost_scope_on_stack();
  }
  const std::string* innermost_scope_on_stack() const;
  // The placement function's answer for one call ("" when none is set).
  std::string ask_placement_function(const std::string& op, const TensorArg* inputs,
                                     size_t num_inputs);
  // The same for an op described by `info` (a graph node: its inputs' devices as requested).
  std::string ask_placement_function(const OpPlacementInfo& info) override;
};

}  // namespace hxrt
