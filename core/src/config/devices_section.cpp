// "devices" in a config file: read into the types of hxrt/device_setup.hpp and handed to the
// device setters, which Runtime uses too. Its rows in settings_table.cpp are structured: this
// reader checks them.
#include <map>

#include "config/config_sections.hpp"
#include "config/device_keys.hpp"
#include "config/device_values.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/message_text.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

MemoryPolicy read_memory_policy(const json& memory, const std::string& source,
                                const std::string& path) {
  require_object(memory, source, path);
  check_keys(memory, {"growth", "preallocate", "limit_mb", "fraction", "release_unused"}, source,
             path);
  MemoryPolicy policy;
  if (memory.contains("growth")) {
    policy.growth = read_bool(memory["growth"], source, path + "/growth");
  }
  if (memory.contains("preallocate")) {
    policy.preallocate = read_bool(memory["preallocate"], source, path + "/preallocate");
  }
  if (memory.contains("limit_mb")) {
    policy.limit_mb = read_limit_mib(memory["limit_mb"], source, path + "/limit_mb");
  }
  if (memory.contains("fraction")) {
    policy.fraction = read_memory_fraction(memory["fraction"], source, path + "/fraction");
  }
  if (memory.contains("release_unused")) {
    policy.release_unused = read_bool(memory["release_unused"], source, path + "/release_unused");
  }
  return policy;
}

std::vector<LogicalDeviceConfig> read_logical_devices(const json& list,
                                                      const std::string& source,
                                                      const std::string& path) {
  if (!list.is_array()) {
    fail(source, path,
         "expected a non-empty list of logical devices like [{\"memory_limit_mb\": 1024}, "
         "{\"memory_limit_mb\": 1024}], got " + type_of(list));
  }
  std::vector<LogicalDeviceConfig> devices;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string item_path = pointer_child(path, i);
    if (!list[i].is_object()) {
      fail(source, item_path,
           "expected an object like {\"memory_limit_mb\": 1024} ({} for no limit of its own), "
           "got " + type_of(list[i]));
    }
    check_keys(list[i], {"memory_limit_mb"}, source, item_path);
    LogicalDeviceConfig device;
    if (list[i].contains("memory_limit_mb")) {
      device.memory_limit_mb =
          read_limit_mib(list[i]["memory_limit_mb"], source, item_path + "/memory_limit_mb");
    }
    devices.push_back(device);
  }
  return devices;
}

}  // namespace

void apply_devices_section(const json& devices, const std::string& source, Config& config) {
  require_object(devices, source, "/devices");
  std::map<std::string, std::string> written_as;  // canonical key -> the key as written
  for (const auto& item : devices.items()) {
    const std::string path = pointer_child("/devices", item.key());
    const DeviceKey key = read_device_key(item.key(), source, path);
    const auto [earlier, added] = written_as.emplace(key.canonical(), item.key());
    if (!added) {
      fail(source, path,
           "names the same " + std::string(key.names_device() ? "device" : "device type") +
               " as the key \"" + shown(earlier->second) + "\" (both are " +
               shown(key.canonical()) + "); merge the two");
    }
    const json& settings = item.value();
    require_object(settings, source, path);
    // A setting under the wrong kind of key gets the hint that says where it belongs, not
    // the unknown-key message that check_keys would give.
    if (settings.contains("device_count")) {
      check_device_count_key(key, source, path + "/device_count");
    }
    if (settings.contains("logical")) check_logical_devices_key(key, source, path + "/logical");
    if (key.names_device()) {
      check_keys(settings, {"memory", "logical"}, source, path);
    } else {
      check_keys(settings, {"memory", "device_count"}, source, path);
    }

    if (settings.contains("memory")) {
      set_memory_policy(config, item.key(),
                        read_memory_policy(settings["memory"], source, path + "/memory"), source);
    }
    if (settings.contains("device_count")) {
      set_device_count(config, item.key(),
                       read_device_count(settings["device_count"], source, path + "/device_count"),
                       source);
    }
    if (settings.contains("logical")) {
      set_logical_devices(config, item.key(),
                          read_logical_devices(settings["logical"], source, path + "/logical"),
                          source);
    }
  }
}

}  // namespace hxrt::detail
