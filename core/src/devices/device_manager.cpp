#include "devices/device_manager.hpp"

#include <algorithm>

#include "devices/device_plan.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

void DeviceManager::add_plugin_devices(const std::shared_ptr<Plugin>& plugin, Logger& logger) {
  // Several plugins may provide one type: their devices are numbered in load order.
  int id = static_cast<int>(std::count_if(physical_.begin(), physical_.end(), [&](const auto& d) {
    return d->type() == plugin->device_type();
  }));
  for (int ordinal = 0; ordinal < plugin->device_count(); ++ordinal) {
    try {
      physical_.push_back(std::make_shared<PhysicalDevice>(plugin, ordinal, id));
      ++id;
    } catch (const Error& e) {
      logger.log(LogLevel::kWarning, std::string("device left out: ") + e.what());
    }
  }
}

void DeviceManager::create_logical_devices(const DeviceSettings& settings, Logger& logger) {
  std::vector<PhysicalDeviceInfo> physical;
  for (const auto& device : physical_) physical.push_back(device->properties());
  const DevicePlan plan = plan_devices(physical, settings);

  std::vector<std::shared_ptr<Device>> created;
  for (const LogicalDevicePlan& logical : plan.devices) {
    created.push_back(std::make_shared<Device>(physical_[logical.physical], logical.id,
                                               created.size(), logical.memory, logical.policy));
  }
  devices_ = std::move(created);

  for (const std::string& warning : plan.warnings) logger.log(LogLevel::kWarning, warning);
  for (const PhysicalDeviceInfo& device : physical_info()) {
    std::string mapped;
    for (const std::string& name : device.logical) mapped += (mapped.empty() ? "" : ", ") + name;
    logger.log(LogLevel::kInfo, "physical device " + device.short_name + " (plugin '" +
                                    device.plugin + "') -> " +
                                    (mapped.empty() ? "not visible" : "logical " + mapped));
  }
  for (const auto& device : devices_) {
    logger.log(LogLevel::kInfo, "device " + device->short_name() + " = " + device->name() +
                                    ": " + device->memory_policy());
  }
}

std::vector<PhysicalDeviceInfo> DeviceManager::physical_info() const {
  std::vector<PhysicalDeviceInfo> out;
  for (const auto& device : physical_) {
    PhysicalDeviceInfo info = device->properties();
    for (const auto& logical : devices_) {
      if (&logical->physical() == device.get()) info.logical.push_back(logical->short_name());
    }
    out.push_back(std::move(info));
  }
  return out;
}

Device* DeviceManager::find(const std::string& type, int id) const {
  for (const auto& device : devices_) {
    if (device->type() == type && device->id() == id) return device.get();
  }
  return nullptr;
}

std::vector<Device*> DeviceManager::matching(const DeviceSpec& spec) const {
  std::vector<Device*> found;
  bool local = (spec.job.empty() || spec.job == "localhost") && spec.replica <= 0 &&
               spec.task <= 0;
  if (!local) return found;
  for (const auto& device : devices_) {
    if (!spec.type.empty() && device->type() != spec.type) continue;
    if (spec.index >= 0 && device->id() != spec.index) continue;
    found.push_back(device.get());
  }
  return found;
}

std::string DeviceManager::describe() const {
  std::string text;
  for (const auto& device : devices_) {
    if (!text.empty()) text += ", ";
    text += device->name();
  }
  return text.empty() ? "<none>" : text;
}

}  // namespace hxrt::detail
