#include "memory.hpp"

#include <hxplugin/status.hpp>

#include <cstring>

#include "device.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxsim {
namespace {

bool is_power_of_two(size_t value) { return value != 0 && (value & (value - 1)) == 0; }

unsigned long long as_ull(uint64_t value) { return static_cast<unsigned long long>(value); }

}  // namespace

hx_status* check_device_range(const SimDevice& device, const void* ptr, size_t size,
                              const char* what) {
  if (size == 0 || device.memory.contains(ptr, size)) return nullptr;
  return hxplugin::make_status(*device.plugin.services, HX_INVALID_ARGUMENT,
                               "sim plugin: %s [%p, +%zu bytes) is not memory of %s", what, ptr,
                               size, device.label.c_str());
}

hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total) {
  const SimDevice& sim = from_handle(device);
  *out_total = sim.memory.budget();
  *out_free = sim.memory.budget() - sim.memory.in_use();
  return nullptr;
}

hx_status* allocate(hx_device* device, size_t size, size_t alignment, void** out_ptr) {
  SimDevice& sim = from_handle(device);
  const hx_core_services& services = *sim.plugin.services;
  if (!is_power_of_two(alignment)) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "%s: allocate: alignment %zu is not a power of two",
                                 sim.label.c_str(), alignment);
  }
  return hxplugin::guarded(services, kPluginName, [&]() -> hx_status* {
    switch (sim.memory.allocate(size, alignment, out_ptr)) {
      case DeviceMemory::Result::kOk:
        return nullptr;
      case DeviceMemory::Result::kOverBudget: {
        const uint64_t budget = sim.memory.budget();
        const uint64_t in_use = sim.memory.in_use();
        return hxplugin::make_status(
            services, HX_OUT_OF_MEMORY,
            "%s: out of memory: cannot allocate %zu bytes; %llu of its %llu "
            "bytes are free (%llu in use; memory_mb is %llu)",
            sim.label.c_str(), size, as_ull(budget - in_use), as_ull(budget), as_ull(in_use),
            as_ull(sim.plugin.options.memory_mb));
      }
      case DeviceMemory::Result::kHostExhausted:
        break;
    }
    return hxplugin::make_status(
        services, HX_OUT_OF_MEMORY,
        "%s: the host heap that simulates its memory cannot supply %zu bytes", sim.label.c_str(),
        size);
  });
}

void deallocate(hx_device* device, void* ptr, size_t size) {
  (void)size;  // the device remembers each block's size
  if (ptr == nullptr) return;
  SimDevice& sim = from_handle(device);
  if (!sim.memory.deallocate(ptr)) {
    sim.plugin.warn("%s: deallocate(%p) ignored: not a live allocation of this device",
                    sim.label.c_str(), ptr);
  }
}

hx_status* memset_bytes(hx_device* device, hx_stream* stream, void* dst, uint8_t value,
                        size_t size) {
  const SimDevice& sim = from_handle(device);
  if (hx_status* status = check_stream(sim, stream)) return status;
  if (hx_status* status = check_device_range(sim, dst, size, "memset destination")) {
    return status;
  }
  if (size != 0) std::memset(dst, value, size);
  return nullptr;
}

}  // namespace hxsim
