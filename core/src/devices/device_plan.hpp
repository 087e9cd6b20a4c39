// From physical devices and the device settings to the logical devices to create: the
// visible filter (visible_devices, device_count), the logical split and each logical
// device's memory policy. Pure: no plugin is called, so every rule is testable alone.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "config/device_settings.hpp"
#include "hxrt/device_setup.hpp"
#include "memory/bfc_allocator.hpp"

namespace hxrt::detail {

struct LogicalDevicePlan {
  size_t physical;      // index into the physical list planned from
  int id;               // logical id among the devices of its type
  BfcOptions memory;    // the allocator's options under the resolved policy
  std::string policy;   // "growth, limit 1.00 GiB, release unused": for logs and DeviceInfo
};

struct DevicePlan {
  // Grouped by type in the order the types first appear in the physical list; within a
  // type, in logical id order (visible_devices order, then the split's order).
  std::vector<LogicalDevicePlan> devices;
  // Settings that had no effect because they name a device of a present type that does not
  // exist, and overrides by HXRT_FORCE_MEMORY_GROWTH: for the start-up log.
  std::vector<std::string> warnings;
};

// Throws Error(kInvalidArgument) for a setup that cannot be applied: preallocate without a
// limit, a fraction of a device whose plugin reports no total memory, logical limits that
// add up to more than the physical device's limit or memory.
DevicePlan plan_devices(const std::vector<PhysicalDeviceInfo>& physical,
                        const DeviceSettings& settings);

}  // namespace hxrt::detail
