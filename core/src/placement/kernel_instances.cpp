#include "placement/kernel_instances.hpp"

#include <algorithm>
#include <functional>

#include "devices/device.hpp"
#include "plugins/core_handle.hpp"
#include "status.hpp"

namespace hxrt::detail {
namespace {

size_t combine(size_t hash, size_t part) { return (hash ^ part) * 1099511628211ull; }

size_t hash_value(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> size_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          size_t hash = v.size();
          for (int64_t item : v) hash = combine(hash, std::hash<int64_t>()(item));
          return hash;
        } else if constexpr (std::is_same_v<T, DType>) {
          return std::hash<int32_t>()(static_cast<int32_t>(v));
        } else {
          return std::hash<T>()(v);
        }
      },
      value);
}

size_t hash_combination(const KernelEntry& kernel, const Attrs& attrs, const int32_t* inputs,
                        size_t num_inputs, const int32_t* outputs, size_t num_outputs) {
  size_t hash = std::hash<const void*>()(&kernel);
  for (const auto& item : attrs.items()) {
    hash = combine(hash, std::hash<std::string>()(item.first));
    hash = combine(hash, combine(item.second.index(), hash_value(item.second)));
  }
  for (size_t i = 0; i < num_inputs; ++i) hash = combine(hash, static_cast<size_t>(inputs[i]));
  hash = combine(hash, num_inputs);
  for (size_t i = 0; i < num_outputs; ++i) hash = combine(hash, static_cast<size_t>(outputs[i]));
  return hash;
}

}  // namespace

KernelInstances::~KernelInstances() {
  try {
    device_.synchronize();
  } catch (const Error&) {
    // The device's error has no one to go to now; its instances still go.
  }
}

size_t KernelInstances::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

InstanceLookup KernelInstances::get(const KernelEntry& kernel, const Attrs& attrs,
                                    const int32_t* input_dtypes, size_t num_inputs,
                                    const int32_t* output_dtypes, size_t num_outputs) {
  const size_t hash =
      hash_combination(kernel, attrs, input_dtypes, num_inputs, output_dtypes, num_outputs);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto range = entries_.equal_range(hash);
    for (auto it = range.first; it != range.second; ++it) {
      Entry& entry = it->second;
      if (entry.kernel == &kernel && entry.num_inputs == num_inputs &&
          entry.dtypes.size() == num_inputs + num_outputs &&
          std::equal(input_dtypes, input_dtypes + num_inputs, entry.dtypes.begin()) &&
          std::equal(output_dtypes, output_dtypes + num_outputs,
                     entry.dtypes.begin() + static_cast<std::ptrdiff_t>(num_inputs)) &&
          entry.attrs.items() == attrs.items()) {
        entry.last_use = ++clock_;
        return entry.lookup;
      }
    }
  }
  // Made outside the lock: create may take long, and two threads racing keep the first.
  InstanceLookup made =
      create(kernel, attrs, input_dtypes, num_inputs, output_dtypes, num_outputs);
  std::vector<int32_t> dtypes(input_dtypes, input_dtypes + num_inputs);
  dtypes.insert(dtypes.end(), output_dtypes, output_dtypes + num_outputs);
  SharedInstance evicted;  // let go after the lock: destroying it waits for the device
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.size() >= kMaxInstances) evicted = evict_least_recently_used();
  entries_.emplace(hash, Entry{&kernel, attrs, std::move(dtypes), num_inputs, made, ++clock_});
  return made;
}

InstanceLookup KernelInstances::create(const KernelEntry& kernel, const Attrs& attrs,
                                       const int32_t* input_dtypes, size_t num_inputs,
                                       const int32_t* output_dtypes, size_t num_outputs) {
  hx_kernel_context_s context{&attrs};
  const hx_kernel_create_args args{HX_KERNEL_CREATE_ARGS_STRUCT_SIZE,
                                   nullptr,
                                   &context,
                                   device_.handle(),
                                   num_inputs,
                                   input_dtypes,
                                   num_outputs,
                                   output_dtypes,
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
  auto oldest = std::min_element(
      entries_.begin(), entries_.end(),
      [](const auto& a, const auto& b) { return a.second.last_use < b.second.last_use; });
  SharedInstance instance = std::move(oldest->second.lookup.instance);
  entries_.erase(oldest);
  return instance;
}

}  // namespace hxrt::detail
