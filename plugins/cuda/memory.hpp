// Device and pinned host memory: the function-table entries. cudaMalloc gives the core its
// buffers (the core's allocator places tensors inside them at offsets, so these calls are
// rare); memset is stream-ordered like the copies.
//
// A buffer handle is the device address cudaMalloc returned: CUDA memory is one linear address
// space per process, so (buffer, byte_offset) is the address buffer + byte_offset, and the
// kernels reach a tensor's elements through hxplugin::element_address.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxcuda {

class CudaDevice;

// What cudaMalloc guarantees, and what the device declares as its alignment: a larger
// alignment is refused rather than faked.
constexpr size_t kAlignment = 256;

// The device address of byte `offset` of `buffer`, for a range of `size` bytes, in *out.
// INVALID_ARGUMENT naming `what` when bytes are to be moved through a NULL buffer or when the
// range runs past the end of the address space (the core passes neither; a plugin keeping the
// ABI must not crash on them either).
hx_status* device_address(const CudaDevice& device, const char* what, const hx_buffer* buffer,
                          uint64_t offset, size_t size, void** out);

hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total);
hx_status* allocate(hx_device* device, size_t size, size_t alignment, hx_buffer** out_buffer);
void deallocate(hx_device* device, hx_buffer* buffer, size_t size);
hx_status* host_allocate(hx_device* device, size_t size, void** out_ptr);
void host_deallocate(hx_device* device, void* ptr);
hx_status* memset_bytes(hx_device* device, hx_stream* stream, hx_buffer* dst, uint64_t dst_offset,
                        uint8_t value, size_t size);

}  // namespace hxcuda
