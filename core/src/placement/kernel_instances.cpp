#include "placement/kernel_instances.hpp"

#include <algorithm>

#include "devices/device.hpp"
#include "base/attr_identity.hpp"
#include "plugins/core_handle.hpp"
#include "base/status.hpp"

namespace hxrt::detail {
namespace {

uint64_t fingerprint(const InstanceRequest& request) {
  uint64_t hash = attrs_fingerprint(request.attrs);
  for (size_t i = 0; i < request.num_inputs; ++i) {
    hash = mix_fingerprint(hash, static_cast<uint32_t>(request.input_dtypes[i]));
  }
  hash = mix_fingerprint(hash, request.num_inputs);
  for (size_t i = 0; i < request.num_outputs; ++i) {
    hash = mix_fingerprint(hash, static_cast<uint32_t>(request.output_dtypes[i]));
  }
  return hash;
}

}  // namespace

KernelInstances::KernelInstances(Device& device) : device_(device) {}

KernelInstances::~KernelInstances() {
  try {
    device_.synchronize();
  } catch (const Error&) {
    // The device's error has no one to go to now; its instances still go.
  }
}

KernelInstances::InstanceSet& KernelInstances::set_of(const KernelEntry& kernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::unique_ptr<InstanceSet>& set = sets_[&kernel];
  if (set == nullptr) set = std::make_unique<InstanceSet>(*this, kernel);
  return *set;
}

Combination Combination::of(const InstanceRequest& request) {
  std::vector<int32_t> dtypes(request.input_dtypes, request.input_dtypes + request.num_inputs);
  dtypes.insert(dtypes.end(), request.output_dtypes,
                request.output_dtypes + request.num_outputs);
  return {request.attrs, std::move(dtypes), request.num_inputs};
}

void InstancePin::pin(const InstanceRequest& request, const InstanceLookup& lookup) {
  if (pinned_.load(std::memory_order_acquire) != nullptr) return;
  auto made = std::make_unique<Pinned>(Pinned{Combination::of(request), lookup});
  Pinned* expected = nullptr;
  if (pinned_.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel)) {
    made.release();  // the pin owns it now
  }
}

KernelInstances::InstanceSet::Entry* KernelInstances::InstanceSet::find(
    uint64_t fingerprint, const InstanceRequest& request) {
  // A kernel on a device usually sees one combination again and again: the last one found is
  // asked first, before the map.
  if (recent_ != nullptr && recent_->matches(fingerprint, request)) return recent_;
  auto range = entries_.equal_range(fingerprint);
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second.matches(fingerprint, request)) {
      recent_ = &it->second;
      return recent_;
    }
  }
  return nullptr;
}

InstanceLookup KernelInstances::InstanceSet::Entry::use(uint64_t now) {
  last_use = now;
  InstanceLookup copy;
  copy.instance = lookup.instance;
  if (lookup.declined) {  // the reason is copied only then: a hit copies no string
    copy.declined = true;
    copy.reason = lookup.reason;
  }
  return copy;
}

InstanceLookup KernelInstances::get(InstanceSet& set, const InstanceRequest& request) {
  const uint64_t hash = fingerprint(request);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (InstanceSet::Entry* entry = set.find(hash, request)) return entry->use(++clock_);
  }
  // One create at a time per kernel (plugin_api.h promises create concurrency only across
  // combinations), outside the cache's lock: create may take long (a program to compile).
  std::lock_guard<std::mutex> creating(set.create_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (InstanceSet::Entry* entry = set.find(hash, request)) {  // made while this one waited
      return entry->use(++clock_);
    }
  }
  InstanceLookup made = create(set.kernel_, request);
  Combination combination = Combination::of(request);
  SharedInstance evicted;  // let go after the lock: destroying it waits for the device
  std::lock_guard<std::mutex> lock(mutex_);
  if (count_ >= kMaxInstances) evicted = evict_least_recently_used();
  auto added = set.entries_.emplace(
      hash, InstanceSet::Entry{hash, std::move(combination), made, ++clock_});
  set.recent_ = &added->second;
  ++count_;
  return made;
}

InstanceLookup KernelInstances::create(const KernelEntry& kernel,
                                       const InstanceRequest& request) {
  hx_kernel_context_s context{&request.attrs};
  const hx_kernel_create_args args{HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
                                   nullptr,
                                   &context,
                                   device_.handle(),
                                   request.num_inputs,
                                   request.input_dtypes,
                                   request.num_outputs,
                                   request.output_dtypes,
                                   kernel.user_data};
  hx_kernel_instance* instance = nullptr;
  hx_status* status = nullptr;
  const std::string context_text =
      kernel.op + " on " + device_.name() + ": the kernel of plugin '" + kernel.plugin + "'";
  try {
    status = kernel.create(&args, &instance);
  } catch (...) {
    throw Error(StatusCode::kInternal,
                context_text + " threw a C++ exception from create across the C ABI");
  }
  InstanceLookup lookup;
  if (status != nullptr && status->code == HX_UNIMPLEMENTED) {
    lookup.declined = true;
    lookup.reason = status->message;
    free_status(status);
    return lookup;
  }
  throw_if_error(status, context_text + " failed to create an instance");
  if (instance == nullptr) return lookup;
  Device* device = &device_;
  const KernelEntry* entry = &kernel;
  // The deleter runs when the cache and every call have let go: after the work those calls
  // enqueued completes (plugin_api.h, hx_kernel_destroy_fn).
  lookup.instance = SharedInstance(instance, [device, entry](hx_kernel_instance* made) {
    try {
      device->synchronize();
    } catch (const Error&) {
    }
    entry->destroy(made, entry->user_data);
  });
  return lookup;
}

SharedInstance KernelInstances::evict_least_recently_used() {
  InstanceSet* oldest_set = nullptr;
  std::unordered_multimap<uint64_t, InstanceSet::Entry>::iterator oldest;
  for (auto& item : sets_) {
    auto& entries = item.second->entries_;
    for (auto it = entries.begin(); it != entries.end(); ++it) {
      if (oldest_set == nullptr || it->second.last_use < oldest->second.last_use) {
        oldest_set = item.second.get();
        oldest = it;
      }
    }
  }
  SharedInstance instance = std::move(oldest->second.lookup.instance);
  if (oldest_set->recent_ == &oldest->second) oldest_set->recent_ = nullptr;
  oldest_set->entries_.erase(oldest);
  --count_;
  return instance;
}

}  // namespace hxrt::detail
