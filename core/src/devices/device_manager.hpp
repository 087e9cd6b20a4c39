// The devices of all loaded plugins, each with its per-type id and canonical name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "devices/device.hpp"
#include "device_name.hpp"
#include "logger.hpp"
#include "plugins/plugin.hpp"

namespace hxrt::detail {

class DeviceManager {
 public:
  // Opens every device of every plugin. A device that fails to open is logged and left out.
  void add_plugin_devices(const std::shared_ptr<Plugin>& plugin, Logger& logger);

  const std::vector<std::shared_ptr<Device>>& all() const { return devices_; }
  // nullptr when absent.
  Device* find(const std::string& type, int id) const;
  // The devices a (possibly partial) spec names, lowest id first within a type.
  std::vector<Device*> matching(const DeviceSpec& spec) const;
  // "/job:localhost/replica:0/task:0/device:CPU:0, ..." for error messages.
  std::string describe() const;

 private:
  std::vector<std::shared_ptr<Device>> devices_;
};

}  // namespace hxrt::detail
