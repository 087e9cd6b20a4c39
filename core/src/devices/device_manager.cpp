#include "devices/device_manager.hpp"

#include <algorithm>

#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
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
                                               created.size(), logical.memory, logical.policy,
                                               task_));
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

void DeviceManager::check_visible_devices(const std::vector<std::string>& names,
                                          const std::string& source) const {
  for (size_t i = 0; i < names.size(); ++i) {
    const bool exists = std::any_of(physical_.begin(), physical_.end(), [&](const auto& device) {
      return device->short_name() == names[i];
    });
    if (exists) continue;
    std::string physical;
    for (const auto& device : physical_) {
      physical += (physical.empty() ? "" : ", ") + device->short_name();
    }
    fail(source, pointer_child("/visible_devices", i),
         names[i] + " matches no physical device; the physical devices are " +
             (physical.empty() ? std::string("none (no plugin loaded one)") : physical) +
             " (Runtime::physical_devices() and hxrt-info list them)");
  }
}

bool DeviceManager::makes_same_devices(const DeviceSettings& settings) const {
  std::vector<PhysicalDeviceInfo> physical;
  for (const auto& device : physical_) physical.push_back(device->properties());
  DevicePlan plan;
  try {
    plan = plan_devices(physical, settings);
  } catch (const Error&) {
    return false;  // a setup that cannot be applied is not the one that was
  }
  if (plan.devices.size() != devices_.size()) return false;
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (physical_[plan.devices[i].physical].get() != &devices_[i]->physical() ||
        plan.devices[i].id != devices_[i]->id()) {
      return false;
    }
  }
  return true;
}

Device* DeviceManager::find(const std::string& type, int id) const {
  for (const auto& device : devices_) {
    if (device->type() == type && device->id() == id) return device.get();
  }
  return nullptr;
}

std::vector<Device*> DeviceManager::matching(const DeviceSpec& spec) const {
  std::vector<Device*> found;
  if (!task_.admits(spec)) return found;
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

std::string DeviceManager::describe_for(const DeviceSpec& spec) const {
  if (task_.admits(spec)) return describe();
  return describe() + "\n" + to_string(spec) + " is not this task's (" + task_.prefix() +
         "): a tensor lives on this task's own devices; ops run on another task's, and a "
         "graph's nodes go there (docs/cluster.md)";
}

void DeviceManager::quiesce() noexcept {
  for (const std::shared_ptr<Device>& device : devices_) {
    try {
      device->synchronize();
    } catch (...) {
      // Failed work: the stream was cleared, and what follows still lets go of its events.
    }
    try {
      device->pending().drain();
      // Its slices' events hold the device: after the synchronise, all have completed.
      device->staging().reclaim();
    } catch (...) {
    }
  }
}

}  // namespace hxrt::detail
