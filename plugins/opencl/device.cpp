#include "device.hpp"

#include <hxplugin/status.hpp>

#include <algorithm>

#include "errors.hpp"
#include "platform.hpp"
#include "plugin_state.hpp"
#include "queue.hpp"

namespace hxopencl {

OpenClDevice::~OpenClDevice() {
  if (synchronous_queue != nullptr) clReleaseCommandQueue(synchronous_queue);
}

const hx_core_services& OpenClDevice::services() const { return *plugin.services; }

hx_status* OpenClDevice::bind(const Platform& found_platform, cl_device_id found_id) {
  cl_int error = CL_SUCCESS;
  synchronous_queue = clCreateCommandQueue(found_platform.context, found_id, 0, &error);
  if (hx_status* status = cl_status_about(services(), error, "clCreateCommandQueue",
                                          "for device '%s'", facts.name.c_str())) {
    return status;
  }
  platform = &found_platform;
  id = found_id;
  program.emplace(found_platform.context, found_id);
  const std::lock_guard<std::mutex> lock(streams_mutex_);
  for (Stream* stream : waiting_streams_) {
    // A queue that cannot be made leaves the stream without one: work queued on it then fails
    // with CL_INVALID_COMMAND_QUEUE, and waiting on it waits for nothing.
    if (const cl_int failure = stream->open()) {
      plugin.log(HX_LOG_WARNING,
                 "opencl plugin: a stream of device '%s' has no queue: clCreateCommandQueue "
                 "failed with %s (%d)",
                 facts.name.c_str(), cl_error_name(failure), static_cast<int>(failure));
    }
  }
  waiting_streams_.clear();
  bound.store(true, std::memory_order_release);
  return nullptr;
}

cl_int OpenClDevice::open_when_bound(Stream& stream) {
  {
    const std::lock_guard<std::mutex> lock(streams_mutex_);
    if (!bound.load(std::memory_order_relaxed)) {
      waiting_streams_.push_back(&stream);
      return CL_SUCCESS;
    }
  }
  return stream.open();
}

void OpenClDevice::forget_waiting(const Stream& stream) {
  const std::lock_guard<std::mutex> lock(streams_mutex_);
  const auto found = std::find(waiting_streams_.begin(), waiting_streams_.end(), &stream);
  if (found != waiting_streams_.end()) waiting_streams_.erase(found);
}

hx_status* OpenClDevice::ready() const {
  if (bound.load(std::memory_order_acquire)) return nullptr;
  return plugin.bind_listed_devices(*this);
}

int32_t OpenClDevice::memory_kind() const {
  // A CPU device's buffers are host memory behind opaque handles: a copy costs a memcpy.
  const bool host_visible = facts.host_unified_memory || (facts.type & CL_DEVICE_TYPE_CPU) != 0;
  return host_visible ? HX_MEMORY_HOST_VISIBLE : HX_MEMORY_DEVICE;
}

int32_t OpenClDevice::placement_class() const {
  return (facts.type & CL_DEVICE_TYPE_CPU) != 0 ? HX_PLACEMENT_HOST_ACCELERATOR
                                                : HX_PLACEMENT_DISCRETE_ACCELERATOR;
}

hx_status* device_count(hx_plugin* plugin, int32_t* out_count) {
  const OpenClPlugin& state = from_handle(plugin);
  *out_count = static_cast<int32_t>(state.devices.size());
  if (!state.devices.empty()) return nullptr;
  return hxplugin::make_status(*state.services, HX_UNAVAILABLE, "%s",
                               state.no_devices_reason.c_str());
}

hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device) {
  const OpenClPlugin& state = from_handle(plugin);
  if (ordinal < 0 || static_cast<size_t>(ordinal) >= state.devices.size()) {
    return hxplugin::make_status(*state.services, HX_OUT_OF_RANGE,
                                 "opencl plugin: no device %d (it has %zu)",
                                 static_cast<int>(ordinal), state.devices.size());
  }
  *out_device = to_handle(state.devices[static_cast<size_t>(ordinal)].get());
  return nullptr;
}

hx_status* device_properties(hx_device* handle, hx_device_properties* props) {
  const DeviceFacts& device = from_handle(handle).facts;
  // A core of an older version knows fewer fields: write only those its struct_size covers.
  const auto covers = [&](size_t end) { return props->struct_size >= end; };
  if (covers(HX_STRUCT_SIZE(hx_device_properties, name))) props->name = device.name.c_str();
  if (covers(HX_STRUCT_SIZE(hx_device_properties, vendor))) {
    props->vendor = device.vendor.c_str();
  }
  if (covers(HX_STRUCT_SIZE(hx_device_properties, bus_id))) props->bus_id = nullptr;
  if (covers(HX_STRUCT_SIZE(hx_device_properties, arch))) props->arch = device.version.c_str();
  if (covers(HX_STRUCT_SIZE(hx_device_properties, memory_total))) {
    props->memory_total = device.memory_total;
  }
  if (covers(HX_STRUCT_SIZE(hx_device_properties, numa_node))) props->numa_node = -1;
  if (covers(HX_STRUCT_SIZE(hx_device_properties, compute_units))) {
    props->compute_units = device.compute_units;
  }
  if (covers(HX_STRUCT_SIZE(hx_device_properties, memory_kind))) {
    props->memory_kind = from_handle(handle).memory_kind();
  }
  if (covers(HX_STRUCT_SIZE(hx_device_properties, placement_class))) {
    props->placement_class = from_handle(handle).placement_class();
  }
  if (covers(HX_STRUCT_SIZE(hx_device_properties, max_allocation))) {
    props->max_allocation = device.max_allocation;
  }
  if (covers(HX_STRUCT_SIZE(hx_device_properties, alignment))) {
    props->alignment = device.alignment;
  }
  return nullptr;
}

}  // namespace hxopencl
