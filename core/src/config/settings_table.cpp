// The settings table (settings_table.hpp). Each row is a whole setting: the readers, the
// environment, RuntimeOptions, the dump and the generated config reference take everything
// else from here. Environment variables are written as plain string literals:
// tests/config/cleared_environment.cmake reads them from this file for the variables CTest
// clears.
#include "config/settings_table.hpp"

#include <algorithm>
#include <cctype>
#include <type_traits>

#include <hxrt/plugin_vocabulary.h>

#include "base/ascii_case.hpp"
#include "config/config_sections.hpp"
#include "config/device_values.hpp"
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
  Row& type_text(std::string text) {
    row_.type_text = std::move(text);
    return *this;
  }
  Row& schema(nlohmann::ordered_json keywords) {
    row_.schema = std::move(keywords);
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
  // The same for a field of a group of fields of Config (Config::graph_passes).
  template <auto Group, auto Member>
  Row& field() {
    row_.apply = [](const json& v, const std::string&, Config& c) {
      (c.*Group).*Member = v.get<std::remove_reference_t<decltype((c.*Group).*Member)>>();
    };
    row_.value = [](const Config& c) { return json((c.*Group).*Member); };
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
          "Folders searched for `libhx_*.so`, after `plugins.libraries`. Relative paths are "
          "taken from the config file's folder.")
          .type_text("array of folders")
          .field<&Config::plugin_search_paths>(),
      Row("/plugins/libraries", Kind::kStringList, "[]",
          "Plugin files loaded by path, first of all candidates. Relative paths are taken from "
          "the config file's folder.")
          .type_text("array of files")
          .field<&Config::plugin_libraries>(),
      Row("/plugins/use_installed", Kind::kBool, "true",
          "Also search `lib/hxrt/plugins/` beside `libhxrt.so`, after every other candidate.")
          .field<&Config::use_installed_plugins>()
          // The option's default (true) cannot be told from "not set": only false overrides.
          .api([](const RuntimeOptions& o) {
            return o.use_installed_plugins ? std::nullopt : std::optional<json>(false);
          }),
      Row("/plugins/probe", Kind::kBool, "false",
          "Load each plugin in a child process (`lib/hxrt/hxrt-probe`) before loading it in "
          "this one, and skip a plugin that crashes, calls `exit()` or hangs there in init, "
          "device enumeration or shutdown (see [Probing plugins](tools.md#probing-plugins)). Costs "
          "one short-lived process per plugin file not yet known good; good verdicts are cached "
          "in `$XDG_CACHE_HOME/hxrt`. `HXRT_PROBE_PLUGINS` overrides it; `hxrt-info` probes "
          "unless given `--no-probe`.")
          .env("HXRT_PROBE_PLUGINS")
          .field<&Config::probe_plugins>()
          .api([](const RuntimeOptions& o) { return given(o.probe_plugins); }),
      Row("/plugins/probe_timeout_ms", Kind::kInteger, "5000",
          "How long the probe of one plugin may take, in milliseconds, before the plugin "
          "counts as hung and is skipped.")
          // An hour: a plugin that needs longer to start is as good as hung.
          .range(1, 3600000)
          .expected("an integer from 1 to 3600000 (milliseconds)")
          .field<&Config::probe_timeout_ms>(),
      Row("/plugins/disabled", Kind::kStringList, "[]",
          "Plugins not to load, by name: matched against the file name (`libhx_<name>.so`) "
          "before the plugin is probed or opened, so that one that crashes on load can be "
          "switched off, and against the name in its function table after init. `hxrt-info` "
          "lists each as skipped, \"disabled by /plugins/disabled/0\". Write the name (`sim`), "
          "not the file.")
          .type_text("array of plugin names")
          // plugin_vocabulary.h's grammar of a plugin name, which check_plugin_names applies.
          .schema({{"items",
                    {{"type", "string"},
                     {"pattern", "^[a-z][a-z0-9_]*$"},
                     {"maxLength", HX_MAX_PLUGIN_NAME_LENGTH}}}})
          .check(check_plugin_names)
          .field<&Config::disabled_plugins>()
          .api([](const RuntimeOptions& o) { return given(o.disabled_plugins); }),
      Row("/plugins/options/<plugin name>", Kind::kObject, "null",
          "Plugin name -> the JSON object passed to that plugin's init as text, which checks it "
          "(see [Plugin options](#plugin-options)). The cpu plugin takes: `blas_core` (`\"auto\"` "
          "by default, or the name of an OpenBLAS core the CPU runs, such as `\"SkylakeX\"`: "
          "the kernels MatMul runs on, settled once for the whole process; `OPENBLAS_CORETYPE` "
          "in the environment wins). The sim plugin (a simulated accelerator) takes: "
          "`device_type` (`\"SIM\"` by default, `\"GPU\"` to stand in for GPUs), "
          "`device_count` (0 by default), `memory_mb` (per device, 1024), `ops` (the ops whose "
          "kernels it registers; all by default), `placement_class` "
          "(`\"discrete_accelerator\"`, `\"host_accelerator\"` or `\"cpu\"`), "
          "`max_allocation` (bytes; none by default), `alignment` (256), `report_memory` "
          "(true), `pinned_memory` (true: offers page-locked host memory; false leaves it out), "
          "`fault_ops` (a test aid: ops whose queued work fails when it runs, as a GPU kernel "
          "that faults after launch; none by default); and its performance model, each 0 "
          "(none) by default: `matmul_gflops`, `elementwise_gbps`, `launch_latency_us`, "
          "`h2d_gbps`, `h2d_latency_us`, `d2h_gbps`, `d2h_latency_us`, `d2d_gbps`, "
          "`d2d_latency_us`, `random_delay_us` (a random extra delay per item of work, to flush "
          "out ordering bugs) and `random_seed`; `devices` (a list of one object per device, "
          "setting the count, each overriding `memory_mb` and the model's figures but "
          "`random_seed` for its device).")
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
          "Device types, most preferred first (any case); unlisted types follow in the default "
          "order: by placement class (discrete accelerators, then CPUs, then accelerators that "
          "run on the host's processors), then by name (see [Placement](placement.md)).")
          .type_text("array of device types")
          // The grammar check_device_types applies, in both cases.
          .schema({{"items", {{"type", "string"}, {"pattern", "^[A-Za-z][A-Za-z0-9_]*$"}}}})
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
          "What a request that cannot be honoured does: `strict` fails; `missing_kernel` falls "
          "back when the device has no kernel for the op but fails for a device that does not "
          "exist; `soft` falls back in both cases.")
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
          "Where a tensor made with no device and outside every device scope goes (a device "
          "name such as `\"CPU:0\"` or `\"/GPU:1\"`). Unset: device 0 of the "
          "highest-priority type, as TensorFlow places it.")
          .type_text("device")
          .min_length(1)
          .expected("a device name like \"GPU:0\"")
          .check(check_device_name)
          .apply([](const json& v, const std::string&, Config& c) {
            c.tensor_device = v.get<std::string>();
          })
          .value([](const Config& c) { return text_or_null(c.tensor_device); })
          .api([](const RuntimeOptions& o) { return given(o.tensor_device); }),
      Row("/placement/placer", Kind::kEnum, "\"simple\"",
          "How `Runtime::compile` places the graph nodes that carry no device request: "
          "`simple` puts them on the highest-priority device, as TensorFlow's simple placer; "
          "`dynamic` schedules them on measured kernel and copy times and each device's memory "
          "(list scheduling), explaining each choice (see [Dynamic placement](dynamic-placer.md)).")
          .names({"simple", "dynamic"})
          .expected("\"simple\" or \"dynamic\"")
          .apply([](const json& v, const std::string&, Config& c) {
            c.placer = v == "dynamic" ? GraphPlacer::kDynamic : GraphPlacer::kSimple;
          })
          .value([](const Config& c) {
            return json(c.placer == GraphPlacer::kDynamic ? "dynamic" : "simple");
          }),
      Row("/placement/replace_every_runs", Kind::kInteger, "10",
          "How often, in runs, the dynamic placer checks an executable's placement against the "
          "costs measured since it was placed, and places it again; `0`: never. Each check "
          "that keeps the placement doubles the runs to the next, up to 64 times this, and "
          "leaves at least as many as keep such checks under 2% of the runs' time.")
          .range(0, 1000000000)
          .expected("an integer from 0 (never) to 1000000000")
          .field<&Config::replace_every_runs>(),
      Row("/placement/replace_threshold", Kind::kNumber, "0.1",
          "How much faster, as a fraction of the current placement's estimated makespan, "
          "another placement must be for the dynamic placer to move an executable to it.")
          .range(0, 1)
          .exclusive(false, true)
          .expected("a number from 0 to below 1 (0.1: another placement must be 10% faster)")
          .field<&Config::replace_threshold>(),
  };
}

