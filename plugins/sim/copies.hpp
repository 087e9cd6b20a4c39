// Transfers. Each checks that the device side lies in the device's memory and the host side
// does not lie in any simulated device's memory (device memory is reached only through these
// functions), copies at once, and counts the call (transfer_counters.hpp).
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>

namespace hxsim {

// Function-table entries.
hx_status* copy_host_to_device(hx_device* device, hx_stream* stream, void* dst_device,
                               const void* src_host, size_t size);
hx_status* copy_device_to_host(hx_device* device, hx_stream* stream, void* dst_host,
                               const void* src_device, size_t size);
hx_status* copy_device_to_device(hx_device* dst, hx_stream* stream, void* dst_ptr, hx_device* src,
                                 const void* src_ptr, size_t size);

}  // namespace hxsim
