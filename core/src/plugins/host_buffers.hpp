// A plugin's page-locked host memory as buffers (hx_host_memory_api.allocate_buffer, ABI
// 2.5): what it allocated, by address, with the plugin's handle of each allocation, so that a
// copy whose host side lies there passes the handle and an offset (copy_to_device,
// copy_to_host) instead of a pointer the plugin would have to map back to its buffer object.
// Every page-locked allocation the core makes goes through allocate_page_locked, so the
// staging rings, Runtime::pinned_memory and pinned tensors all register here. Thread-safe; a
// lookup in a plugin without buffers, or with none allocated, is one load
// (base/address_ranges.hpp).
#pragma once

#include <cstddef>

#include "base/address_ranges.hpp"
#include "hxrt/plugin_api.h"

namespace hxrt::detail {

class Plugin;

// A plugin's host buffers by address: the value of each range is the plugin's handle of it.
using HostBuffers = AddressRanges<hx_buffer*>;

// `bytes` of page-locked memory from `plugin`'s host_memory group for `device`, through
// allocate_buffer (registered in the plugin's HostBuffers) where the group offers it, else
// allocate. Returns the plugin's status (null on success) and sets *out; a success with a NULL
// pointer or handle becomes an INTERNAL status naming the plugin, with nothing kept. The
// plugin must have a host_memory group.
hx_status* allocate_page_locked(Plugin& plugin, hx_device* device, size_t bytes, void** out);
// Gives back what allocate_page_locked gave, unregistering it first. Accepts NULL.
void free_page_locked(Plugin& plugin, hx_device* device, void* data) noexcept;

}  // namespace hxrt::detail
