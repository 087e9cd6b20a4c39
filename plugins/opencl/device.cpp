#include "device.hpp"

#include <hxplugin/status.hpp>

#include <algorithm>

#include "errors.hpp"
#include "platform.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

template <class T>
cl_int read_info(cl_device_id device, cl_device_info what, T* out) {
  return clGetDeviceInfo(device, what, sizeof(T), out, nullptr);
}

cl_int read_text(cl_device_id device, cl_device_info what, std::string* out) {
  size_t length = 0;
  if (const cl_int error = clGetDeviceInfo(device, what, 0, nullptr, &length)) return error;
  std::string text(length, '\0');
  if (const cl_int error = clGetDeviceInfo(device, what, length, &text[0], nullptr)) {
    return error;
  }
  text.resize(text.find('\0') == std::string::npos ? length : text.find('\0'));
  *out = std::move(text);
  return CL_SUCCESS;
}

}  // namespace

OpenClDevice::OpenClDevice(const OpenClPlugin& plugin, const Platform& platform,
                           cl_device_id id)
    : plugin(plugin), platform(platform), id(id), program(platform.context, id) {}

OpenClDevice::~OpenClDevice() {
  if (synchronous_queue != nullptr) clReleaseCommandQueue(synchronous_queue);
}

const hx_core_services& OpenClDevice::services() const { return *plugin.services; }

hx_status* OpenClDevice::open() {
  cl_ulong global_memory = 0;
  cl_ulong largest_allocation = 0;
  cl_uint base_address_bits = 0;
  cl_uint units = 0;
  cl_bool unified = CL_FALSE;
  cl_device_fp_config double_config = 0;
  const cl_int errors[] = {
      read_text(id, CL_DEVICE_NAME, &name),
      read_text(id, CL_DEVICE_VENDOR, &vendor),
      read_text(id, CL_DEVICE_VERSION, &version),
      read_info(id, CL_DEVICE_TYPE, &type),
      read_info(id, CL_DEVICE_GLOBAL_MEM_SIZE, &global_memory),
      read_info(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, &largest_allocation),
      read_info(id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, &base_address_bits),
      read_info(id, CL_DEVICE_MAX_COMPUTE_UNITS, &units),
      read_info(id, CL_DEVICE_HOST_UNIFIED_MEMORY, &unified),
      read_info(id, CL_DEVICE_DOUBLE_FP_CONFIG, &double_config),
      read_info(id, CL_DEVICE_MAX_WORK_GROUP_SIZE, &max_work_group_size)};
  for (cl_int error : errors) {
    if (error != CL_SUCCESS) {
      return cl_status_about(services(), error, "clGetDeviceInfo", "for device '%s'",
                             name.c_str());
    }
  }
  memory_total = global_memory;
  max_allocation = std::min<uint64_t>(largest_allocation, global_memory);
  // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits: the alignment of every buffer's start, and what
  // a sub-buffer's origin needs. The ABI takes 1 to 4096 bytes.
  alignment = std::clamp<uint64_t>(base_address_bits / 8, 1, 4096);
  compute_units = static_cast<int32_t>(std::min<cl_uint>(units, INT32_MAX));
  host_unified_memory = unified == CL_TRUE;
  has_fp64 = double_config != 0;
  cl_int error = CL_SUCCESS;
  synchronous_queue = clCreateCommandQueue(platform.context, id, 0, &error);
  return cl_status_about(services(), error, "clCreateCommandQueue", "for device '%s'",
                         name.c_str());
}

int32_t OpenClDevice::memory_kind() const {
  // A CPU device's buffers are host memory behind opaque handles: a copy costs a memcpy.
  const bool host_visible = host_unified_memory || (type & CL_DEVICE_TYPE_CPU) != 0;
  return host_visible ? HX_MEMORY_HOST_VISIBLE : HX_MEMORY_DEVICE;
}

int32_t OpenClDevice::placement_class() const {
  return (type & CL_DEVICE_TYPE_CPU) != 0 ? HX_PLACEMENT_HOST_ACCELERATOR
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
  const OpenClDevice& device = from_handle(handle);
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
    props->memory_kind = device.memory_kind();
  }
  if (covers(HX_STRUCT_SIZE(hx_device_properties, placement_class))) {
    props->placement_class = device.placement_class();
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
