// Host memory: the CPU device's memory is the process heap, every buffer handle is the host
// address of its first byte (HX_MEMORY_HOST), and every transfer is a memcpy.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxcpu {

// Function-table entries.
hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total);
hx_status* allocate(hx_device* device, size_t size, size_t alignment, hx_buffer** out_buffer);
void deallocate(hx_device* device, hx_buffer* buffer, size_t size);
hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst, uint64_t dst_offset,
                        uint8_t value, size_t size);
hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size);
hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size);
hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_device, const hx_buffer* src,
                                 uint64_t src_offset, size_t size);

}  // namespace hxcpu
