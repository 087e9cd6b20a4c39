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
// A plugin's kernels are tried highest priority first. The decision of a call (its candidates,
// each with its kernel's instances on its device) is cached per (op, T, output dtype, request,
// input devices, mode) in a table read without a lock, so a repeated call finds device, kernel
// and instance in one lookup: the decision, whose candidates keep the first combination they
// met pinned (lock-free), else the instance in the candidate's InstanceSet
// (placement/kernel_instances.hpp). A kernel that may decline is asked on the call itself:
// create once per combination (remembered in that set), check each time place() runs; the
// eager path places a kind of call once (eager/call_plan.hpp), so ABI 2.3 checks run once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "devices/device_manager.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/runtime_options.hpp"
#include "plugins/kernel_registry.hpp"
#include "ops/op_schema.hpp"
#include "base/insert_only_table.hpp"
#include "placement/kernel_instances.hpp"

namespace hxrt::detail {

struct Placement {
  Device* device = nullptr;
  const KernelEntry* kernel = nullptr;
  SharedInstance instance;  // create's instance for the call; NULL without create
  // Why the device differs from the request, or why a kernel was passed over; empty when it
  // is what was asked for (or nothing was asked for).
  std::string reason;
  // A kernel tried for it asks its check before every call (KernelEntry::check_each_call):
  // a later call of the same kind may be placed otherwise.
  bool asked_each_call = false;
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
  // For tests: the decisions kept.
  size_t cached_decisions() const { return decisions_.size(); }

  // A request may name any device, one that does not exist too (soft placement), so kinds of
  // request are without end: past this many decisions kept, new ones are decided per call.
  static constexpr size_t kMostDecisions = 4096;

 private:
  // Input devices are packed into the key by their index (8 bits each, up to 16 inputs); a
  // call with more inputs or devices is decided without the cache.
  static constexpr size_t kMaxKeyedInputs = 16;
  // What a decision is cached by; `requested` views the call's string (no copy per call) or,
  // in a cached Decision, the decision's own copy.
  struct Key {
    const OpSchema* op;
    DType t;
    DType output;
    SoftPlacement mode;
    uint64_t inputs[2];
    size_t num_inputs;
    std::string_view requested;
    bool operator==(const Key& other) const {
      return op == other.op && t == other.t && output == other.output && mode == other.mode &&
             num_inputs == other.num_inputs && inputs[0] == other.inputs[0] &&
             inputs[1] == other.inputs[1] && requested == other.requested;
    }
    size_t hash() const;
  };
  // One (device, kernel) the call may run on, in the order they are tried.
  struct Candidate {
    Device* device;
    const KernelEntry* kernel;
    KernelInstances::InstanceSet* instances;  // the kernel's on this device; NULL without create
    std::unique_ptr<InstancePin> pin;         // with `instances`: this route's first combination
    std::string reason;  // Placement::reason when it is chosen
  };
  // Every candidate of a call, and the error when none accepts it.
  struct Route {
    std::vector<Candidate> candidates;
    StatusCode failure_code = StatusCode::kNotFound;
    std::string failure;
  };
  // A cached route, with the key it answers (InsertOnlyTable's entry).
  class Decision {
   public:
    Decision(const Key& key, Route route);
    size_t hash() const { return hash_; }
    bool matches(const Key& key) const { return key == key_; }
    const Route& route() const { return route_; }

   private:
    std::string requested_;  // key_.requested views it
    Key key_;
    size_t hash_;
    Route route_;
  };

  bool make_key(const PlacementRequest& request, Key& key) const;
  // The call's route: the cached one, or (uncacheable calls) `uncached`, filled.
  const Route& route(const PlacementRequest& request, std::optional<Route>& uncached);
  Route decide(const PlacementRequest& request);
  // Every device's kernels in the type order, but the devices in `tried`.
  void add_by_priority(const std::string& op, DType t, DType output, const std::string& reason,
                       const std::vector<Device*>& tried, Route& route);
  void add_kernels(Device& device, const std::string& op, DType t, DType output,
                   const std::string& reason, Route& route);
  // Whether the candidate's kernel accepts the call; `placement.instance` is set, and
  // `declined` says why not.
  bool accepts(const Candidate& candidate, const PlacementRequest& request,
               Placement& placement, std::string& declined);
  std::string describe_kernels(const std::string& op) const;
  // The kernel's check: true when it runs the call; false with `declined` when it declines.
  static bool checks(const KernelEntry& kernel, const Device& device,
                     hx_kernel_instance* instance, const PlacementRequest& request,
                     std::string& declined);

  const DeviceManager& devices_;
  const KernelRegistry& kernels_;
  std::vector<std::string> type_priority_;
  std::map<const Device*, std::unique_ptr<KernelInstances>> instances_;  // fixed at start
  // After instances_: destroyed first, as its candidates point into instances_.
  InsertOnlyTable<Decision> decisions_;
};

}  // namespace hxrt::detail
