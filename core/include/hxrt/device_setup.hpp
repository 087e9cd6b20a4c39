// How physical devices become the devices ops run on (docs/configuration.md; installed
// in share/doc/hxrt): which are visible, how each is split into logical devices, and how each
// logical device takes memory. Set in the config file ("visible_devices", "devices"), by
// environment variables, or through Runtime's setters before the runtime is initialised; fixed
// after.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hxrt {

// How a device's allocator takes memory from its plugin. Every field is optional: a policy
// for one device ("GPU:0") overrides, field by field, the policy for its type ("GPU"), which
// overrides the defaults (growth, no limit beyond the device's own, memory kept for reuse).
struct MemoryPolicy {
  // Start with a small region and take each next one twice as large, as requests need.
  // growth = true is preallocate = false, and the other way round; both given must agree.
  std::optional<bool> growth;
  // Take the whole budget (the limit) in one region when the runtime is initialised.
  // Needs a limit: limit_mb or fraction.
  std::optional<bool> preallocate;
  // The most memory the allocator takes from the device, in MiB (hard, also with growth).
  std::optional<uint64_t> limit_mb;
  // The most memory as a fraction, in (0, 1], of the device's total memory. With limit_mb
  // too, the smaller limit holds. A device policy that sets either replaces both of its
  // type's.
  std::optional<double> fraction;
  // Give a region back to the device as soon as no allocation uses it.
  std::optional<bool> release_unused;
};

// One logical device cut from a physical device.
struct LogicalDeviceConfig {
  // This logical device's hard limit in MiB; none: the physical device's policy limit.
  std::optional<uint64_t> memory_limit_mb;
};

// A device as its plugin reports it, before the visible filter and the logical split.
struct PhysicalDeviceInfo {
  std::string name;        // "/physical_device:GPU:0"
  std::string short_name;  // "GPU:0": how visible_devices and the "devices" config name it
  std::string type;        // "GPU"
  int id = 0;              // the plugin's ordinal: index among the physical devices of its type
  std::string plugin;
  std::string product;
  uint64_t memory_total = 0;
  std::string placement_class;  // "discrete accelerator", "host accelerator" or "CPU"
  // Short names of the logical devices made from it, in id order. Filled when the runtime
  // is initialised; empty before, and for a device that is not visible.
  std::vector<std::string> logical;
};

}  // namespace hxrt
