// The settings table (settings_table.hpp). Each row is a whole setting: the readers, the
// environment, RuntimeOptions and the dump take everything else from here. Environment
// variables are written as plain string literals: tests/config/cleared_environment.cmake
// reads them from this file for the variables CTest clears.
#include "config/settings_table.hpp"

#include <algorithm>
#include <cctype>
#include <type_traits>

#include "config/config_sections.hpp"
#include "config/environment_text.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::json;
using Kind = SettingKind;

template <typename T>
std::optional<json> given(const std::optional<T>& option) {
  return option ? std::optional<json>(json(*option)) : std::nullopt;
}

json text_or_null(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Builds a row a field at a time, so that each row of the table reads as its fields' names.
class Row {
 public:
  Row(std::string path, Kind kind, std::string default_json, std::string description) {
    row_.path = std::move(path);
    row_.kind = kind;
    row_.default_json = std::move(default_json);
    row_.description = std::move(description);
  }
  Row& env(const char* variable) {
    row_.env = variable;
    return *this;
  }
  Row& range(double min, double max) {
    row_.min = min;
    row_.max = max;
    return *this;
  }
  Row& exclusive(bool min, bool max) {
    row_.exclusive_min = min;
    row_.exclusive_max = max;
    return *this;
  }
  Row& min_length(size_t length) {
    row_.min_length = length;
    return *this;
  }
  Row& names(std::vector<std::string> names, bool any_case = false) {
    row_.names = std::move(names);
    row_.any_case = any_case;
    return *this;
  }
  Row& expected(std::string text) {
    row_.expected = std::move(text);
    return *this;
  }
  Row& check(decltype(SettingRow::check) f) { return set(row_.check, f); }
  Row& apply(decltype(SettingRow::apply) f) { return set(row_.apply, f); }
  Row& value(decltype(SettingRow::value) f) { return set(row_.value, f); }
  Row& api(decltype(SettingRow::from_options) f) { return set(row_.from_options, f); }
  Row& from_env(decltype(SettingRow::from_env) f) { return set(row_.from_env, f); }
  Row& read(decltype(SettingRow::read) f) { return set(row_.read, f); }
  // A field of Config that holds the JSON value as it is (bool, an integer, a number, a
  // list of strings): `apply` and `value` both.
  template <auto Member>
  Row& field() {
    row_.apply = [](const json& v, const std::string&, Config& c) {
      c.*Member = v.get<std::remove_reference_t<decltype(c.*Member)>>();
    };
    row_.value = [](const Config& c) { return json(c.*Member); };
    return *this;
  }
  operator SettingRow() const { return row_; }

 private:
  template <typename F>
  Row& set(F& hook, F f) {
    hook = f;
    return *this;
  }

  SettingRow row_;
};

std::vector<SettingRow> plugin_rows() {
  return {
      Row("/plugins/search_paths", Kind::kStringList, "[]",
          "Folders searched for libhx_*.so, after plugins.libraries.")
          .field<&Config::plugin_search_paths>(),
      Row("/plugins/libraries", Kind::kStringList, "[]",
          "Plugin files loaded by path, first of all candidates.")
          .field<&Config::plugin_libraries>(),
      Row("/plugins/use_installed", Kind::kBool, "true",
          "Also search lib/hxrt/plugins beside libhxrt.so, after every other candidate.")
          .field<&Config::use_installed_plugins>()
          // The option's default (true) cannot be told from "not set": only false overrides.
          .api([](const RuntimeOptions& o) {
            return o.use_installed_plugins ? std::nullopt : std::optional<json>(false);
          }),
      Row("/plugins/probe", Kind::kBool, "false",
          "Load each plugin in a child process first; skip one that crashes, exits or hangs.")
          .env("HXRT_PROBE_PLUGINS")
          .field<&Config::probe_plugins>()
          .api([](const RuntimeOptions& o) { return given(o.probe_plugins); }),
      Row("/plugins/probe_timeout_ms", Kind::kInteger, "5000",
          "How long one plugin's probe may take before the plugin counts as hung.")
          // An hour: a plugin that needs longer to start is as good as hung.
          .range(1, 3600000)
          .expected("an integer from 1 to 3600000 (milliseconds)")
          .field<&Config::probe_timeout_ms>(),
      Row("/plugins/disabled", Kind::kStringList, "[]", "Plugins not to load, by name.")
          .check(check_plugin_names)
          .field<&Config::disabled_plugins>()
          .api([](const RuntimeOptions& o) { return given(o.disabled_plugins); }),
      Row("/plugins/options/<plugin name>", Kind::kObject, "null",
          "The JSON object passed to that plugin's init, which checks it.")
          .read(apply_plugin_options),
      Row("/env/HXRT_PLUGIN_PATH", Kind::kStringList, "[]",
          "Colon-separated plugin folders or files, after the config's.")
          .env("HXRT_PLUGIN_PATH")
          .from_env(split_path_list)
          .field<&Config::env_plugin_paths>(),
      Row("/api/plugin_paths", Kind::kStringList, "[]",
          "RuntimeOptions::plugin_paths: plugin folders or files, after $HXRT_PLUGIN_PATH's.")
          .field<&Config::api_plugin_paths>()
          .api([](const RuntimeOptions& o) {
            return o.plugin_paths.empty() ? std::nullopt : std::optional<json>(o.plugin_paths);
          }),
  };
}

std::vector<SettingRow> placement_rows() {
  return {
      Row("/placement/device_priority", Kind::kStringList, "[]",
          "Device types, most preferred first; unlisted types follow in the default order.")
          .check(check_device_types)
          .apply([](const json& v, const std::string&, Config& c) {
            c.device_priority = v.get<std::vector<std::string>>();
            for (std::string& type : c.device_priority) {
              for (char& ch : type) {
                ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
              }
            }
          })
          .value([](const Config& c) { return json(c.device_priority); })
          .api([](const RuntimeOptions& o) { return given(o.device_priority); }),
      Row("/placement/soft_placement", Kind::kEnum, "\"missing_kernel\"",
          "What a request that cannot be honoured does.")
          .names({"strict", "missing_kernel", "soft"})
          .apply([](const json& v, const std::string&, Config& c) {
            for (SoftPlacement mode : {SoftPlacement::kStrict,
                                       SoftPlacement::kFallbackOnMissingKernel,
                                       SoftPlacement::kSoft}) {
              if (v == soft_placement_name(mode)) c.soft_placement = mode;
            }
          })
          .value([](const Config& c) { return json(soft_placement_name(c.soft_placement)); })
          .api([](const RuntimeOptions& o) {
            return o.soft_placement ? std::optional<json>(json_of(*o.soft_placement))
                                    : std::nullopt;
          }),
      Row("/placement/tensor_device", Kind::kString, "null",
          "Where a tensor made with no device and outside every device scope goes.")
          .min_length(1)
          .expected("a device name like \"GPU:0\"")
          .check(check_device_name)
          .apply([](const json& v, const std::string&, Config& c) {
            c.tensor_device = v.get<std::string>();
          })
          .value([](const Config& c) { return text_or_null(c.tensor_device); })
          .api([](const RuntimeOptions& o) { return given(o.tensor_device); }),
      Row("/placement/placer", Kind::kEnum, "\"simple\"",
          "How Runtime::compile places the graph nodes that carry no device request.")
          .names({"simple", "dynamic"})
          .expected("\"simple\" or \"dynamic\"")
          .apply([](const json& v, const std::string&, Config& c) {
            c.placer = v == "dynamic" ? GraphPlacer::kDynamic : GraphPlacer::kSimple;
          })
          .value([](const Config& c) {
            return json(c.placer == GraphPlacer::kDynamic ? "dynamic" : "simple");
          }),
      Row("/placement/replace_every_runs", Kind::kInteger, "10",
          "How often, in runs, the dynamic placer checks an executable's placement; 0: never.")
          .range(0, 1000000000)
          .expected("an integer from 0 (never) to 1000000000")
          .field<&Config::replace_every_runs>(),
      Row("/placement/replace_threshold", Kind::kNumber, "0.1",
          "How much faster another placement must be for the dynamic placer to move to it.")
          .range(0, 1)
          .exclusive(false, true)
          .expected("a number from 0 to below 1 (0.1: another placement must be 10% faster)")
          .field<&Config::replace_threshold>(),
  };
}

std::vector<SettingRow> logging_and_visibility_rows() {
  return {
      Row("/log_device_placement", Kind::kBool, "false",
          "Log 'Executing op <op> in device <device>' for every op.")
          .env("HXRT_LOG_DEVICE_PLACEMENT")
          .field<&Config::log_device_placement>()
          .api([](const RuntimeOptions& o) { return given(o.log_device_placement); }),
      Row("/log_level", Kind::kEnum, "\"warning\"", "The least severe level the log shows.")
          .env("HXRT_LOG_LEVEL")
          .names({"debug", "info", "warning", "error"}, /*any_case=*/true)
          .apply([](const json& v, const std::string&, Config& c) {
            c.log_level = parse_log_level(v.get<std::string>());
          })
          .value([](const Config& c) { return json(lower(log_level_name(c.log_level))); })
          .api([](const RuntimeOptions& o) {
            return o.log_level ? std::optional<json>(json_of(*o.log_level)) : std::nullopt;
          }),
      Row("/visible_devices", Kind::kStringList, "null",
          "Physical devices left visible, in the order of their logical ids.")
          .env("HXRT_VISIBLE_DEVICES")
          .from_env(split_device_list)
          .apply([](const json& v, const std::string& source, Config& c) {
            set_visible_devices(c, v.get<std::vector<std::string>>(), source);
          })
          .value([](const Config& c) {
            const auto& names = c.devices.visible_devices;
            return names ? json(*names) : json(nullptr);
          }),
      Row("/env/HXRT_FORCE_MEMORY_GROWTH", Kind::kBool, "false",
          "Growth on every device, whatever the file or the API asked.")
          .env("HXRT_FORCE_MEMORY_GROWTH")
          .apply([](const json& v, const std::string&, Config& c) {
            c.devices.force_memory_growth = v.get<bool>();
          })
          .value([](const Config& c) { return json(c.devices.force_memory_growth); }),
  };
}

// Structured: devices_section.cpp reads them, the device setters check them, and the dump
// shows each device's own. Their defaults are what a device gets when neither its type nor
// itself sets the field.
std::vector<SettingRow> device_rows() {
  return {
      Row("/devices/<type>/device_count", Kind::kInteger, "null",
          "The most physical devices of the type to use: the first visible ones.")
          .range(0, 2147483647)
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/growth", Kind::kBool, "true",
          "Take a small region first and each next one twice as large, as requests need.")
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/preallocate", Kind::kBool, "false",
          "Take the whole budget (limit_mb or fraction) in one region at initialisation.")
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/limit_mb", Kind::kInteger, "null",
          "The most MiB the allocator takes from the device: a hard limit, also with growth.")
          .range(1, 17592186044415.0)
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/fraction", Kind::kNumber, "null",
          "The limit as a share of the device's total memory.")
          .range(0, 1)
          .exclusive(true, false)
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/release_unused", Kind::kBool, "false",
          "Give a region back to the device as soon as no tensor uses it.")
          .read(apply_devices_section),
      Row("/devices/<device>/logical", Kind::kObjectList, "null",
          "Split one physical device into logical devices, each with its own limit.")
          .read(apply_devices_section),
  };
}

