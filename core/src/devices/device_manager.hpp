// The devices of all loaded plugins: the physical ones, opened at start-up, and the logical
// ones made from them when the runtime is initialised (devices/device_plan.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/device_settings.hpp"
#include "devices/device.hpp"
#include "devices/physical_device.hpp"
#include "base/device_name.hpp"
#include "base/logger.hpp"
#include "plugins/plugin.hpp"

namespace hxrt::detail {

class DeviceManager {
 public:
  // Opens every device of `plugin`. A device that fails to open is logged and left out.
  void add_plugin_devices(const std::shared_ptr<Plugin>& plugin, Logger& logger);
  // The task whose devices these are, in their names; before create_logical_devices.
  void set_task(TaskName task) { task_ = std::move(task); }
  const TaskName& task() const { return task_; }
  // Creates the logical devices under `settings` and logs the physical -> visible ->
  // logical mapping at info level. All or nothing: on Error no logical device exists.
  void create_logical_devices(const DeviceSettings& settings, Logger& logger);

  // Each with the short names of its logical devices (empty before create_logical_devices).
  std::vector<PhysicalDeviceInfo> physical_info() const;

  // Visible-device names (canonical short names, as DeviceSettings::visible_devices holds
  // them) are checked when they are set, as TensorFlow's set_visible_devices does: throws
  // Error(kInvalidArgument) for the first that matches no physical device, beginning with
  // `source` and its JSON path (/visible_devices/<i>) as configuration errors do, and listing
  // the physical devices there are.
  void check_visible_devices(const std::vector<std::string>& names,
                             const std::string& source) const;
  // Whether `settings` would make the logical devices that exist again: the same physical
  // devices visible, in the same logical order. (Setting that after initialisation is not
  // a change, so TensorFlow allows it.)
  bool makes_same_devices(const DeviceSettings& settings) const;

  // Logical devices: grouped by type, lowest id first within a type.
  const std::vector<std::shared_ptr<Device>>& all() const { return devices_; }
  // nullptr when absent.
  Device* find(const std::string& type, int id) const;
  // The devices a (possibly partial) spec names, lowest id first within a type.
  std::vector<Device*> matching(const DeviceSpec& spec) const;
  // Waits for the work queued on every logical device and releases the memory it held back;
  // errors have no one to go to here and are dropped.
  void quiesce() noexcept;
  // "/job:localhost/replica:0/task:0/device:CPU:0, ..." for error messages.
  std::string describe() const;
  // describe(), for a message about `spec`, which matched none of them: and, where the spec
  // names another task of the cluster, that only this task's devices take ops here.
  std::string describe_for(const DeviceSpec& spec) const;

 private:
  std::vector<std::shared_ptr<PhysicalDevice>> physical_;
  std::vector<std::shared_ptr<Device>> devices_;
  TaskName task_;
};

}  // namespace hxrt::detail
