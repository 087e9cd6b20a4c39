// One life of the plugin under test: hx_plugin_init as a core of a given version would call
// it, the table it returned, and shutdown when the session ends.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kit_core.hpp"
#include "plugin_library.hpp"

namespace hxrt_conformance {

// The core the plugin is shown: its ABI version and the sizes of its services table and of
// the init arguments it passes.
struct CoreVersion {
  uint32_t major = HX_ABI_VERSION_MAJOR;
  uint32_t minor = HX_ABI_VERSION_MINOR;
  size_t services_size = HX_CORE_SERVICES_STRUCT_SIZE;
  size_t init_args_size = HX_PLUGIN_INIT_ARGS_STRUCT_SIZE;
};

class PluginSession {
 public:
  // Calls the library's init with `options` (JSON text). init_outcome() says how it went;
  // api() is usable only when initialised().
  PluginSession(const PluginLibrary& library, const std::string& options,
                CoreVersion version = {});
  ~PluginSession();  // shutdown(), if still initialised
  PluginSession(const PluginSession&) = delete;
  PluginSession& operator=(const PluginSession&) = delete;

  bool initialised() const { return api_ != nullptr && !shut_down_; }
  // "" when the table can be used: its major, its size, its groups' sizes and every required
  // function (the abi section checks each); else why not. Only then are devices listed.
  const std::string& table_problem() const { return table_problem_; }
  const Outcome& init_outcome() const { return init_outcome_; }
  // The table init returned (NULL if it failed or returned none).
  const hx_plugin_api* table() const { return api_; }
  const hx_plugin_api& api() const { return *api_; }
  hx_plugin* plugin() const { return api_->plugin; }
  KitCore& core() { return core_; }
  const KitCore& core() const { return core_; }

  // The devices the plugin reports. When there are none, devices() is empty and
  // no_devices_reason() says why ("device_count says UNAVAILABLE: no CUDA driver").
  const std::vector<hx_device*>& devices() const { return devices_; }
  const std::string& no_devices_reason() const { return no_devices_reason_; }

  // Optional groups of the table (present; with table_problem() empty, whole).
  bool has_streams() const;
  bool has_events() const;
  // The events group offers elapsed_ns (hx_event_api_has_elapsed_ns).
  bool has_event_timing() const;
  bool has_host_memory() const;

  // Calls shutdown once; later calls do nothing.
  void shutdown();

 private:
  void list_devices();

  KitCore core_;
  const hx_plugin_api* api_ = nullptr;
  Outcome init_outcome_;
  bool shut_down_ = false;
  std::string table_problem_;
  std::vector<hx_device*> devices_;
  std::string no_devices_reason_;
};

// "" when `api` is a whole table of this ABI, else what is wrong with it.
std::string find_table_problem(const hx_plugin_api& api);

// What a check names a call's failure as: "INVALID_ARGUMENT: the message".
std::string describe(const Outcome& outcome);

}  // namespace hxrt_conformance