// One switch for the memory layer's caches (ARCHITECTURE.md, "The memory layer"): what they
// save is measured in bench/RESULTS.md, and with them off every figure of memory_stats is
// exact at every moment and every block goes through the allocator's lock.
std::vector<SettingRow> memory_rows() {
  return {
      Row("/memory/thread_caches", Kind::kBool, "true",
          "Serve blocks of up to 64 KiB from caches of the calling thread, without a lock.")
          .env("HXRT_MEMORY_THREAD_CACHES")
          .apply([](const json& v, const std::string&, Config& c) {
            c.devices.thread_caches = v.get<bool>();
          })
          .value([](const Config& c) { return json(c.devices.thread_caches); }),
  };
}

// Far beyond any machine's cores: a larger count is a typo, and every thread costs a stack.
constexpr double kMaxThreads = 4096;

std::vector<SettingRow> trace_and_execution_rows() {
  return {
      Row("/trace/path", Kind::kString, "null", "The file Runtime::create starts the trace in.")
          .env("HXRT_TRACE")
          .min_length(1)
          .expected("the file to write the timeline trace to (a non-empty string)")
          .apply([](const json& v, const std::string&, Config& c) {
            c.trace_path = v.get<std::string>();
          })
          .value([](const Config& c) { return text_or_null(c.trace_path); }),
      Row("/trace/max_events", Kind::kInteger, "1000000",
          "The most events one trace records; the trace says how many it dropped.")
          // A cap a machine can hold: each event takes a few hundred bytes until written.
          .range(1, 100000000)
          .field<&Config::trace_max_events>(),
      Row("/execution/inter_op_threads", Kind::kInteger, "0",
          "Threads that run graph nodes' host-side work; 0: one per core.")
          .env("HXRT_INTER_OP_THREADS")
          .range(0, kMaxThreads)
          .expected("an integer from 0 to 4096 (0: one per core)")
          .apply([](const json& v, const std::string&, Config& c) {
            c.execution.inter_op_threads = v.get<int>();
          })
          .value([](const Config& c) { return json(c.execution.inter_op_threads); })
          .api([](const RuntimeOptions& o) { return given(o.inter_op_threads); }),
      Row("/execution/intra_op_threads", Kind::kInteger, "0",
          "Threads one kernel may use, passed to every plugin's init; 0: each plugin's default.")
          .env("HXRT_INTRA_OP_THREADS")
          .range(0, kMaxThreads)
          .expected("an integer from 0 to 4096 (0: each plugin's default)")
          .apply([](const json& v, const std::string&, Config& c) {
            c.execution.intra_op_threads = v.get<int>();
          })
          .value([](const Config& c) { return json(c.execution.intra_op_threads); })
          .api([](const RuntimeOptions& o) { return given(o.intra_op_threads); }),
  };
}

}  // namespace

const std::vector<SettingRow>& setting_rows() {
  static const std::vector<SettingRow> rows = [] {
    std::vector<SettingRow> all;
    for (auto part : {plugin_rows, placement_rows, logging_and_visibility_rows, device_rows,
                      memory_rows, trace_and_execution_rows}) {
      for (SettingRow& row : part()) all.push_back(std::move(row));
    }
    return all;
  }();
  return rows;
}

const SettingRow* find_setting(const std::string& path) {
  const auto& rows = setting_rows();
  const auto found = std::find_if(rows.begin(), rows.end(),
                                  [&](const SettingRow& row) { return row.path == path; });
  return found == rows.end() ? nullptr : &*found;
}

}  // namespace hxrt::detail
