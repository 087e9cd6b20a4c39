// What an OpenCL device says about itself: all that the plugin reports to the core and
// checks kernels and allocations against. Read from OpenCL when the plugin finds the device,
// or from the device cache (device_cache.hpp) without loading OpenCL at all.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace hxopencl {

struct DeviceFacts {
  std::string platform;  // CL_PLATFORM_NAME of the platform it belongs to
  std::string name;
  std::string vendor;
  std::string version;  // CL_DEVICE_VERSION, shown as the device's arch
  cl_device_type type = 0;
  uint64_t memory_total = 0;
  uint64_t max_allocation = 0;  // at most memory_total
  uint64_t alignment = 0;       // bytes, 1 to 4096
  int32_t compute_units = 0;
  bool host_unified_memory = false;
  bool has_fp64 = false;
  size_t max_work_group_size = 0;

  // Whether `other` describes the same device: every fact but the two memory figures, which
  // some drivers derive from the memory free when they are asked (PoCL's total moves by
  // gigabytes between two processes).
  bool same_device(const DeviceFacts& other) const;
};

// The name of `platform`; "an unnamed OpenCL platform" when it has none.
std::string platform_name(cl_platform_id platform);

// Reads every fact of `device` into *out: CL_SUCCESS, or the error of the first query that
// failed (out->name is then what could be read, for the message).
cl_int read_device_facts(cl_platform_id platform, cl_device_id device, DeviceFacts* out);

}  // namespace hxopencl
