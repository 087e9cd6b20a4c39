// The effective configuration: built-in defaults < config file < environment < API options.
// The file is JSON; every mistake is an Error naming the file and the JSON path.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/device_settings.hpp"
#include "hxrt/config_setting.hpp"
#include "hxrt/device_setup.hpp"
#include "hxrt/log.hpp"
#include "hxrt/runtime_options.hpp"

namespace hxrt::detail {

// "execution": the threads graph mode uses (TensorFlow's inter- and intra-op parallelism).
struct ExecutionSettings {
  // Threads that run graph nodes' host-side work; 0: one per core of the machine.
  int inter_op_threads = 0;
  // Threads one kernel may use, passed to every plugin's init (hx_plugin_init_args);
  // 0: each plugin keeps its own default.
  int intra_op_threads = 0;
};

// "cluster": whether this process is a task of a cluster of MPI ranks, and the job of each.
struct ClusterSettings {
  enum class Mode {
    kAuto,  // a cluster when an MPI launcher started the process (mpirun sets its variables)
    kOn,    // always (a process started alone is a cluster of one task)
    kOff,   // never: one process, /job:localhost/replica:0/task:0
  };
  Mode mode = Mode::kAuto;
  // Job name -> the ranks of its tasks, task 0 first; empty: every rank is a task of the job
  // "worker", its task index its rank.
  std::map<std::string, std::vector<int>> jobs;
  // How long a task waits for another before the wait is an error naming that task.
  int timeout_ms = 30000;
  // The network between any two tasks as the dynamic placer takes it; unset: measured.
  struct Network {
    double bytes_per_second = 0;
    double latency_seconds = 0;
  };
  std::optional<Network> network;
};

// Where the settings land. Each setting is a row of the settings table (settings_table.hpp),
// which reads, checks and shows it; the defaults here are checked against the rows' by
// tests/config/settings_table_test.cpp.
struct Config {
  std::string file;  // the config file read, "" when none
  std::vector<std::string> plugin_libraries;     // config "plugins.libraries"
  std::vector<std::string> plugin_search_paths;  // config "plugins.search_paths"
  std::vector<std::string> env_plugin_paths;     // $HXRT_PLUGIN_PATH
  std::vector<std::string> api_plugin_paths;     // RuntimeOptions::plugin_paths
  bool use_installed_plugins = true;
  std::map<std::string, std::string> plugin_options;  // plugin name -> JSON object text
  std::vector<std::string> disabled_plugins;           // "plugins.disabled"
  bool probe_plugins = false;                          // "plugins.probe"
  int probe_timeout_ms = 5000;                         // "plugins.probe_timeout_ms"
  bool log_device_placement = false;
  LogLevel log_level = LogLevel::kWarning;
  std::vector<std::string> device_priority;  // "placement.device_priority"; empty: default
  SoftPlacement soft_placement = SoftPlacement::kFallbackOnMissingKernel;
  GraphPlacer placer = GraphPlacer::kSimple;  // "placement.placer": how compile places graphs
  // "graph.*": compile's passes, each on unless the config turns it off.
  struct GraphPassSwitches {
    bool remove_identities = true;
    bool fold_constants = true;
    bool fuse_kernels = true;
    bool block_channels = true;
  } graph_passes;
  // "placement.replace_every_runs": how often the dynamic placer checks an executable's
  // placement against the measured costs (0: never)...
  uint64_t replace_every_runs = 10;
  // ..."placement.replace_threshold": and how much faster another must be to replace it.
  double replace_threshold = 0.1;
  // "placement.tensor_device": where tensors made with no device and outside every scope go,
  // as written ("GPU:1"); empty: the highest-priority device.
  std::string tensor_device;
  DeviceSettings devices;  // "visible_devices", "devices", $HXRT_VISIBLE_DEVICES, ...
  // "trace.path", $HXRT_TRACE: the timeline trace Runtime::create starts; empty: none.
  std::string trace_path;
  int64_t trace_max_events = 1000000;  // "trace.max_events"
  ExecutionSettings execution;         // "execution", $HXRT_INTER_OP_THREADS, ...
  ClusterSettings cluster;             // "cluster", $HXRT_CLUSTER, ...
  // JSON pointer of each value set by a file, the environment or the API -> its source
  // ("file <path>", "environment HXRT_X", "API"); values not here are defaults.
  std::map<std::string, std::string> origins;

  // Plugin candidates in load order (see plugin_loader.hpp); the installed folder last.
  std::vector<std::string> plugin_candidates(const std::string& installed_dir) const;
};

// Reads RuntimeOptions::config_path (or $HXRT_CONFIG), then the environment, then `options`.
Config resolve_config(const RuntimeOptions& options);

// The device setters behind Runtime's (and the file loader's): each checks its arguments as
// the loader checks the file, throwing Error(kInvalidArgument) that names `source` and the
// JSON path, then records `source` as the origin of what it set. Device names and types may
// be given in any case and in the guide's forms ("/GPU:0", "/physical_device:GPU:0").
void set_visible_devices(Config& config, const std::vector<std::string>& names,
                         const std::string& source);
void set_device_count(Config& config, const std::string& type, int count,
                      const std::string& source);
// `key`: a type ("GPU") or a physical device ("GPU:0").
void set_memory_policy(Config& config, const std::string& key, const MemoryPolicy& policy,
                       const std::string& source);
void set_logical_devices(Config& config, const std::string& physical,
                         const std::vector<LogicalDeviceConfig>& devices,
                         const std::string& source);

// Every setting, defaults included, with its effective value and origin, in the order of
// the schema (config/hxrt.schema.json). For hxrt-info --config. Paths are the file's JSON
// pointers, plus /env/<VARIABLE> and /api/plugin_paths for what only the environment or
// RuntimeOptions give, and /devices/*/... for the defaults every device starts from.
std::vector<ConfigSetting> effective_settings(const Config& config);

// Parses config JSON text as the file `source`: errors and origins say "file <source>".
// Exposed for tests.
void apply_config_text(const std::string& text, const std::string& source, Config& config);

}  // namespace hxrt::detail
