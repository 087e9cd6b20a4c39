// The memory entries of the function table: each device spends its own budget (memory_mb),
// and reports what is left of it as its free memory.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxsim {

struct SimDevice;

// NULL when [ptr, ptr + size) lies in `device`'s memory (or size is 0); otherwise
// INVALID_ARGUMENT naming `what` ("memset destination", ...), the range and the device.
hx_status* check_device_range(const SimDevice& device, const void* ptr, size_t size,
                              const char* what);

// Function-table entries.
hx_status* memory_info(hx_device* device, uint64_t* out_free, uint64_t* out_total);
hx_status* allocate(hx_device* device, size_t size, size_t alignment, void** out_ptr);
void deallocate(hx_device* device, void* ptr, size_t size);
hx_status* memset_bytes(hx_device* device, hx_stream* stream, void* dst, uint8_t value,
                        size_t size);

}  // namespace hxsim
