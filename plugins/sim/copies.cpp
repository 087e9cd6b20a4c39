#include "copies.hpp"

#include <hxplugin/status.hpp>

#include <cstring>

#include "device.hpp"
#include "memory.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxsim {
namespace {

// A host pointer that lands in simulated device memory means the core took a device pointer
// for a host one: on a real accelerator that would be a fault.
hx_status* check_host_range(const SimDevice& device, const void* ptr, size_t size,
                            const char* what) {
  for (const auto& other : device.plugin.devices) {
    if (other->memory.overlaps(ptr, size)) {
      return hxplugin::make_status(
          *device.plugin.services, HX_INVALID_ARGUMENT,
          "sim plugin: %s %p is memory of %s, not host memory; device memory is "
          "reached only through the copy functions",
          what, ptr, other->label.c_str());
    }
  }
  return nullptr;
}

}  // namespace

hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, void* dst_device,
                               const void* src_host, size_t size) {
  SimDevice& sim = from_handle(device);
  if (hx_status* status = check_stream(sim, stream)) return status;
  if (hx_status* status = check_device_range(sim, dst_device, size, "host-to-device destination")) {
    return status;
  }
  if (hx_status* status = check_host_range(sim, src_host, size, "host-to-device source")) {
    return status;
  }
  if (size != 0) std::memcpy(dst_device, src_host, size);
  sim.counters.host_to_device.add(size);
  return nullptr;
}

hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const void* src_device, size_t size) {
  SimDevice& sim = from_handle(device);
  if (hx_status* status = check_stream(sim, stream)) return status;
  if (hx_status* status = check_device_range(sim, src_device, size, "device-to-host source")) {
    return status;
  }
  if (hx_status* status = check_host_range(sim, dst_host, size, "device-to-host destination")) {
    return status;
  }
  if (size != 0) std::memcpy(dst_host, src_device, size);
  sim.counters.device_to_host.add(size);
  return nullptr;
}

hx_status* copy_device_to_device(hx_device* dst, hx_stream* stream, void* dst_ptr, hx_device* src,
                                 const void* src_ptr, size_t size) {
  SimDevice& target = from_handle(dst);
  const SimPlugin& plugin = target.plugin;
  const SimDevice* source = plugin.find_device(src);
  if (source == nullptr) {
    return hxplugin::make_status(
        *plugin.services, HX_INVALID_ARGUMENT,
        "sim plugin: device-to-device copy into %s from %p, which is not a device "
        "of this plugin",
        target.label.c_str(), static_cast<const void*>(src));
  }
  if (hx_status* status = check_stream(target, stream)) return status;
  if (hx_status* status =
          check_device_range(target, dst_ptr, size, "device-to-device destination")) {
    return status;
  }
  if (hx_status* status = check_device_range(*source, src_ptr, size, "device-to-device source")) {
    return status;
  }
  if (size != 0) std::memcpy(dst_ptr, src_ptr, size);
  target.counters.device_to_device.add(size);
  return nullptr;
}

}  // namespace hxsim
