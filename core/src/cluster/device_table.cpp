#include "cluster/device_table.hpp"

#include <nlohmann/json.hpp>

#include "hxrt/error.hpp"

namespace hxrt::detail {

using nlohmann::json;

std::string device_table_text(const std::vector<DeviceInfo>& devices) {
  json table = json::array();
  for (const DeviceInfo& device : devices) {
    table.push_back({{"name", device.name},
                     {"short_name", device.short_name},
                     {"type", device.type},
                     {"id", device.id},
                     {"physical", device.physical},
                     {"memory_policy", device.memory_policy},
                     {"plugin", device.plugin},
                     {"product", device.product},
                     {"vendor", device.vendor},
                     {"arch", device.arch},
                     {"memory_total", device.memory_total},
                     {"compute_units", device.compute_units},
                     {"memory_kind", device.memory_kind},
                     {"placement_class", device.placement_class},
                     {"bus_id", device.bus_id},
                     {"numa_node", device.numa_node},
                     {"max_allocation", device.max_allocation},
                     {"alignment", device.alignment},
                     {"min_alignment", device.min_alignment},
                     {"max_binding", device.max_binding},
                     {"cross_device_wait", device.cross_device_wait},
                     {"task", device.task}});
  }
  return table.dump();
}

std::vector<DeviceInfo> read_device_table(const std::string& text, const std::string& sender) {
  try {
    std::vector<DeviceInfo> devices;
    for (const json& entry : json::parse(text)) {
      DeviceInfo device;
      device.name = entry.at("name").get<std::string>();
      device.short_name = entry.at("short_name").get<std::string>();
      device.type = entry.at("type").get<std::string>();
      device.id = entry.at("id").get<int>();
      device.physical = entry.at("physical").get<std::string>();
      device.memory_policy = entry.at("memory_policy").get<std::string>();
      device.plugin = entry.at("plugin").get<std::string>();
      device.product = entry.at("product").get<std::string>();
      device.vendor = entry.at("vendor").get<std::string>();
      device.arch = entry.at("arch").get<std::string>();
      device.memory_total = entry.at("memory_total").get<uint64_t>();
      device.compute_units = entry.at("compute_units").get<int>();
      device.memory_kind = entry.at("memory_kind").get<std::string>();
      device.placement_class = entry.at("placement_class").get<std::string>();
      device.bus_id = entry.at("bus_id").get<std::string>();
      device.numa_node = entry.at("numa_node").get<int>();
      device.max_allocation = entry.at("max_allocation").get<uint64_t>();
      device.alignment = entry.at("alignment").get<uint64_t>();
      device.min_alignment = entry.at("min_alignment").get<uint64_t>();
      device.max_binding = entry.at("max_binding").get<uint64_t>();
      device.cross_device_wait = entry.at("cross_device_wait").get<std::string>();
      device.task = entry.at("task").get<std::string>();
      device.local = false;
      devices.push_back(std::move(device));
    }
    return devices;
  } catch (const json::exception& e) {
    throw Error(StatusCode::kInternal,
                sender + " sent a device table this task cannot read (" + e.what() +
                    "); do all tasks run the same hxrt?");
  }
}

}  // namespace hxrt::detail
