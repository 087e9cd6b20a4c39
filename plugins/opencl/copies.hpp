// Memset and copies on (cl_mem, byte offset): clEnqueueFillBuffer, clEnqueueWriteBuffer,
// clEnqueueReadBuffer and clEnqueueCopyBuffer, on the stream's queue or, with no stream, on the
// device's synchronous queue and waited for.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxopencl {

// Function-table entries.
hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst,
                        uint64_t dst_offset, uint8_t value, size_t size);
hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size);
hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size);
hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_device,
                                 const hx_buffer* src, uint64_t src_offset, size_t size);

}  // namespace hxopencl
