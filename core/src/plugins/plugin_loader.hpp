// Finds plugin candidates, loads each with dlopen(RTLD_LOCAL), negotiates the ABI, runs its
// init and accepts or skips it. Every candidate leaves one entry in the load report; one bad
// plugin never stops the others.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hxrt/device_info.hpp"
#include "hxrt/error.hpp"
#include "plugins/kernel_registry.hpp"
#include "base/logger.hpp"
#include "ops/op_schema.hpp"
#include "plugins/plugin.hpp"
#include "plugins/plugin_probe.hpp"

namespace hxrt::detail {

// What load_plugins throws when a plugin's init refuses the options it was given
// (INVALID_ARGUMENT while plugins.options.<name> is set): a mistake in the configuration,
// which fails start-up instead of skipping the plugin. The message begins with the JSON path
// of the option refused: "/plugins/options/<name>/<key>: <file> refused its options: ..."
// (the plugin's name alone when its message quotes no key). `options_path` is
// "/plugins/options/<name>", where Config::origins records who set the options.
class OptionsRefused : public Error {
 public:
  OptionsRefused(std::string options_path, const std::string& message)
      : Error(StatusCode::kInvalidArgument, message), options_path_(std::move(options_path)) {}
  const std::string& options_path() const { return options_path_; }

 private:
  std::string options_path_;
};

struct LoadedPlugins {
  std::vector<std::shared_ptr<Plugin>> plugins;  // accepted, in load order
  std::vector<PluginReport> report;              // every candidate, in load order
};

// `candidates` are files or folders (a folder contributes its libhx_*.so files in name order).
// `options` maps a plugin's file name stem (libhx_<name>.so -> <name>) to its JSON options.
// A plugin whose init refuses its `options` throws OptionsRefused (above).
// A plugin named in `disabled` (plugins.disabled) is skipped, by its file's name before it is
// opened and by its table's name after init. Every init, probed or not, gets
// `intra_op_threads` (config execution.intra_op_threads). Several plugins may provide one
// device type.
// Accepted plugins' ops and kernels are added to `ops` and `kernels`. With probing enabled,
// each candidate is first probed in a child process (plugin_probe.hpp).
LoadedPlugins load_plugins(const std::vector<std::string>& candidates,
                           const std::map<std::string, std::string>& options,
                           const std::vector<std::string>& disabled, uint32_t intra_op_threads,
                           const std::shared_ptr<Logger>& logger, OpRegistry& ops,
                           KernelRegistry& kernels, const ProbeSettings& probe_settings);

// The plugin folder installed beside the core library (<libdir>/hxrt/plugins); "" if the
// core cannot find where it was loaded from.
std::string installed_plugin_dir();

// "libhx_cpu.so" -> "cpu"; other names are returned without folder and extension.
std::string plugin_name_from_path(const std::string& path);

}  // namespace hxrt::detail
