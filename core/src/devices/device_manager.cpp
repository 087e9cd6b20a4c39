#include "devices/device_manager.hpp"

#include "hxrt/error.hpp"

namespace hxrt::detail {

void DeviceManager::add_plugin_devices(const std::shared_ptr<Plugin>& plugin, Logger& logger) {
  int next_id = 0;
  for (const auto& device : devices_) {
    if (device->type() == plugin->device_type()) ++next_id;
  }
  for (int ordinal = 0; ordinal < plugin->device_count(); ++ordinal) {
    try {
      devices_.push_back(std::make_shared<Device>(plugin, ordinal, next_id, devices_.size()));
      ++next_id;
    } catch (const Error& e) {
      logger.log(LogLevel::kWarning, std::string("device left out: ") + e.what());
    }
  }
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
