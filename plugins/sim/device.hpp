// The simulated devices: as many as the options ask for, each with its own memory budget,
// performance model and transfer counters (options.hpp's DeviceOptions), described with fixed
// properties.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>

#include "device_memory.hpp"
#include "host_memory.hpp"
#include "options.hpp"
#include "perf_model.hpp"
#include "transfer_counters.hpp"

namespace hxsim {

struct SimPlugin;

struct SimDevice {
  SimDevice(SimPlugin& owner, int32_t ordinal_in, const DeviceOptions& options);

  SimPlugin& plugin;
  const int32_t ordinal;     // index in device_get
  const std::string label;   // "simulated GPU device 1", for messages
  // "GPU:1": the name the core gives the device when no other plugin offers its type; names
  // the device in the failures of its queued work, which the core passes on.
  const std::string name;
  const std::string bus_id;  // "sim:1"
  // Thread-safe on its own; mutable because work on a const device pins its buffers.
  mutable DeviceMemory memory;
  // Its page-locked host memory (host_memory.hpp).
  PinnedAllocations pinned;
  TransferCounters& counters;
  // The time its work takes; read-only but for its random delay, behind a mutex.
  const PerfModel model;
};

inline hx_device* to_handle(SimDevice* device) { return reinterpret_cast<hx_device*>(device); }
inline SimDevice& from_handle(hx_device* device) { return *reinterpret_cast<SimDevice*>(device); }
inline const SimDevice& from_handle(const hx_device* device) {
  return *reinterpret_cast<const SimDevice*>(device);
}

// Function-table entries.
hx_status* device_count(hx_plugin* plugin, int32_t* out_count);
hx_status* device_get(hx_plugin* plugin, int32_t ordinal, hx_device** out_device);
hx_status* device_properties(hx_device* device, hx_device_properties* props);

}  // namespace hxsim
