// Transfers: the function-table entries. Each is one cudaMemcpy*Async on the stream given (or,
// for a NULL stream, on the legacy default stream, waited for before returning), between host
// memory and (buffer, byte offset) ranges of device memory (memory.hpp). Host memory may be
// pageable or pinned (host_allocate); only pinned memory lets a copy overlap other work, and a
// pageable host-to-device copy may return once CUDA has staged the source.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxcuda {

hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size);
hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size);
// Within one device, or from another device of this plugin (cudaMemcpyPeerAsync, which goes
// over NVLink or PCIe peer-to-peer where the pair supports it and through the host where
// not). The source device's earlier work must be complete or ordered by an event (the core
// makes `stream` wait for the event of the work that wrote the source).
hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_device, const hx_buffer* src,
                                 uint64_t src_offset, size_t size);

}  // namespace hxcuda
