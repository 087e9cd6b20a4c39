// The effective configuration: built-in defaults < config file < environment < API options.
// The file is JSON; every mistake is an Error naming the file and the JSON path.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hxrt/log.hpp"
#include "hxrt/runtime.hpp"

namespace hxrt::detail {

struct Config {
  std::string file;  // the config file read, "" when none
  std::vector<std::string> plugin_libraries;     // config "plugins.libraries"
  std::vector<std::string> plugin_search_paths;  // config "plugins.search_paths"
  std::vector<std::string> env_plugin_paths;     // $HXRT_PLUGIN_PATH
  std::vector<std::string> api_plugin_paths;     // RuntimeOptions::plugin_paths
  bool use_installed_plugins = true;
  std::map<std::string, std::string> plugin_options;  // plugin name -> JSON object text
  bool log_device_placement = false;
  LogLevel log_level = LogLevel::kWarning;
  std::vector<std::string> device_priority;  // "placement.device_priority"; empty: default
  SoftPlacement soft_placement = SoftPlacement::kFallbackOnMissingKernel;

  // Plugin candidates in load order (see plugin_loader.hpp); the installed folder last.
  std::vector<std::string> plugin_candidates(const std::string& installed_dir) const;
};

// Reads RuntimeOptions::config_path (or $HXRT_CONFIG), then the environment, then `options`.
Config resolve_config(const RuntimeOptions& options);

// Parses config JSON text; `source` names it in errors. Exposed for tests.
void apply_config_text(const std::string& text, const std::string& source, Config& config);

}  // namespace hxrt::detail
