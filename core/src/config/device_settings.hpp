// The device part of the configuration: visible devices, per-type device counts, memory
// policies and logical splits, as the config file, the environment and Runtime's setters
// give them. The planner (devices/device_plan.hpp) turns them into logical devices.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/device_setup.hpp"

namespace hxrt::detail {

struct DeviceSettings {
  // Physical devices left visible, as canonical short names ("GPU:1"), in the order given,
  // which is the order of their logical ids. Types not named stay wholly visible.
  // nullopt: no filter.
  std::optional<std::vector<std::string>> visible_devices;
  // Device type -> the most physical devices of that type to use (the first ones visible).
  std::map<std::string, int> device_count;
  // "GPU" (a type) or "GPU:0" (a physical device) -> its policy, layers merged field by
  // field (a later layer's limit_mb or fraction replaces both of the earlier's). Stored
  // normalised: growth is never set, preallocate carries the mode.
  std::map<std::string, MemoryPolicy> memory;
  // "GPU:0" (a physical device) -> its logical devices; absent: one logical device.
  std::map<std::string, std::vector<LogicalDeviceConfig>> logical;
  // $HXRT_FORCE_MEMORY_GROWTH: growth everywhere, whatever the file or the API asked.
  bool force_memory_growth = false;
  // memory.thread_caches: each device's allocator serves small blocks from caches of the
  // calling thread (memory/thread_cache.hpp); false: every block takes the allocator's lock.
  bool thread_caches = true;
};

}  // namespace hxrt::detail
