// One device as its plugin reports it: the plugin's handle for ordinal N and the static
// properties read once at start-up. Logical devices (devices/device.hpp) are cut from it; it
// holds its plugin, so the plugin stays loaded while any of them is referenced.
#pragma once

#include <memory>
#include <string>

#include "devices/live_buffers.hpp"
#include "hxrt/device_info.hpp"
#include "hxrt/device_setup.hpp"
#include "hxrt/plugin_api.h"
#include "plugins/plugin.hpp"

namespace hxrt::detail {

class PhysicalDevice {
 public:
  // Opens ordinal `ordinal` of `plugin` and reads its properties (their text bounded and
  // escaped); throws Error when the plugin refuses either, returns a NULL handle or reports
  // figures no device has.
  // `id` numbers it among the physical devices of its type, across plugins in load order.
  PhysicalDevice(std::shared_ptr<Plugin> plugin, int ordinal, int id);
  PhysicalDevice(const PhysicalDevice&) = delete;
  PhysicalDevice& operator=(const PhysicalDevice&) = delete;

  const std::string& type() const { return plugin_->device_type(); }
  int ordinal() const { return ordinal_; }
  const std::string& short_name() const { return short_name_; }  // "GPU:0"
  Plugin& plugin() const { return *plugin_; }
  const std::shared_ptr<Plugin>& plugin_ptr() const { return plugin_; }
  hx_device* handle() const { return handle_; }
  uint64_t memory_total() const { return properties_.memory_total; }
  hx_memory_kind memory_kind() const { return memory_kind_; }
  hx_placement_class placement_class() const { return placement_class_; }
  // The largest size one allocate call gives; 0 when no smaller than the memory.
  uint64_t max_allocation() const { return max_allocation_; }
  // A power of two from 1 to 4096: what allocate is asked for, and what every tensor's byte
  // offset is a multiple of.
  uint64_t alignment() const { return alignment_; }
  // What the device's kernels need of a tensor's first element (hx_device_properties
  // .min_alignment): at most alignment().
  uint64_t min_alignment() const { return min_alignment_; }
  // The most bytes one kernel reaches through one tensor view; 0: no limit of its own.
  uint64_t max_binding() const { return max_binding_; }
  // Whether the core, not wait_event, waits for other devices' events (HX_WAIT_ON_HOST).
  bool waits_on_host() const { return waits_on_host_; }
  // The plugin's properties; `logical` is left empty.
  const PhysicalDeviceInfo& properties() const { return properties_; }
  // What DeviceInfo repeats of the physical device (product, vendor, bus, ...).
  const DeviceInfo& descriptive_info() const { return descriptive_; }
  // The buffers its plugin has given and not taken back, across its logical devices.
  LiveBuffers& live_buffers() const { return *live_buffers_; }

 private:
  std::shared_ptr<Plugin> plugin_;
  int ordinal_;
  hx_device* handle_ = nullptr;
  std::string short_name_;
  hx_memory_kind memory_kind_ = HX_MEMORY_DEVICE;
  hx_placement_class placement_class_ = HX_PLACEMENT_DISCRETE_ACCELERATOR;
  uint64_t max_allocation_ = 0;
  uint64_t alignment_ = 0;
  uint64_t min_alignment_ = 0;
  uint64_t max_binding_ = 0;
  bool waits_on_host_ = false;
  PhysicalDeviceInfo properties_;
  DeviceInfo descriptive_;
  std::unique_ptr<LiveBuffers> live_buffers_;
};

}  // namespace hxrt::detail
