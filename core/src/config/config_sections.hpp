// The parts of a config, each read from its JSON value into Config. The file loader uses
// them all; the environment and RuntimeOptions pass their values through the same ones, as
// JSON, so that a value is checked the same way whichever layer gives it. `source` names the
// layer in errors and becomes the origin of what is set ("file <path>",
// "environment <VARIABLE>", "API").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/config.hpp"

namespace hxrt::detail {

// "plugins": search_paths, libraries, use_installed, options, probe, probe_timeout_ms.
void apply_plugins_section(const nlohmann::json& plugins, const std::string& source,
                           Config& config);
// "placement": device_priority, soft_placement.
void apply_placement_section(const nlohmann::json& placement, const std::string& source,
                             Config& config);
// "soft_placement" alone, for Runtime::set_soft_placement.
SoftPlacement read_soft_placement(const nlohmann::json& mode, const std::string& source);

// An enum value of the API as the config's JSON gives it: its name, or, for a value outside
// the enum (a cast, a stale build of the host app), its number, which the section's reader
// refuses with its JSON path like any other wrong value.
nlohmann::json json_of(SoftPlacement mode);
nlohmann::json json_of(LogLevel level);
// "log_device_placement" and "log_level".
void apply_log_device_placement(const nlohmann::json& value, const std::string& source,
                                Config& config);
void apply_log_level(const nlohmann::json& value, const std::string& source, Config& config);
// "trace": path, max_events.
void apply_trace_section(const nlohmann::json& trace, const std::string& source,
                         Config& config);
// "execution": inter_op_threads, intra_op_threads.
void apply_execution_section(const nlohmann::json& execution, const std::string& source,
                             Config& config);
// "visible_devices" and "devices", through the device setters of config.hpp.
void apply_visible_devices(const nlohmann::json& names, const std::string& source,
                           Config& config);
void apply_devices_section(const nlohmann::json& devices, const std::string& source,
                           Config& config);

}  // namespace hxrt::detail
