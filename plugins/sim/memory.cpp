#include "memory.hpp"

#include <hxplugin/status.hpp>

#include <cstddef>
#include <cstring>

#include "device.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"
#include "submit.hpp"

namespace hxsim {
namespace {

bool is_power_of_two(size_t value) { return value != 0 && (value & (value - 1)) == 0; }

unsigned long long as_ull(uint64_t value) { return static_cast<unsigned long long>(value); }

}  // namespace

hx_status* resolve_range(const SimDevice& device, const hx_buffer* buffer, uint64_t offset,
                         size_t size, const char* what, char** out) {
  const uint64_t id = buffer_id(buffer);
  *out = device.memory.resolve(id, offset, size);
  if (*out != nullptr) return nullptr;
  const hx_core_services& services = *device.plugin.services;
  size_t buffer_size = 0;
  if (device.memory.find(id, &buffer_size)) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "sim plugin: %s [offset %llu, +%zu bytes) runs past the end of buffer %llu of %s, "
        "which has %zu bytes",
        what, as_ull(offset), size, as_ull(id), device.label.c_str(), buffer_size);
  }
  if (const SimDevice* owner = device.plugin.buffer_owner(buffer)) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "sim plugin: %s: buffer %llu belongs to %s, not to %s", what,
                                 as_ull(id), owner->label.c_str(), device.label.c_str());
  }
  return hxplugin::make_status(
      services, HX_INVALID_ARGUMENT,
      "sim plugin: %s: %p is not a live buffer of the sim plugin (freed, never allocated, or "
      "not a handle as allocate returned it: the core must pass handles back unchanged)",
      what, static_cast<const void*>(buffer));
}

hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total) {
  const SimDevice& sim = from_handle(device);
  *out_total = sim.memory.budget();
  *out_free = sim.memory.budget() - sim.memory.in_use();
  return nullptr;
}

hx_status* allocate(hx_device* device, size_t size, size_t alignment, hx_buffer** out_buffer) {
  SimDevice& sim = from_handle(device);
  const hx_core_services& services = *sim.plugin.services;
  const SimOptions& options = sim.plugin.options;
  if (size == 0) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "%s: allocate: 0 bytes asked for; the core never asks for 0",
                                 sim.label.c_str());
  }
  if (!is_power_of_two(alignment) || alignment > options.alignment) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "%s: allocate: alignment %zu is not a power of two up to the %llu the device declares",
        sim.label.c_str(), alignment, as_ull(options.alignment));
  }
  if (options.max_allocation != 0 && size > options.max_allocation) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "%s: allocate: %zu bytes exceed the device's max_allocation of %llu bytes (its "
        "properties say so; use several buffers)",
        sim.label.c_str(), size, as_ull(options.max_allocation));
  }
  return hxplugin::guarded(services, kPluginName, [&]() -> hx_status* {
    const uint64_t id = sim.plugin.next_buffer_id.fetch_add(1, std::memory_order_relaxed);
    // The storage is host memory that kernels read as floats: aligned for any element type
    // whatever the device declares.
    const size_t storage_alignment =
        options.alignment < alignof(std::max_align_t) ? alignof(std::max_align_t)
                                                      : static_cast<size_t>(options.alignment);
    switch (sim.memory.allocate(id, size, storage_alignment)) {
      case DeviceMemory::Result::kOk:
        *out_buffer = buffer_handle(id);
        return nullptr;
      case DeviceMemory::Result::kOverBudget: {
        const uint64_t budget = sim.memory.budget();
        const uint64_t in_use = sim.memory.in_use();
        return hxplugin::make_status(
            services, HX_OUT_OF_MEMORY,
            "%s: out of memory: cannot allocate %zu bytes; %llu of its %llu "
            "bytes are free (%llu in use; memory_mb is %llu)",
            sim.label.c_str(), size, as_ull(budget - in_use), as_ull(budget), as_ull(in_use),
            as_ull(budget >> 20));
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

void deallocate(hx_device* device, hx_buffer* buffer, size_t size) {
  (void)size;  // the device remembers each block's size
  if (buffer == nullptr) return;
  SimDevice& sim = from_handle(device);
  switch (sim.memory.deallocate(buffer_id(buffer))) {
    case DeviceMemory::Freed::kNow:
      break;
    case DeviceMemory::Freed::kAfterQueuedWork:
      // A real device would hand the memory out again under the running work.
      sim.plugin.warn(
          "%s: deallocate(%p) while work queued on a stream still uses it: the ABI frees a "
          "buffer only after that work has completed (synchronise the stream or wait for an "
          "event recorded after it); the sim frees it once the work has run",
          sim.label.c_str(), static_cast<const void*>(buffer));
      break;
    case DeviceMemory::Freed::kUnknown:
      sim.plugin.warn("%s: deallocate(%p) ignored: not a live buffer of this device",
                      sim.label.c_str(), static_cast<const void*>(buffer));
      break;
  }
}

hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst, uint64_t dst_offset,
                        uint8_t value, size_t size) {
  if (size == 0) return nullptr;  // whatever the other arguments, as the ABI says
  const SimDevice& sim = from_handle(device);
  if (hx_status* status = check_stream(sim, stream)) return status;
  char* target = nullptr;
  if (hx_status* status =
          resolve_range(sim, dst, dst_offset, size, "memset destination", &target)) {
    return status;
  }
  auto pins = std::make_unique<BufferPins>();
  if (hx_status* status = pin_buffer(sim, dst, "memset destination", *pins)) return status;
  WorkItem item{[target, value, size]() -> WorkResult {
                  std::memset(target, value, size);
                  return std::nullopt;
                },
                sim.model.memset(size)};
  return submit(sim, stream, WorkKind::kMemset, std::move(item), std::move(pins));
}

}  // namespace hxsim
