// The memory entries of the function table: each device spends its own budget (memory_mb),
// hands out buffers as ids (device_memory.hpp) and reports what is left of its budget as its
// free memory (unless report_memory is false). Every (buffer, offset, size) the core passes is
// resolved here, and refused when it is not inside a live buffer of the device.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxsim {

struct SimDevice;

// A buffer handle is a block id (never 0), not an address.
inline hx_buffer* buffer_handle(uint64_t id) {
  return reinterpret_cast<hx_buffer*>(static_cast<uintptr_t>(id));
}
inline uint64_t buffer_id(const hx_buffer* buffer) { return reinterpret_cast<uintptr_t>(buffer); }

// The storage of bytes [offset, offset + size) of `buffer`, in *out; INVALID_ARGUMENT naming
// `what` ("memset destination", ...) when `buffer` is not a live buffer of `device` (another
// device's, freed, never allocated) or the range runs past its end.
hx_status* resolve_range(const SimDevice& device, const hx_buffer* buffer, uint64_t offset,
                         size_t size, const char* what, char** out);

// Function-table entries.
hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total);
hx_status* allocate(hx_device* device, size_t size, size_t alignment, hx_buffer** out_buffer);
void deallocate(hx_device* device, hx_buffer* buffer, size_t size);
hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst, uint64_t dst_offset,
                        uint8_t value, size_t size);

}  // namespace hxsim
