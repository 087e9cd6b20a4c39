// The effective configuration as hxrt-info --config shows it: one entry per setting, in the
// order of config/hxrt.schema.json. Paths are JSON pointers into the file's layout, with
// three kinds of entry that the file cannot hold:
//   /env/HXRT_PLUGIN_PATH, /env/HXRT_FORCE_MEMORY_GROWTH  settings only the environment gives;
//   /api/plugin_paths                                      RuntimeOptions::plugin_paths;
//   /devices/*/...                                         what a device gets when neither its
//                                                          type nor itself sets the field.
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/device_keys.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;

constexpr const char* kForcedGrowth = "environment HXRT_FORCE_MEMORY_GROWTH";

class SettingList {
 public:
  explicit SettingList(const Config& config) : config_(config) {}

  // A setting whose origin is the one Config::origins records under `path`, or "default".
  void add(const std::string& path, const json& value) {
    auto origin = config_.origins.find(path);
    add(path, value, origin == config_.origins.end() ? "default" : origin->second);
  }
  void add(const std::string& path, const json& value, const std::string& source) {
    settings_.push_back({path, json_text(value), source});
  }
  bool has_origin(const std::string& path) const { return config_.origins.count(path) != 0; }
  std::vector<ConfigSetting> take() { return std::move(settings_); }

 private:
  const Config& config_;
  std::vector<ConfigSetting> settings_;
};

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

void add_plugin_settings(const Config& config, SettingList& list) {
  list.add("/plugins/search_paths", config.plugin_search_paths);
  list.add("/plugins/libraries", config.plugin_libraries);
  list.add("/plugins/use_installed", config.use_installed_plugins);
  list.add("/plugins/probe", config.probe_plugins);
  list.add("/plugins/probe_timeout_ms", config.probe_timeout_ms);
  list.add("/plugins/disabled", config.disabled_plugins);
  if (config.plugin_options.empty()) list.add("/plugins/options", json::object());
  for (const auto& [name, text] : config.plugin_options) {
    list.add(pointer_child("/plugins/options", name), json::parse(text));
  }
  list.add("/env/HXRT_PLUGIN_PATH", config.env_plugin_paths);
  list.add("/api/plugin_paths", config.api_plugin_paths);
}

void add_memory_policy(const std::string& key, const MemoryPolicy& policy, bool forced,
                       SettingList& list) {
  const std::string base = pointer_child("/devices", key) + "/memory/";
  if (policy.preallocate) {
    // HXRT_FORCE_MEMORY_GROWTH beats a preallocate of the file or the API, and says so.
    const bool overridden = forced && *policy.preallocate;
    const bool growth = !*policy.preallocate || forced;
    for (const char* field : {"growth", "preallocate"}) {
      const std::string path = base + field;
      if (!list.has_origin(path)) continue;  // the mode shows under the name it was given
      const json value = std::string(field) == "growth" ? growth : !growth;
      if (overridden) {
        list.add(path, value, kForcedGrowth);
      } else {
        list.add(path, value);
      }
    }
  }
  if (policy.limit_mb) list.add(base + "limit_mb", *policy.limit_mb);
  if (policy.fraction) list.add(base + "fraction", *policy.fraction);
  if (policy.release_unused) list.add(base + "release_unused", *policy.release_unused);
}

json logical_devices_json(const std::vector<LogicalDeviceConfig>& devices) {
  json list = json::array();
  for (const LogicalDeviceConfig& device : devices) {
    json item = json::object();
    if (device.memory_limit_mb) item["memory_limit_mb"] = *device.memory_limit_mb;
    list.push_back(item);
  }
  return list;
}

// Every key that has a setting, types before their devices and devices by index ("GPU:2"
// before "GPU:10").
std::vector<DeviceKey> device_keys(const DeviceSettings& devices) {
  std::vector<DeviceKey> keys;
  auto note = [&](const std::string& canonical) {
    const DeviceKey key = *parse_device_key(canonical);
    const bool known = std::any_of(keys.begin(), keys.end(), [&](const DeviceKey& k) {
      return k.type == key.type && k.index == key.index;
    });
    if (!known) keys.push_back(key);
  };
  for (const auto& entry : devices.device_count) note(entry.first);
  for (const auto& entry : devices.memory) note(entry.first);
  for (const auto& entry : devices.logical) note(entry.first);
  std::sort(keys.begin(), keys.end(), [](const DeviceKey& a, const DeviceKey& b) {
    return a.type != b.type ? a.type < b.type : a.index < b.index;
  });
  return keys;
}

void add_device_settings(const DeviceSettings& devices, SettingList& list) {
  list.add("/visible_devices",
           devices.visible_devices ? json(*devices.visible_devices) : json(nullptr));
  list.add("/env/HXRT_FORCE_MEMORY_GROWTH", devices.force_memory_growth);
  // The defaults every device starts from (DeviceSettings' comments): all devices of each
  // type, memory growth, no limit beyond the device's own, memory kept for reuse, one
  // logical device per physical device.
  list.add("/devices/*/device_count", nullptr);
  list.add("/devices/*/memory/growth", true);
  list.add("/devices/*/memory/limit_mb", nullptr);
  list.add("/devices/*/memory/fraction", nullptr);
  list.add("/devices/*/memory/release_unused", false);
  list.add("/devices/*/logical", nullptr);
  for (const DeviceKey& key : device_keys(devices)) {
    const std::string name = key.canonical();
    if (auto count = devices.device_count.find(name); count != devices.device_count.end()) {
      list.add(pointer_child("/devices", name) + "/device_count", count->second);
    }
    if (auto policy = devices.memory.find(name); policy != devices.memory.end()) {
      add_memory_policy(name, policy->second, devices.force_memory_growth, list);
    }
    if (auto logical = devices.logical.find(name); logical != devices.logical.end()) {
      list.add(pointer_child("/devices", name) + "/logical", logical_devices_json(logical->second));
    }
  }
}

}  // namespace

std::vector<ConfigSetting> effective_settings(const Config& config) {
  SettingList list(config);
  add_plugin_settings(config, list);
  list.add("/placement/device_priority", config.device_priority);
  list.add("/placement/soft_placement", soft_placement_name(config.soft_placement));
  list.add("/placement/tensor_device",
           config.tensor_device.empty() ? json(nullptr) : json(config.tensor_device));
  list.add("/placement/placer", config.placer == GraphPlacer::kDynamic ? "dynamic" : "simple");
  list.add("/placement/replace_every_runs", json(config.replace_every_runs));
  list.add("/placement/replace_threshold", json(config.replace_threshold));
  list.add("/log_device_placement", config.log_device_placement);
  list.add("/log_level", lower(log_level_name(config.log_level)));
  add_device_settings(config.devices, list);
  list.add("/trace/path", config.trace_path.empty() ? json(nullptr) : json(config.trace_path));
  list.add("/trace/max_events", config.trace_max_events);
  list.add("/execution/inter_op_threads", config.execution.inter_op_threads);
  list.add("/execution/intra_op_threads", config.execution.intra_op_threads);
  return list.take();
}

}  // namespace hxrt::detail
