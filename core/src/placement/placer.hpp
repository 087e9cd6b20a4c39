// Chooses the device and kernel for one op call (DESIGN.md, Placement):
//  1. the request (from the call, the innermost device scope or the placement function — the
//     runtime resolves which) names a device that exists and whose plugin has a kernel for T
//     that accepts the call: that device;
//  2. it exists but no kernel of its plugin accepts the call (none registered, or each
//     declined it in create or check): with fallback allowed, the best device that has one,
//     and the reason (with the kernels' own); otherwise "Could not satisfy explicit device
//     specification ...";
//  3. it does not exist: with soft placement, the best device; otherwise
//     "<name> unknown device." with the devices that exist;
//  4. nothing requested: the highest-priority device type with a kernel that accepts the
//     call, lowest id. Types are ordered by placement.device_priority, then by the best
//     placement class among their devices (discrete accelerator, CPU, host accelerator), then
//     by name.
// A plugin's kernels are tried highest priority first. The candidates of a call are cached per
// (op, T, output dtype, request, input devices, mode), so the hot path is one hash lookup; a
// kernel that may decline (create or check) is asked on the call itself, create through the
// device's instance cache (placement/kernel_instances.hpp), check on every call.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "devices/device_manager.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/runtime.hpp"
#include "kernel_registry.hpp"
#include "ops/op_schema.hpp"
#include "placement/kernel_instances.hpp"

namespace hxrt::detail {

struct Placement {
  Device* device = nullptr;
  const KernelEntry* kernel = nullptr;
  SharedInstance instance;  // create's instance for the call; NULL without create
  // Why the device differs from the request, or why a kernel was passed over; empty when it
  // is what was asked for (or nothing was asked for).
  std::string reason;
};

// One op call as the placer sees it.
struct PlacementRequest {
  const OpSchema* op;  // must stay at its address for the placer's life (schemas do)
  DType t;
  DType output;
  const std::string& requested;  // "" when nothing was requested
  Device* const* input_devices;
  size_t num_inputs;
  SoftPlacement mode;
  // For kernels that may decline: the attributes, and the call's views without buffers
  // (dtypes, shapes, strides as the kernel will receive them).
  const Attrs& attrs;
  const hx_tensor_view* inputs;
  const hx_tensor_view* outputs;
  size_t num_outputs;
};

class Placer {
 public:
  // `priority`: device types most preferred first; types not in it follow in the default
  // order (placement class, then name).
  Placer(const DeviceManager& devices, const KernelRegistry& kernels,
         const std::vector<std::string>& priority);
  // Waits for each device's work, then destroys the kernel instances.
  ~Placer();

  // Throws Error (kNotFound / kInvalidArgument) with TensorFlow's texts.
  Placement place(const PlacementRequest& request);

  const std::vector<std::string>& type_priority() const { return type_priority_; }
  // For tests: the instances cached for `device`.
  size_t instance_count(const Device& device) const;

 private:
  // Input devices are packed into the key by their index (8 bits each, up to 16 inputs); a
  // call with more inputs or devices is decided without the cache.
  static constexpr size_t kMaxKeyedInputs = 16;
  struct Key {
    const OpSchema* op;
    DType t;
    DType output;
    SoftPlacement mode;
    std::string requested;
    uint64_t inputs[2];
    size_t num_inputs;
    bool operator==(const Key& other) const;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  // One (device, kernel) the call may run on, in the order they are tried.
  struct Candidate {
    Device* device;
    const KernelEntry* kernel;
    std::string reason;  // Placement::reason when it is chosen
  };
  // Every candidate of a call, and the error when none accepts it.
  struct Route {
    std::vector<Candidate> candidates;
    StatusCode failure_code = StatusCode::kNotFound;
    std::string failure;
  };

  bool make_key(const PlacementRequest& request, Key& key) const;
  // The call's route: the cached one, or (uncacheable calls) `uncached`, filled.
  const Route& route(const PlacementRequest& request, Route& uncached);
  Route decide(const PlacementRequest& request) const;
  // Every device's kernels in the type order, but the devices in `tried`.
  void add_by_priority(const std::string& op, DType t, DType output, const std::string& reason,
                       const std::vector<Device*>& tried, Route& route) const;
  void add_kernels(Device& device, const std::string& op, DType t, DType output,
                   const std::string& reason, Route& route) const;
  // Whether the candidate's kernel accepts the call; `placement.instance` is set, and
  // `declined` says why not.
  bool accepts(const Candidate& candidate, const PlacementRequest& request,
               Placement& placement, std::string& declined);
  std::string describe_kernels(const std::string& op) const;

  const DeviceManager& devices_;
  const KernelRegistry& kernels_;
  std::vector<std::string> type_priority_;
  mutable std::mutex mutex_;
  std::unordered_map<Key, Route, KeyHash> cache_;  // node-based: a Route never moves
  std::map<const Device*, std::unique_ptr<KernelInstances>> instances_;  // fixed at start
};

}  // namespace hxrt::detail
