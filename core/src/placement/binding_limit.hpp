// A device's binding limit (hx_device_properties.max_binding): the most bytes one kernel of
// the device reaches through one tensor view, as Vulkan's maxStorageBufferRange bounds a
// storage buffer. The placer treats a call with a larger input or output as declined by every
// kernel of that device, so that placement moves on as it does when a kernel's check declines.
#pragma once

#include <string>

#include "devices/device.hpp"
#include "placement/placer.hpp"

namespace hxrt::detail {

// True when every view of `request` lies within `device`'s binding limit (always, for a device
// without one); otherwise false, with `declined` saying which view and both sizes.
bool within_binding_limit(const Device& device, const PlacementRequest& request,
                          std::string& declined);

}  // namespace hxrt::detail
