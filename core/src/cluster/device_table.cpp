#include "cluster/device_table.hpp"

#include <nlohmann/json.hpp>

#include "hxrt/error.hpp"

namespace hxrt {

// The fields a task tells the others, once, for both directions: all but memory_free (read
// from the plugin when asked, which only the device's own task can do) and local.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeviceInfo, name, short_name, type, id, physical,
                                   memory_policy, plugin, product, vendor, bus_id, arch,
                                   memory_total, numa_node, compute_units, memory_kind,
                                   placement_class, max_allocation, alignment, min_alignment,
                                   max_binding, cross_device_wait, task)

namespace detail {

std::string device_table_text(const std::vector<DeviceInfo>& devices) {
  return nlohmann::json(devices).dump();
}

std::vector<DeviceInfo> read_device_table(const std::string& text, const std::string& sender) {
  try {
    std::vector<DeviceInfo> devices = nlohmann::json::parse(text).get<std::vector<DeviceInfo>>();
    for (DeviceInfo& device : devices) device.local = false;
    return devices;
  } catch (const nlohmann::json::exception& e) {
    throw Error(StatusCode::kInternal,
                sender + " sent a device table this task cannot read (" + e.what() +
                    "); do all tasks run the same hxrt?");
  }
}

}  // namespace detail
}  // namespace hxrt
