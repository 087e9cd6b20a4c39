// The device setters: the one code path by which the config file, the environment and
// Runtime's setters change DeviceSettings. Each checks everything before it changes
// anything, so a failed call leaves the config as it was.
#include <map>

#include "config/config.hpp"
#include "config/device_keys.hpp"
#include "config/device_values.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/message_text.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

std::string device_pointer(const std::string& key) { return pointer_child("/devices", key); }

void check_memory_policy(const MemoryPolicy& policy, const std::string& source,
                         const std::string& path) {
  if (policy.growth && policy.preallocate && *policy.growth == *policy.preallocate) {
    const std::string both = *policy.growth ? "true" : "false";
    fail(source, path,
         "growth " + both + " and preallocate " + both +
             " contradict each other: growth takes memory as it is needed, preallocate takes "
             "the whole budget at start-up; give one of them");
  }
  if (policy.limit_mb) read_limit_mib(json(*policy.limit_mb), source, path + "/limit_mb");
  if (policy.fraction) read_memory_fraction(json(*policy.fraction), source, path + "/fraction");
}

}  // namespace

void set_visible_devices(Config& config, const std::vector<std::string>& names,
                         const std::string& source) {
  std::vector<std::string> visible;
  std::map<std::string, size_t> position;  // a map, not a search of `visible`: lists can be long
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string path = pointer_child("/visible_devices", i);
    const std::string name = read_physical_device(names[i], source, path).canonical();
    const auto [earlier, added] = position.emplace(name, i);
    if (!added) {
      fail(source, path,
           "\"" + shown(names[i]) + "\" names " + name + " again (as /visible_devices/" +
               std::to_string(earlier->second) + " does); list each device once");
    }
    visible.push_back(name);
  }
  config.devices.visible_devices = visible;
  config.origins["/visible_devices"] = source;
}

void set_device_count(Config& config, const std::string& type, int count,
                      const std::string& source) {
  const std::string path = device_pointer(type) + "/device_count";
  const DeviceKey key = read_device_key(type, source, device_pointer(type));
  check_device_count_key(key, source, path);
  read_device_count(json(count), source, path);
  config.devices.device_count[key.type] = count;
  config.origins[device_pointer(key.type) + "/device_count"] = source;
}

void set_memory_policy(Config& config, const std::string& key, const MemoryPolicy& policy,
                       const std::string& source) {
  const std::string canonical = read_device_key(key, source, device_pointer(key)).canonical();
  check_memory_policy(policy, source, device_pointer(key) + "/memory");

  const std::string origin_path = device_pointer(canonical) + "/memory/";
  auto set_origin = [&](const char* field, bool given) {
    if (given) {
      config.origins[origin_path + field] = source;
    } else {
      config.origins.erase(origin_path + field);
    }
  };
  // Stored normalised (device_settings.hpp): the mode as preallocate, whichever was given;
  // the origin stays under the name that was given.
  if (policy.growth || policy.preallocate) {
    MemoryPolicy& stored = config.devices.memory[canonical];
    stored.preallocate = policy.preallocate ? *policy.preallocate : !*policy.growth;
    set_origin("growth", policy.growth.has_value());
    set_origin("preallocate", policy.preallocate.has_value());
  }
  // A limit replaces the earlier layer's limit of either kind: a device that asks for half
  // its memory must not keep its type's 1024 MiB as well.
  if (policy.limit_mb || policy.fraction) {
    MemoryPolicy& stored = config.devices.memory[canonical];
    stored.limit_mb = policy.limit_mb;
    stored.fraction = policy.fraction;
    set_origin("limit_mb", policy.limit_mb.has_value());
    set_origin("fraction", policy.fraction.has_value());
  }
  if (policy.release_unused) {
    config.devices.memory[canonical].release_unused = policy.release_unused;
    set_origin("release_unused", true);
  }
}

void set_logical_devices(Config& config, const std::string& physical,
                         const std::vector<LogicalDeviceConfig>& devices,
                         const std::string& source) {
  const std::string path = device_pointer(physical) + "/logical";
  const DeviceKey key = read_device_key(physical, source, device_pointer(physical));
  check_logical_devices_key(key, source, path);
  if (devices.empty()) {
    fail(source, path,
         "expected a non-empty list of logical devices like [{\"memory_limit_mb\": 1024}, "
         "{\"memory_limit_mb\": 1024}], got array []");
  }
  uint64_t total_mib = 0;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i].memory_limit_mb) continue;
    const std::string limit_path = pointer_child(path, i) + "/memory_limit_mb";
    total_mib += read_limit_mib(json(*devices[i].memory_limit_mb), source, limit_path);
    // Checked as it grows, so that the sum itself never overflows.
    if (total_mib > kMaxLimitMiB) {
      fail(source, limit_path,
           "the logical devices' memory_limit_mb add up to more than " +
               std::to_string(kMaxLimitMiB) +
               " MiB here, which overflows a 64-bit byte count; lower them");
    }
  }
  config.devices.logical[key.canonical()] = devices;
  config.origins[device_pointer(key.canonical()) + "/logical"] = source;
}

}  // namespace hxrt::detail