std::vector<SettingRow> graph_pass_rows() {
  return {
      Row("/graph/remove_identities", Kind::kBool, "true",
          "Compile bypasses Identity nodes, and Dropout nodes whose mask nothing reads (see "
          "[Optimisation](graphs.md#optimisation)); `CompileOptions::passes` overrides it.")
          .field<&Config::graph_passes, &Config::GraphPassSwitches::remove_identities>(),
      Row("/graph/fold_constants", Kind::kBool, "true",
          "Compile computes nodes of constant inputs, and Shape or Size of values of known "
          "shape, once, as constants; `CompileOptions::passes` overrides it.")
          .field<&Config::graph_passes, &Config::GraphPassSwitches::fold_constants>(),
      Row("/graph/fuse_kernels", Kind::kBool, "true",
          "Compile fuses a Gemm or Conv and the activation after it into one FusedGemm or "
          "FusedConv node, and "
          "exact GELU's Div, Erf, Add, Mul, Mul into one Gelu, where the plugins have a kernel "
          "for it; `CompileOptions::passes` overrides it.")
          .field<&Config::graph_passes, &Config::GraphPassSwitches::fuse_kernels>(),
      Row("/graph/block_channels", Kind::kBool, "true",
          "Compile keeps what passes between convolutions and pools of 2-D float32 images in "
          "blocks of 16 channels (BlockedConv, BlockedMaxPool, BlockedGlobalAveragePool), "
          "where the plugins have those kernels; `CompileOptions::passes` overrides it.")
          .field<&Config::graph_passes, &Config::GraphPassSwitches::block_channels>(),
  };
}

