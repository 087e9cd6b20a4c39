#include "handle_errors.hpp"

#include <hxplugin/status.hpp>

#include "device.hpp"

namespace hxcuda {

hx_status* not_a_live_handle(const CudaDevice& device, const char* kind, const void* handle) {
  return hxplugin::make_status(
      device.services(), HX_INVALID_ARGUMENT,
      "%s: %p is not a live %s of the cuda plugin (never created, or destroyed)",
      device.label().c_str(), handle, kind);
}

hx_status* belongs_elsewhere(const CudaDevice& device, const char* kind, const void* handle,
                             const CudaDevice& owner) {
  return hxplugin::make_status(device.services(), HX_INVALID_ARGUMENT, "%s: %s %p belongs to %s",
                               device.label().c_str(), kind, handle, owner.label().c_str());
}

}  // namespace hxcuda
