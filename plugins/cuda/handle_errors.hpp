// The statuses for a stream or event handle that cannot be used where it was passed.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcuda {

class CudaDevice;

// INVALID_ARGUMENT: `handle` is not a live `kind` ("stream", "event") of this plugin (never
// created, or destroyed).
hx_status* not_a_live_handle(const CudaDevice& device, const char* kind, const void* handle);
// INVALID_ARGUMENT: `handle` is a live `kind` of `owner`, passed for `device`.
hx_status* belongs_elsewhere(const CudaDevice& device, const char* kind, const void* handle,
                             const CudaDevice& owner);

}  // namespace hxcuda