std::vector<SettingRow> logging_and_visibility_rows() {
  return {
      Row("/log_device_placement", Kind::kBool, "false",
          "Log `Executing op <op> in device <device>` for every op.")
          .env("HXRT_LOG_DEVICE_PLACEMENT")
          .field<&Config::log_device_placement>()
          .api([](const RuntimeOptions& o) { return given(o.log_device_placement); }),
      Row("/log_level", Kind::kEnum, "\"warning\"",
          "The least severe level the log shows: `debug`, `info`, `warning` or `error`, in any "
          "case.")
          .env("HXRT_LOG_LEVEL")
          .names({"debug", "info", "warning", "error"}, /*any_case=*/true)
          .apply([](const json& v, const std::string&, Config& c) {
            c.log_level = parse_log_level(v.get<std::string>());
          })
          .value([](const Config& c) { return json(lowercase_ascii(log_level_name(c.log_level))); })
          .api([](const RuntimeOptions& o) {
            return o.log_level ? std::optional<json>(json_of(*o.log_level)) : std::nullopt;
          }),
      Row("/visible_devices", Kind::kStringList, "null",
          "Physical devices left visible, in the order of their logical ids (`\"GPU:1\"`, "
          "`\"/GPU:1\"`, `\"/physical_device:GPU:1\"`, any case); a type none of them names "
          "keeps all its devices. A name that matches no physical device is refused when it is "
          "set (`set_visible_devices`, or `Runtime::create` for the file and "
          "`HXRT_VISIBLE_DEVICES`); after initialisation, setting the devices already visible "
          "does nothing, and any other list fails with \"Visible devices cannot be modified "
          "after being initialized\". `HXRT_VISIBLE_DEVICES` (comma-separated) overrides it.")
          .type_text("array of physical devices")
          .schema({{"uniqueItems", true}, {"items", {{"$ref", "#/$defs/physical_device_name"}}}})
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
          "The most physical devices of the type to use: the first visible ones. `0` hides the "
          "type.")
          .range(0, 2147483647)
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/growth", Kind::kBool, "true",
          "Start with a small region (2 MiB) and take each next one twice as large, as "
          "requests need (see [The memory policy](#the-memory-policy)). The opposite of "
          "`preallocate`: given together, they must disagree.")
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/preallocate", Kind::kBool, "false",
          "Take the whole budget (`limit_mb` or `fraction`) in one region at initialisation; "
          "needs one of them. The opposite of `growth`: given together, they must disagree.")
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/limit_mb", Kind::kInteger, "null",
          "The most memory the allocator takes from the device, in MiB: a hard limit, also "
          "with growth; at most 2^44 - 1 (more overflows a 64-bit byte count). A layer (file, "
          "API) that sets `limit_mb` or `fraction` replaces both of the earlier layer's.")
          .range(1, static_cast<double>(kMaxLimitMiB))
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/fraction", Kind::kNumber, "null",
          "The most memory as a share of the device's total memory; with `limit_mb` too, the "
          "smaller limit holds.")
          .range(0, 1)
          .exclusive(true, false)
          .read(apply_devices_section),
      Row("/devices/<type or device>/memory/release_unused", Kind::kBool, "false",
          "Give a region back to the device as soon as no tensor uses it (default: keep it for "
          "reuse).")
          .read(apply_devices_section),
      Row("/devices/<device>/logical", Kind::kObjectList, "null",
          "Split one physical device into logical devices, each with its own allocator and "
          "limit (`{}`: the physical device's limit), for any device type; they take "
          "consecutive logical ids of the type.")
          .type_text("non-empty array of `{\"memory_limit_mb\": N}` or `{}`")
          .schema({{"minItems", 1},
                   {"items",
                    {{"description", "One logical device."},
                     {"type", "object"},
                     {"additionalProperties", false},
                     {"properties",
                      {{"memory_limit_mb",
                        {{"description",
                          "This logical device's hard limit in MiB; absent: the physical "
                          "device's limit."},
                         {"type", "integer"},
                         {"minimum", 1},
                         {"maximum", kMaxLimitMiB}}}}}}}})
          .read(apply_devices_section),
  };
}

