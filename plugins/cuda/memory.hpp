// Device and pinned host memory: the function-table entries. cudaMalloc gives the core its
// regions (the core's allocator sits on top, so these calls are rare); memset is stream-ordered
// like the copies.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxcuda {

// What cudaMalloc guarantees; a larger alignment is refused rather than faked.
constexpr size_t kMaxAlignment = 256;

hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total);
hx_status* allocate(hx_device* device, size_t size, size_t alignment, void** out_ptr);
void deallocate(hx_device* device, void* ptr, size_t size);
hx_status* host_allocate(hx_device* device, size_t size, void** out_ptr);
void host_deallocate(hx_device* device, void* ptr);
hx_status* memset_bytes(hx_device* device, hx_stream* stream, void* dst, uint8_t value,
                        size_t size);

}  // namespace hxcuda
