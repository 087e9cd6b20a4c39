// The effective configuration as hxrt-info --config shows it: one entry per row of the
// settings table, in its order (config/hxrt.schema.json's), each row's value read from Config
// by the row. Structured rows are shown by their parts here: plugin options one entry per
// plugin, and the device rows as /devices/*/... (what a device gets when neither its type nor
// itself sets the field: the row's default) followed by each device's own settings.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/device_keys.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "config/settings_table.hpp"

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

void add_plugin_options(const Config& config, SettingList& list) {
  if (config.plugin_options.empty()) list.add("/plugins/options", json::object());
  for (const auto& [name, text] : config.plugin_options) {
    list.add(pointer_child("/plugins/options", name), json::parse(text));
  }
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

// A device row's default, under "/devices/*/..." for every device.
void add_device_default(const SettingRow& row, SettingList& list) {
  // growth carries the mode; preallocate is only its opposite.
  if (row.path.find("/memory/preallocate") != std::string::npos) return;
  const size_t placeholder_end = row.path.find('>') + 1;
  list.add("/devices/*" + row.path.substr(placeholder_end), json::parse(row.default_json));
}

void add_device_settings(const DeviceSettings& devices, SettingList& list) {
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

bool is_device_row(const SettingRow& row) { return row.path.rfind("/devices/", 0) == 0; }

}  // namespace

std::vector<ConfigSetting> effective_settings(const Config& config) {
  SettingList list(config);
  const std::vector<SettingRow>& rows = setting_rows();
  for (size_t i = 0; i < rows.size(); ++i) {
    const SettingRow& row = rows[i];
    if (row.value) {
      list.add(row.path, row.value(config));
    } else if (is_device_row(row)) {
      add_device_default(row, list);
      if (i + 1 == rows.size() || !is_device_row(rows[i + 1])) {
        add_device_settings(config.devices, list);
      }
    } else if (row.path.rfind("/plugins/options/", 0) == 0) {
      add_plugin_options(config, list);
    }
  }
  return list.take();
}

}  // namespace hxrt::detail
