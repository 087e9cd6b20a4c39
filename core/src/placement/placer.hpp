// Chooses the device and kernel for one op call. Decisions are cached per
// (op, T, output dtype, requested device), so the hot path is one hash lookup.
//
// Rules (DESIGN.md, Placement; the full set with scopes and soft placement grows here):
//  - a requested device that exists and has a kernel for T: that device;
//  - requested but no kernel there: "Could not satisfy explicit device specification ...";
//  - requested but no such device: "<name> unknown device." with the devices that exist;
//  - nothing requested: the highest-priority device type with a kernel, lowest id.
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "devices/device_manager.hpp"
#include "hxrt/dtype.hpp"
#include "kernel_registry.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

struct Placement {
  Device* device = nullptr;
  const KernelEntry* kernel = nullptr;
};

class Placer {
 public:
  Placer(const DeviceManager& devices, const KernelRegistry& kernels);

  // Throws Error (kNotFound / kInvalidArgument) with TensorFlow's texts. `op` must stay at
  // its address for the placer's life (schemas do): the cache keys on it.
  Placement place(const OpSchema& op, DType t, DType output, const std::string& requested);

  // Device types in placement order: GPU, other accelerator types (by name), CPU.
  const std::vector<std::string>& type_priority() const { return type_priority_; }

 private:
  struct Key {
    const OpSchema* op;
    DType t;
    DType output;
    std::string requested;
    bool operator==(const Key& other) const {
      return t == other.t && output == other.output && op == other.op &&
             requested == other.requested;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };

  Placement decide(const std::string& op, DType t, DType output,
                   const std::string& requested) const;
  Placement best_by_priority(const std::string& op, DType t, DType output) const;

  const DeviceManager& devices_;
  const KernelRegistry& kernels_;
  std::vector<std::string> type_priority_;
  std::mutex mutex_;
  std::unordered_map<Key, Placement, KeyHash> cache_;
};

}  // namespace hxrt::detail
