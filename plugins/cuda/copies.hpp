// Transfers: the function-table entries. Each is one cudaMemcpy*Async on the stream given (or,
// for a NULL stream, on the legacy default stream, waited for before returning). Host memory
// may be pageable or pinned (host_allocate); only pinned memory lets a copy overlap other
// work, and a pageable host-to-device copy may return once CUDA has staged the source.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>

namespace hxcuda {

hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, void* dst_device,
                               const void* src_host, size_t size);
hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const void* src_device, size_t size);
// Within one device, or from another device of this plugin (cudaMemcpyPeerAsync, which goes
// over NVLink or PCIe peer-to-peer where the pair supports it and through the host where
// not). The source device's earlier work must be complete or ordered by an event: the core
// synchronises the source's stream first.
hx_status* copy_device_to_device(hx_device* dst, hx_stream* stream, void* dst_ptr, hx_device* src,
                                 const void* src_ptr, size_t size);

}  // namespace hxcuda
