// Transfers. Each resolves the device side, a (buffer, offset, size) that must lie inside a live
// buffer of its device, checks that the host side is a host pointer (not NULL, not a buffer
// handle), copies at once with a NULL stream or on the stream's worker (submit.hpp), and counts
// the call (transfer_counters.hpp). A size-0 call is counted
// and succeeds whatever its other arguments, as the ABI says.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxsim {

// Function-table entries.
hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                               uint64_t dst_offset, const void* src_host, size_t size);
hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const hx_buffer* src, uint64_t src_offset, size_t size);
// The host_memory group's copies (ABI 2.5): the host side is a buffer from allocate_buffer of
// any device of the plugin, at an offset, which must lie inside it.
hx_status* copy_to_device(hx_device* device, hx_stream* stream, hx_buffer* dst,
                          uint64_t dst_offset, const hx_buffer* src_host, uint64_t src_offset,
                          size_t size);
hx_status* copy_to_host(hx_device* device, hx_stream* stream, hx_buffer* dst_host,
                        uint64_t dst_offset, const hx_buffer* src, uint64_t src_offset,
                        size_t size);
hx_status* copy_device_to_device(hx_device* dst_device, hx_stream* stream, hx_buffer* dst,
                                 uint64_t dst_offset, hx_device* src_device, const hx_buffer* src,
                                 uint64_t src_offset, size_t size);

}  // namespace hxsim
