// What hxrt-info reports, read from the runtime once so that the text and the JSON forms
// describe the same state (free memory changes between two reads).
#pragma once

#include <vector>

#include "hxrt/hxrt.hpp"

namespace hxrt_info {

struct Snapshot {
  std::vector<hxrt::PluginReport> plugins;  // in load order
  std::vector<hxrt::DeviceInfo> devices;
  std::vector<hxrt::KernelInfo> kernels;    // by op, then device type, then priority (highest first)
};

Snapshot take_snapshot(const hxrt::Runtime& runtime);

}  // namespace hxrt_info
