#include "memory.hpp"

#include <hxplugin/status.hpp>

#include "device.hpp"
#include "errors.hpp"
#include "platform.hpp"

namespace hxopencl {

hx_status* allocate(hx_device* handle, size_t size, size_t alignment, hx_buffer** out_buffer) {
  const OpenClDevice& device = from_handle(handle);
  if (hx_status* status = device.ready()) return status;
  const DeviceFacts& facts = device.facts;
  if (size == 0 || size > facts.max_allocation) {
    return hxplugin::make_status(
        device.services(), size == 0 ? HX_INVALID_ARGUMENT : HX_OUT_OF_MEMORY,
        "opencl plugin: cannot allocate %zu bytes on %s: one buffer holds 1 to %llu bytes "
        "(CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
        size, facts.name.c_str(), static_cast<unsigned long long>(facts.max_allocation));
  }
  // Every cl_mem starts at the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN; more cannot be had.
  if (alignment > facts.alignment) {
    return hxplugin::make_status(
        device.services(), HX_INVALID_ARGUMENT,
        "opencl plugin: cannot allocate with %zu-byte alignment on %s: its buffers are "
        "aligned to %llu bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN)",
        alignment, facts.name.c_str(), static_cast<unsigned long long>(facts.alignment));
  }
  cl_int error = CL_SUCCESS;
  const cl_mem buffer =
      clCreateBuffer(device.platform->context, CL_MEM_READ_WRITE, size, nullptr, &error);
  if (error == CL_INVALID_BUFFER_SIZE) error = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (hx_status* status = cl_status_about(device.services(), error, "clCreateBuffer",
                                          "for %zu bytes on %s", size, facts.name.c_str())) {
    return status;
  }
  *out_buffer = to_handle(buffer);
  return nullptr;
}

void deallocate(hx_device*, hx_buffer* buffer, size_t) {
  if (buffer != nullptr) clReleaseMemObject(from_handle(buffer));
}

}  // namespace hxopencl
