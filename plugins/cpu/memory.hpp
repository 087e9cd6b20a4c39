// Host memory: the CPU device's memory is the process heap, and every transfer is a memcpy.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxcpu {

// Function-table entries.
hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total);
hx_status* allocate(hx_device* device, size_t size, size_t alignment, void** out_ptr);
void deallocate(hx_device* device, void* ptr, size_t size);
hx_status* memset_bytes(hx_device* device, hx_stream* stream, void* dst, uint8_t value,
                        size_t size);
hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, void* dst_device,
                               const void* src_host, size_t size);
hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const void* src_device, size_t size);
hx_status* copy_device_to_device(hx_device* dst, hx_stream* stream, void* dst_ptr,
                                 hx_device* src, const void* src_ptr, size_t size);

}  // namespace hxcpu
