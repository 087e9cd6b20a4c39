// Chooses the device and kernel for one op call (DESIGN.md, Placement):
//  1. the request (from the call, the innermost device scope or the placement function — the
//     runtime resolves which) names a device that exists and has a kernel for T: that device;
//  2. it exists but has no kernel: with fallback allowed, the best device that has one, and
//     the reason; otherwise "Could not satisfy explicit device specification ...";
//  3. it does not exist: with soft placement, the best device; otherwise
//     "<name> unknown device." with the devices that exist;
//  4. nothing requested: the highest-priority device type with a kernel, lowest id.
// Kernel priority orders kernels within a device type (the registry keeps them sorted).
// Decisions are cached per (op, T, output dtype, request, input devices, mode), so the hot
// path is one hash lookup.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "devices/device_manager.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/runtime.hpp"
#include "kernel_registry.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

struct Placement {
  Device* device = nullptr;
  const KernelEntry* kernel = nullptr;
  // Why the device differs from the request; empty when it is what was asked for (or nothing
  // was asked for).
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
};

class Placer {
 public:
  // `priority`: device types most preferred first; types not in it follow in the default
  // order: GPU, other accelerator types by name, CPU.
  Placer(const DeviceManager& devices, const KernelRegistry& kernels,
         const std::vector<std::string>& priority);

  // Throws Error (kNotFound / kInvalidArgument) with TensorFlow's texts.
  Placement place(const PlacementRequest& request);

  const std::vector<std::string>& type_priority() const { return type_priority_; }

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

  bool make_key(const PlacementRequest& request, Key& key) const;
  Placement decide(const PlacementRequest& request) const;
  Placement best_by_priority(const std::string& op, DType t, DType output) const;

  const DeviceManager& devices_;
  const KernelRegistry& kernels_;
  std::vector<std::string> type_priority_;
  std::mutex mutex_;
  std::unordered_map<Key, Placement, KeyHash> cache_;
};

}  // namespace hxrt::detail
