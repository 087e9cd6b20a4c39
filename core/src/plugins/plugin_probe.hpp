// Probing plugins (config plugins.probe): before the loader dlopens a plugin in this process,
// hxrt-probe loads it in a child process and runs what start-up runs: dlopen, hx_plugin_init
// with the same arguments (options and intra-op threads), the read of its function table,
// device_count, device_get and device_properties of each device, shutdown and dlclose. A
// plugin that crashes there, calls exit() or does not finish within the time limit is skipped
// with the reason, and this process never loads it.
//
// What it cannot catch: whatever a plugin does after start-up (a kernel, a copy or a stream
// that corrupts memory or crashes at run time takes the host down), and a crash that depends
// on what differs between the probe process and the host (other plugins loaded, the host's
// threads, timing, a driver or environment that changes after a good verdict was cached).
//
// Cost: one process for each plugin file not yet known good (milliseconds, mostly spent
// loading the plugin and its libraries); nothing for one whose good verdict is cached
// (probe_cache.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "base/logger.hpp"
#include "plugins/probe_cache.hpp"

namespace hxrt::detail {

struct ProbeSettings {
  bool enabled = false;
  std::chrono::milliseconds time_limit{0};  // for the whole probe of one plugin
  std::string program;                      // hxrt-probe
  std::string cache_file;                   // "" keeps no verdicts
};

// The settings start-up uses: hxrt-probe from beside libhxrt.so (lib/hxrt/hxrt-probe) and
// the user's cache file (ProbeCache::default_file).
ProbeSettings probe_settings(bool enabled, std::chrono::milliseconds time_limit);

class PluginProbe {
 public:
  PluginProbe(ProbeSettings settings, std::shared_ptr<Logger> logger);

  // "" when the plugin file `path`, named `name`, whose init gets `options` and
  // `intra_op_threads`, may be loaded in this process: its good verdict is cached, or a probe
  // survived it, or no probe could run (logged as a warning: the plugin is then loaded
  // unprobed, as with probing off). Otherwise the reason to skip it.
  std::string check(const std::string& path, const std::string& name,
                    const std::string& options, uint32_t intra_op_threads);

  // Keeps the verdicts learnt for the next start-up; a cache that cannot be written is logged.
  void save();

 private:
  ProbeSettings settings_;
  std::shared_ptr<Logger> logger_;
  ProbeCache cache_;
};

}  // namespace hxrt::detail