// One switch for the memory layer's caches (ARCHITECTURE.md, "The memory layer"): what they
// save is measured in bench/RESULTS.md, and with them off every figure of memory_stats is
// exact at every moment and every block goes through the allocator's lock.
std::vector<SettingRow> memory_rows() {
  return {
      Row("/memory/thread_caches", Kind::kBool, "true",
          "Every device's allocator serves blocks of up to 64 KiB from caches of the calling "
          "thread, without its lock (see [Thread caches](memory.md#thread-caches)); `false`: every "
          "block takes the lock, so memory statistics are exact at every moment and no free "
          "memory waits in another thread's cache when one runs out. "
          "`HXRT_MEMORY_THREAD_CACHES` overrides it.")
          .env("HXRT_MEMORY_THREAD_CACHES")
          .apply([](const json& v, const std::string&, Config& c) {
            c.devices.thread_caches = v.get<bool>();
          })
          .value([](const Config& c) { return json(c.devices.thread_caches); }),
  };
}

// Far beyond any machine's cores: a larger count is a typo, and every thread costs a stack.
constexpr double kMaxThreads = 4096;

std::vector<SettingRow> cluster_rows() {
  using Mode = ClusterSettings::Mode;
  return {
      Row("/cluster/enabled", Kind::kEnum, "\"auto\"",
          "Whether this process is a task of a cluster of MPI ranks (see [Clusters](cluster.md)): "
          "`auto` when an MPI launcher (`mpirun`) started it, `on` always (a process started "
          "alone is a cluster of one task), `off` never. In a cluster, `Runtime::create` opens "
          "MPI (Open MPI, `libhxrt_mpi.so`), sets the devices up at once and lists every "
          "task's. `HXRT_CLUSTER` overrides it.")
          .env("HXRT_CLUSTER")
          .names({"auto", "on", "off"})
          .expected("\"auto\", \"on\" or \"off\"")
          .apply([](const json& v, const std::string&, Config& c) {
            c.cluster.mode = v == "on" ? Mode::kOn : v == "off" ? Mode::kOff : Mode::kAuto;
          })
          .value([](const Config& c) {
            return json(c.cluster.mode == Mode::kOn    ? "on"
                        : c.cluster.mode == Mode::kOff ? "off"
                                                       : "auto");
          }),
      Row("/cluster/jobs", Kind::kObject, "null",
          "Job name -> the MPI ranks of its tasks, task 0 first, as `{\"ps\": [0], "
          "\"worker\": [1, 2, 3]}`: rank 1 is then `/job:worker/replica:0/task:0`. Every rank "
          "of the cluster must be listed once. Unset: every rank is a task of the job `worker`, "
          "its task index its rank. `HXRT_CLUSTER_JOBS` (the same JSON) overrides it.")
          .type_text("object of job name -> array of ranks")
          .env("HXRT_CLUSTER_JOBS")
          .schema({{"propertyNames", {{"pattern", "^[a-z][a-z0-9_]{0,63}$"}}},
                   {"minProperties", 1},
                   {"additionalProperties",
                    {{"type", "array"},
                     {"minItems", 1},
                     {"items", {{"type", "integer"}, {"minimum", 0}}}}}})
          // The variable holds the object's JSON; text that is none is shown as the string.
          .from_env([](const std::string& text) {
            return json::accept(text) ? json::parse(text) : json(text);
          })
          .apply(apply_cluster_jobs)
          .value([](const Config& c) {
            return c.cluster.jobs.empty() ? json(nullptr) : json(c.cluster.jobs);
          }),
      Row("/cluster/timeout_ms", Kind::kInteger, "30000",
          "How long, in milliseconds, a task waits for another (its devices at start-up, a "
          "transfer, a collective) before the wait ends in an error naming that task. "
          "`HXRT_CLUSTER_TIMEOUT_MS` overrides it.")
          .env("HXRT_CLUSTER_TIMEOUT_MS")
          .range(1, 86400000)
          .expected("an integer from 1 to 86400000 (milliseconds; a day at most)")
          .apply([](const json& v, const std::string&, Config& c) {
            c.cluster.timeout_ms = v.get<int>();
          })
          .value([](const Config& c) { return json(c.cluster.timeout_ms); }),
      Row("/cluster/network", Kind::kObject, "null",
          "The network between any two tasks as the dynamic placer is to take it, as "
          "`{\"gigabytes_per_second\": 12.5, \"latency_us\": 5}`. Unset: the first dynamic "
          "compile that may place nodes on another task measures it, by round trips to the "
          "next task (see [Placing by cost across tasks](cluster.md#placing-by-cost-across-"
          "tasks)).")
          .type_text("object of `gigabytes_per_second` and `latency_us`")
          .schema({{"required", {"gigabytes_per_second", "latency_us"}},
                   {"additionalProperties", false},
                   {"properties",
                    {{"gigabytes_per_second",
                      {{"description", "What one message moves per second, in GB (10^9 B)."},
                       {"type", "number"},
                       {"exclusiveMinimum", 0}}},
                     {"latency_us",
                      {{"description", "What a message of no bytes takes, in microseconds."},
                       {"type", "number"},
                       {"minimum", 0}}}}}})
          .apply(apply_cluster_network)
          .value([](const Config& c) {
            if (!c.cluster.network) return json(nullptr);
            return json{{"gigabytes_per_second", c.cluster.network->bytes_per_second / 1e9},
                        {"latency_us", c.cluster.network->latency_seconds * 1e6}};
          }),
  };
}

