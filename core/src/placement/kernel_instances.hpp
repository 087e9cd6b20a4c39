// The kernel instances of one device (ONNX Runtime's kernel-create pattern): made once per
// (kernel, attributes, input and output dtypes) by the kernel's create function, kept for
// later calls, and destroyed once, after the work of every call that used them completed.
// A create that declines (UNIMPLEMENTED) is remembered too: it declines every call of its
// combination. The cache is bounded; the least recently used combination goes first (an
// InstancePin may keep its instance alive past that, until the placer goes).
//
// The placer's cached decisions point straight at the InstanceSet of each candidate kernel, so
// a repeated call finds its instance in that one set, by a fingerprint of the attributes and
// dtypes that hashes no attribute name, then by exact comparison. Every decision that places
// a call on the same kernel and device shares its set, hence its instances.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "hxrt/attrs.hpp"
#include "hxrt/plugin_api.h"
#include "plugins/kernel_registry.hpp"
#include "base/attr_identity.hpp"

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

// One call's combination as create receives it.
struct InstanceRequest {
  const Attrs& attrs;
  const int32_t* input_dtypes;
  size_t num_inputs;
  const int32_t* output_dtypes;
  size_t num_outputs;
};

// A combination as the cache keeps it.
struct Combination {
  static Combination of(const InstanceRequest& request);
  // Exact: equal dtypes and the same attributes (types/attr_identity.hpp). Inline: every
  // cached call asks it.
  bool matches(const InstanceRequest& request) const {
    if (num_inputs != request.num_inputs ||
        dtypes.size() != request.num_inputs + request.num_outputs) {
      return false;
    }
    const int32_t* dtype = dtypes.data();
    for (size_t i = 0; i < request.num_inputs; ++i) {
      if (dtype[i] != request.input_dtypes[i]) return false;
    }
    for (size_t i = 0; i < request.num_outputs; ++i) {
      if (dtype[request.num_inputs + i] != request.output_dtypes[i]) return false;
    }
    return same_attrs(attrs, request.attrs);
  }

  Attrs attrs;
  std::vector<int32_t> dtypes;  // inputs, then outputs
  size_t num_inputs;
};

class KernelInstances {
 public:
  static constexpr size_t kMaxInstances = 4096;

  // The instances of one kernel (which has create) on this device; it lives as long as its
  // KernelInstances, at one address.
  class InstanceSet;

  explicit KernelInstances(Device& device);
  // Waits for the device's work, then destroys every instance no call holds.
  ~KernelInstances();
  KernelInstances(const KernelInstances&) = delete;
  KernelInstances& operator=(const KernelInstances&) = delete;

  // The set of `kernel`'s instances, made empty the first time it is asked for.
  InstanceSet& set_of(const KernelEntry& kernel);

  // The instance of the set's kernel for this combination, made now if there is none. Throws
  // Error for a create that fails other than by declining: INVALID_ARGUMENT (a bad attribute)
  // and every other code keep the plugin's code.
  InstanceLookup get(InstanceSet& set, const InstanceRequest& request);

 private:
  InstanceLookup create(const KernelEntry& kernel, const InstanceRequest& request);
  // Forgets the least recently used combination; returns its instance for the caller to let
  // go of outside the lock.
  SharedInstance evict_least_recently_used();

  Device& device_;
  mutable std::mutex mutex_;
  std::map<const KernelEntry*, std::unique_ptr<InstanceSet>> sets_;
  size_t count_ = 0;  // combinations in every set
  uint64_t clock_ = 0;
};

class KernelInstances::InstanceSet {
 public:
  InstanceSet(KernelInstances& owner, const KernelEntry& kernel)
      : owner_(owner), kernel_(kernel) {}

  // KernelInstances::get on this set.
  InstanceLookup get(const InstanceRequest& request) { return owner_.get(*this, request); }

 private:
  friend class KernelInstances;
  struct Entry {
    uint64_t fingerprint;
    Combination combination;
    InstanceLookup lookup;
    uint64_t last_use;

    bool matches(uint64_t hash, const InstanceRequest& request) const {
      return fingerprint == hash && combination.matches(request);
    }
    // What the call receives; marks the entry used at `now`.
    InstanceLookup use(uint64_t now);
  };

  Entry* find(uint64_t fingerprint, const InstanceRequest& request);

  KernelInstances& owner_;
  const KernelEntry& kernel_;
  std::mutex create_mutex_;  // held while the kernel's create runs
  // Guarded by the owner's mutex: the entries by fingerprint, and the one found last.
  std::unordered_multimap<uint64_t, Entry> entries_;
  Entry* recent_ = nullptr;
};

// The first combination one cached placement decision's candidate met, kept beside the
// decision and read without a lock: a loop of equal calls finds its instance here, without
// the set's mutex or fingerprint. Set once; other combinations go to the InstanceSet. It owns
// a reference to the instance, so the instance lives until the pin goes with its decision.
class InstancePin {
 public:
  InstancePin() = default;
  ~InstancePin() { delete pinned_.load(std::memory_order_acquire); }
  InstancePin(const InstancePin&) = delete;
  InstancePin& operator=(const InstancePin&) = delete;

  // What create said of `request`'s combination, when it is the pinned one; else NULL.
  const InstanceLookup* find(const InstanceRequest& request) const {
    const Pinned* pinned = pinned_.load(std::memory_order_acquire);
    return pinned != nullptr && pinned->combination.matches(request) ? &pinned->lookup
                                                                     : nullptr;
  }
  // Pins `lookup` as `request`'s combination, unless a combination is pinned already.
  void pin(const InstanceRequest& request, const InstanceLookup& lookup);

 private:
  struct Pinned {
    Combination combination;
    InstanceLookup lookup;
  };
  std::atomic<Pinned*> pinned_{nullptr};
};

}  // namespace hxrt::detail
