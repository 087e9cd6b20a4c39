#include "copies.hpp"

#include <hxplugin/status.hpp>

#include <cstring>

#include "device.hpp"
#include "memory.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"
#include "submit.hpp"

namespace hxsim {
namespace {

// A buffer handle where a host pointer belongs means the core took one for the other: on a
// real accelerator that would be a fault.
hx_status* check_host_pointer(const SimDevice& device, const void* host, const char* what) {
  if (host == nullptr) {
    return hxplugin::make_status(*device.plugin.services, HX_INVALID_ARGUMENT,
                                 "sim plugin: %s is NULL", what);
  }
  if (const SimDevice* owner = device.plugin.buffer_owner(static_cast<const hx_buffer*>(host))) {
    return hxplugin::make_status(
        *device.plugin.services, HX_INVALID_ARGUMENT,
        "sim plugin: %s %p is a buffer handle of %s, not host memory; a buffer is reached only "
        "through the copy functions",
        what, host, owner->label.c_str());
  }
  return nullptr;
}

}  // namespace

namespace {

// The host memory of a buffer from allocate_buffer of any device of `plugin`: byte `offset`,
// with `size` bytes from there inside the buffer; an error naming `what` otherwise.
hx_status* resolve_host_buffer(const SimDevice& device, const hx_buffer* buffer, uint64_t offset,
                               size_t size, const char* what, char** out) {
  for (const auto& candidate : device.plugin.devices) {
    if (char* found = candidate->pinned.resolve(buffer, offset, size)) {
      *out = found;
      return nullptr;
    }
  }
  return hxplugin::make_status(
      *device.plugin.services, HX_INVALID_ARGUMENT,
      "sim plugin: %s %p at offset %llu, %zu bytes: not a live host_memory buffer of this plugin "
      "(from allocate_buffer), or the range runs past its end",
      what, static_cast<const void*>(buffer), static_cast<unsigned long long>(offset), size);
}

// Both uploads, once the host side is an address.
hx_status* upload(SimDevice& sim, hx_stream* stream, hx_buffer* dst, uint64_t dst_offset,
                  const void* src_host, size_t size) {
  char* target = nullptr;
  if (hx_status* status =
          resolve_range(sim, dst, dst_offset, size, "host-to-device destination", &target)) {
    return status;
  }
  auto pins = std::make_unique<BufferPins>();
  if (hx_status* status = pin_buffer(sim, dst, "host-to-device destination", *pins)) {
    return status;
  }
  WorkItem item{[target, src_host, size]() -> WorkResult {
                  std::memcpy(target, src_host, size);
                  return std::nullopt;
                },
                sim.model.transfer(Transfer::kHostToDevice, size)};
  return submit(sim, stream, WorkKind::kHostCopy, std::move(item), std::move(pins));
}

// Both downloads, once the host side is an address.
hx_status* download(SimDevice& sim, hx_stream* stream, void* dst_host, const hx_buffer* src,
                    uint64_t src_offset, size_t size) {
  char* source = nullptr;
  if (hx_status* status =
          resolve_range(sim, src, src_offset, size, "device-to-host source", &source)) {
    return status;
  }
  auto pins = std::make_unique<BufferPins>();
  if (hx_status* status = pin_buffer(sim, src, "device-to-host source", *pins)) return status;
  WorkItem item{[dst_host, source, size]() -> WorkResult {
                  std::memcpy(dst_host, source, size);
                  return std::nullopt;
                },
                sim.model.transfer(Transfer::kDeviceToHost, size)};
  return submit(sim, stream, WorkKind::kHostCopy, std::move(item), std::move(pins));
}

}  // namespace

hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size) {
  SimDevice& sim = from_handle(device);
  if (size != 0) {
    if (hx_status* status = check_stream(sim, stream)) return status;
    if (hx_status* status = check_host_pointer(sim, src_host, "host-to-device source")) {
      return status;
    }
    if (hx_status* status = upload(sim, stream, dst, dst_offset, src_host, size)) return status;
  }
  sim.counters.host_to_device.add(size);
  return nullptr;
}

hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size) {
  SimDevice& sim = from_handle(device);
  if (size != 0) {
    if (hx_status* status = check_stream(sim, stream)) return status;
    if (hx_status* status = check_host_pointer(sim, dst_host, "device-to-host destination")) {
      return status;
    }
    if (hx_status* status = download(sim, stream, dst_host, src, src_offset, size)) return status;
  }
  sim.counters.device_to_host.add(size);
  return nullptr;
}

hx_status* copy_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                          uint64_t dst_offset, const hx_buffer* src_host, uint64_t src_offset,
                          size_t size) {
  SimDevice& sim = from_handle(device);
  if (size != 0) {
    if (hx_status* status = check_stream(sim, stream)) return status;
    char* source = nullptr;
    if (hx_status* status = resolve_host_buffer(sim, src_host, src_offset, size,
                                                "host_memory copy_to_device source", &source)) {
      return status;
    }
    if (hx_status* status = upload(sim, stream, dst, dst_offset, source, size)) return status;
  }
  sim.counters.host_to_device.add(size);
  sim.counters.host_buffer_copies.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

hx_status* copy_to_host(hx_device* device, hx_stream* stream, hx_buffer* dst_host,
                        uint64_t dst_offset, const hx_buffer* src, uint64_t src_offset,
                        size_t size) {
  SimDevice& sim = from_handle(device);
  if (size != 0) {
    if (hx_status* status = check_stream(sim, stream)) return status;
    char* target = nullptr;
    if (hx_status* status = resolve_host_buffer(sim, dst_host, dst_offset, size,
                                                "host_memory copy_to_host destination", &target)) {
      return status;
    }
    if (hx_status* status = download(sim, stream, target, src, src_offset, size)) return status;
  }
  sim.counters.device_to_host.add(size);
  sim.counters.host_buffer_copies.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_device, const hx_buffer* src,
                                 uint64_t src_offset, size_t size) {
  SimDevice& target_device = from_handle(dst_device);
  const SimPlugin& plugin = target_device.plugin;
  if (size != 0) {
    const SimDevice* source_device = plugin.find_device(src_device);
    if (source_device == nullptr) {
      return hxplugin::make_status(
          *plugin.services, HX_INVALID_ARGUMENT,
          "sim plugin: device-to-device copy into %s from %p, which is not a device "
          "of this plugin",
          target_device.label.c_str(), static_cast<const void*>(src_device));
    }
    if (hx_status* status = check_stream(target_device, stream)) return status;
    char* target = nullptr;
    if (hx_status* status = resolve_range(target_device, dst, dst_offset, size,
                                          "device-to-device destination", &target)) {
      return status;
    }
    char* source = nullptr;
    if (hx_status* status = resolve_range(*source_device, src, src_offset, size,
                                          "device-to-device source", &source)) {
      return status;
    }
    auto pins = std::make_unique<BufferPins>();
    if (hx_status* status =
            pin_buffer(target_device, dst, "device-to-device destination", *pins)) {
      return status;
    }
    if (hx_status* status = pin_buffer(*source_device, src, "device-to-device source", *pins)) {
      return status;
    }
    WorkItem item{[target, source, size]() -> WorkResult {
                    std::memcpy(target, source, size);
                    return std::nullopt;
                  },
                  target_device.model.copy_from(source_device->model, size)};
    if (hx_status* status = submit(target_device, stream, WorkKind::kDeviceCopy, std::move(item),
                                   std::move(pins))) {
      return status;
    }
  }
  target_device.counters.device_to_device.add(size);
  return nullptr;
}

}  // namespace hxsim
