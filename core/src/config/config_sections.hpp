// What the settings table's rows (settings_table.cpp) use beyond their kind: the loader's own
// checks of names, the structured parts with their own readers (plugin options, "devices"),
// and the API's enum values as the config's JSON gives them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/config.hpp"

namespace hxrt::detail {

// "plugins.disabled": plugin names ("sim"), not files.
void check_plugin_names(const nlohmann::json& names, const std::string& source,
                        const std::string& path);
// "plugins.options": plugin name -> an object, kept as JSON text for the plugin's init.
void apply_plugin_options(const nlohmann::json& options, const std::string& source,
                          Config& config);

// "placement.device_priority": device types ("GPU", any case).
void check_device_types(const nlohmann::json& types, const std::string& source,
                        const std::string& path);
// "placement.tensor_device": a device name as a scope takes it ("GPU:1", "/device:GPU:1").
void check_device_name(const nlohmann::json& name, const std::string& source,
                       const std::string& path);
// "soft_placement" alone, for Runtime::set_soft_placement.
SoftPlacement read_soft_placement(const nlohmann::json& mode, const std::string& source);

// An enum value of the API as the config's JSON gives it: its name, or, for a value outside
// the enum (a cast, a stale build of the host app), its number, which the setting's row
// refuses with its JSON path like any other wrong value.
nlohmann::json json_of(SoftPlacement mode);
nlohmann::json json_of(LogLevel level);

// A job name as TensorFlow's cluster specs write them: lower-case letters, digits and _,
// starting with a letter, at most 64. It becomes part of device names
// ("/job:ps/replica:0/task:0"), which the device-name grammar must read back.
bool is_job_name(const std::string& name);

// "cluster.network": the network between any two tasks, as the dynamic placer is to take it
// instead of measuring it.
void apply_cluster_network(const nlohmann::json& network, const std::string& source,
                           Config& config);

// "cluster.jobs" (and $HXRT_CLUSTER_JOBS, its JSON as text): job name -> the ranks of its
// tasks. Checks the names and that no rank is listed twice; whether the ranks are those of
// the cluster is known only when it starts (cluster/cluster_spec.hpp).
void apply_cluster_jobs(const nlohmann::json& jobs, const std::string& source,
                        Config& config);

// "devices", through the device setters of config.hpp.
void apply_devices_section(const nlohmann::json& devices, const std::string& source,
                           Config& config);

}  // namespace hxrt::detail