std::vector<SettingRow> trace_and_execution_rows() {
  return {
      Row("/trace/path", Kind::kString, "null",
          "The file `Runtime::create` starts the timeline trace in (see [Timeline "
          "trace](embedding.md#timeline-trace)), opened at once: a path that cannot be written "
          "is an error then; written when that runtime is destroyed or the program exits. "
          "`HXRT_TRACE` overrides it.")
          .type_text("file")
          .env("HXRT_TRACE")
          .min_length(1)
          .expected("the file to write the timeline trace to (a non-empty string)")
          .apply([](const json& v, const std::string&, Config& c) {
            c.trace_path = v.get<std::string>();
          })
          .value([](const Config& c) { return text_or_null(c.trace_path); }),
      Row("/trace/max_events", Kind::kInteger, "1000000",
          "The most events one trace keeps; later ones are counted and the written trace says "
          "how many were dropped.")
          // A cap a machine can hold: each event takes a few hundred bytes until written.
          .range(1, 100000000)
          .field<&Config::trace_max_events>(),
      Row("/execution/inter_op_threads", Kind::kInteger, "0",
          "Threads that run graph nodes' host-side work, so that independent nodes run at once "
          "(TensorFlow's `inter_op_parallelism_threads`); `0`: one per core of the machine. "
          "`HXRT_INTER_OP_THREADS` overrides it.")
          .env("HXRT_INTER_OP_THREADS")
          .range(0, kMaxThreads)
          .expected("an integer from 0 to 4096 (0: one per core)")
          .apply([](const json& v, const std::string&, Config& c) {
            c.execution.inter_op_threads = v.get<int>();
          })
          .value([](const Config& c) { return json(c.execution.inter_op_threads); })
          .api([](const RuntimeOptions& o) { return given(o.inter_op_threads); }),
      Row("/execution/intra_op_threads", Kind::kInteger, "0",
          "Threads one kernel may use (TensorFlow's `intra_op_parallelism_threads`), passed to "
          "every plugin's init; the CPU plugin gives it to OpenBLAS, process-wide (see [CPU "
          "plugin](plugins.md#cpu-plugin)); `0`: each plugin keeps its own default. "
          "`HXRT_INTRA_OP_THREADS` overrides it; `RuntimeOptions::inter_op_threads` and "
          "`intra_op_threads` override both.")
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
    for (auto part : {plugin_rows, placement_rows, graph_pass_rows,
                      logging_and_visibility_rows, device_rows, memory_rows,
                      trace_and_execution_rows, cluster_rows}) {
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
