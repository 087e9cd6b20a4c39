// The layers of the configuration, applied in this order by resolve_config, each over the
// ones before: the file, the environment, RuntimeOptions.
#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"

namespace hxrt::detail {

// Reads the config file at `path` (`named_by`: "$HXRT_CONFIG" or "RuntimeOptions", for the
// error when it cannot be read). Relative plugin paths in it are made relative to its folder.
void apply_config_file(const std::string& path, const std::string& named_by, Config& config);

// The value of an environment variable; nullopt when it is unset or blank, so that
// `HXRT_X= program` unsets it for one run (as CTest does for HXRT_PLUGIN_PATH and HXRT_CONFIG).
std::optional<std::string> environment_variable(const char* name);

// The variable of every row of the settings table (settings_table.hpp) that has one, each read
// with environment_variable, in the table's order.
void apply_environment(Config& config);

// Every field of RuntimeOptions that is set, with the origin "API".
void apply_runtime_options(const RuntimeOptions& options, Config& config);

}  // namespace hxrt::detail
