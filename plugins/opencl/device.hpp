// One OpenCL device: what it says about itself (read once, when it is opened), the queue that
// synchronous work goes through, and its program. The device-query entries of the function
// table.
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "program.hpp"

namespace hxopencl {

struct OpenClPlugin;
struct Platform;

struct OpenClDevice {
  OpenClDevice(const OpenClPlugin& plugin, const Platform& platform, cl_device_id id);
  ~OpenClDevice();
  OpenClDevice(const OpenClDevice&) = delete;
  OpenClDevice& operator=(const OpenClDevice&) = delete;

  // Reads the device's properties and creates its synchronous queue; a status naming the
  // device and the call that failed otherwise.
  hx_status* open();

  const hx_core_services& services() const;

  const OpenClPlugin& plugin;
  const Platform& platform;
  const cl_device_id id;
  // Where work given no stream goes; each such call waits for it to finish.
  cl_command_queue synchronous_queue = nullptr;
  Program program;

  std::string name;
  std::string vendor;
  std::string version;  // CL_DEVICE_VERSION, shown as the device's arch
  cl_device_type type = 0;
  uint64_t memory_total = 0;
  uint64_t max_allocation = 0;
  uint64_t alignment = 0;  // bytes
  int32_t compute_units = 0;
  bool host_unified_memory = false;
  bool has_fp64 = false;
  size_t max_work_group_size = 0;

  int32_t memory_kind() const;
  int32_t placement_class() const;
};

inline hx_device* to_handle(OpenClDevice* device) { return reinterpret_cast<hx_device*>(device); }
inline OpenClDevice& from_handle(hx_device* device) {
  return *reinterpret_cast<OpenClDevice*>(device);
}

// Function-table entries.
hx_status* device_count(hx_plugin* plugin, int32_t* out_count);
hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
hx_status* device_properties(hx_device* device, hx_device_properties* props);

}  // namespace hxopencl
