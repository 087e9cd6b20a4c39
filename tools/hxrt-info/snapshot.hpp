// What hxrt-info reports, read from the runtime once so that the text and the JSON forms
// describe the same state (free memory changes between two reads).
#pragma once

#include <optional>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace hxrt_info {

// One logical device and its allocator's figures, read at the same moment (none for another
// task's device: its allocator is in that process).
struct DeviceSnapshot {
  hxrt::DeviceInfo info;
  std::optional<hxrt::MemoryStats> memory;
};

struct Snapshot {
  hxrt::ClusterInfo cluster;
  std::vector<hxrt::PluginReport> plugins;         // in load order
  std::vector<hxrt::PhysicalDeviceInfo> physical;  // each with the logical devices cut from it
  std::vector<DeviceSnapshot> devices;             // the logical devices ops run on
  std::vector<hxrt::KernelInfo> kernels;  // by op, then device type, then priority (highest first)
};

// Initialises the runtime: the physical -> logical mapping and the allocators exist only
// from then on.
Snapshot take_snapshot(const hxrt::Runtime& runtime);

}  // namespace hxrt_info
