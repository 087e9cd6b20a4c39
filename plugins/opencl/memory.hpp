// Device memory: every buffer is a cl_mem, and the buffer handle the core holds is that cl_mem
// itself (no address space is invented; the core never looks inside a handle).
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

namespace hxopencl {

inline hx_buffer* to_handle(cl_mem buffer) { return reinterpret_cast<hx_buffer*>(buffer); }
inline cl_mem from_handle(const hx_buffer* buffer) {
  return reinterpret_cast<cl_mem>(const_cast<hx_buffer*>(buffer));
}

// Function-table entries.
hx_status* allocate(hx_device* device, size_t size, size_t alignment, hx_buffer** out_buffer);
void deallocate(hx_device* device, hx_buffer* buffer, size_t size);

}  // namespace hxopencl
