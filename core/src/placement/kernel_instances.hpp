// The kernel instances of one device (ONNX Runtime's kernel-create pattern): made once per
// (kernel, attributes, input and output dtypes) by the kernel's create function, kept for
// later calls, and destroyed once, after the work of every call that used them completed.
// A create that declines (UNIMPLEMENTED) is remembered too: it declines every call of its
// combination. The cache is bounded; the least recently used combination goes first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/plugin_api.h"
#include "kernel_registry.hpp"

namespace hxrt::detail {

class Device;

// An instance shared by the calls that use it; the last owner destroys it.
using SharedInstance = std::shared_ptr<hx_kernel_instance>;

// What create said of one combination: an instance (which may be NULL: no state), or why the
// kernel declines it.
struct InstanceLookup {
  SharedInstance instance;
  bool declined = false;
  std::string reason;  // create's message, when declined
};

class KernelInstances {
 public:
  static constexpr size_t kMaxInstances = 4096;

  explicit KernelInstances(Device& device) : device_(device) {}
  // Waits for the device's work, then destroys every instance no call holds.
  ~KernelInstances();
  KernelInstances(const KernelInstances&) = delete;
  KernelInstances& operator=(const KernelInstances&) = delete;

  // The instance of `kernel` (which has create) for this combination, made now if there is
  // none. Throws Error for a create that fails other than by declining: INVALID_ARGUMENT
  // (a bad attribute) and every other code keep the plugin's code.
  InstanceLookup get(const KernelEntry& kernel, const Attrs& attrs, const int32_t* input_dtypes,
                     size_t num_inputs, const int32_t* output_dtypes, size_t num_outputs);

  size_t size() const;

 private:
  struct Entry {
    const KernelEntry* kernel;
    Attrs attrs;
    std::vector<int32_t> dtypes;  // inputs, then outputs
    size_t num_inputs;
    InstanceLookup lookup;
    uint64_t last_use;
  };

  InstanceLookup create(const KernelEntry& kernel, const Attrs& attrs,
                        const int32_t* input_dtypes, size_t num_inputs,
                        const int32_t* output_dtypes, size_t num_outputs);
  // Forgets the least recently used combination; returns its instance for the caller to let
  // go of outside the lock.
  SharedInstance evict_least_recently_used();

  Device& device_;
  mutable std::mutex mutex_;
  std::unordered_multimap<size_t, Entry> entries_;  // by hash of the combination
  uint64_t clock_ = 0;
};

}  // namespace hxrt::detail
