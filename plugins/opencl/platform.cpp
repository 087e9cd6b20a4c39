#include "platform.hpp"

#include <CL/cl_ext.h>

#include <memory>
#include <mutex>
#include <vector>

#include "driver_setup_lock.hpp"
#include "errors.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

Platform::~Platform() { clReleaseContext(context); }

namespace {

// Both clGetDeviceIDs calls for `platform` (count, then list), under the driver set-up lock:
// the first sets PoCL's devices up (driver_setup_lock.hpp).
cl_int device_ids(cl_platform_id platform, std::vector<cl_device_id>* out) {
  const std::lock_guard<std::mutex> lock(driver_setup_mutex());
  cl_uint count = 0;
  if (const cl_int error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count)) {
    return error;
  }
  out->resize(count);
  return clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, out->data(), nullptr);
}

// The devices of one platform, or none (with a warning when the platform failed).
std::vector<cl_device_id> platform_devices(const OpenClPlugin& plugin, cl_platform_id platform,
                                           Discovery& found) {
  std::vector<cl_device_id> devices;
  const cl_int error = device_ids(platform, &devices);
  if (error == CL_DEVICE_NOT_FOUND) return {};
  if (error != CL_SUCCESS) {
    plugin.log(HX_LOG_WARNING, "OpenCL platform '%s' skipped: clGetDeviceIDs failed with %s (%d)",
               platform_name(platform).c_str(), cl_error_name(error), static_cast<int>(error));
    found.complete = false;
    return {};
  }
  return devices;
}

void add_platform(OpenClPlugin& plugin, cl_platform_id id, Discovery& found) {
  const std::vector<cl_device_id> devices = platform_devices(plugin, id, found);
  if (devices.empty()) return;
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(id), 0};
  cl_int error = CL_SUCCESS;
  const cl_context context = clCreateContext(properties, static_cast<cl_uint>(devices.size()),
                                             devices.data(), nullptr, nullptr, &error);
  if (error != CL_SUCCESS) {
    plugin.log(HX_LOG_WARNING, "OpenCL platform '%s' skipped: clCreateContext failed with %s (%d)",
               platform_name(id).c_str(), cl_error_name(error), static_cast<int>(error));
    found.complete = false;
    return;
  }
  plugin.platforms.push_back(std::make_unique<Platform>(id, context));
  const Platform& platform = *plugin.platforms.back();
  for (cl_device_id device : devices) {
    FoundDevice candidate{&platform, device, {}};
    if (const cl_int failure = read_device_facts(id, device, &candidate.facts)) {
      plugin.log(HX_LOG_WARNING,
                 "OpenCL device skipped: opencl plugin: clGetDeviceInfo failed with %s (%d) for "
                 "device '%s'",
                 cl_error_name(failure), static_cast<int>(failure), candidate.facts.name.c_str());
      found.complete = false;
      continue;
    }
    found.devices.push_back(std::move(candidate));
  }
}

}  // namespace

Discovery discover_platforms(OpenClPlugin& plugin) {
  Discovery found;
  cl_uint count = 0;
  const cl_int error = clGetPlatformIDs(0, nullptr, &count);
  if (error == CL_PLATFORM_NOT_FOUND_KHR || (error == CL_SUCCESS && count == 0)) {
    found.no_devices_reason = "no OpenCL platform (install an ICD such as pocl-opencl-icd)";
    return found;
  }
  if (error != CL_SUCCESS) {
    found.no_devices_reason = std::string("no OpenCL platform: clGetPlatformIDs failed with ") +
                              cl_error_name(error) + " (" + std::to_string(error) + ")";
    found.complete = false;
    return found;
  }
  std::vector<cl_platform_id> ids(count);
  if (clGetPlatformIDs(count, ids.data(), nullptr) != CL_SUCCESS) ids.clear();
  for (cl_platform_id id : ids) add_platform(plugin, id, found);
  if (found.devices.empty()) {
    found.no_devices_reason = std::to_string(ids.size()) +
                              " OpenCL platform(s) found, but no usable device on any of them";
  }
  return found;
}

}  // namespace hxopencl
