// One accepted plugin: its library handle, its function table and the core's handle for it.
// Shared by the devices it provides, so it stays loaded while any tensor holds its memory;
// the last owner calls shutdown and unloads the library.
#pragma once

#include <memory>
#include <string>

#include "hxrt/plugin_api.h"
#include "hxrt/plugin_vocabulary.h"
#include "plugins/core_handle.hpp"
#include "plugins/host_buffers.hpp"

namespace hxrt::detail {

class Plugin {
 public:
  // `api` is copied into a zero-filled table of this core's size, so fields beyond the
  // plugin's struct_size read as NULL ("unsupported"); its optional groups stay the plugin's
  // (borrowed until shutdown). Name, version and device type are read no further than one
  // byte beyond their limits (plugin_limits.hpp) and not yet checked.
  Plugin(std::string path, void* library, const hx_plugin_api& api,
         CoreHandle core);
  ~Plugin();
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  const hx_plugin_api& api() const { return api_; }
  hx_plugin* state() const { return api_.plugin; }
  const std::string& path() const { return path_; }
  const std::string& name() const { return name_; }
  const std::string& version() const { return version_; }
  const std::string& device_type() const { return device_type_; }
  std::string abi_version() const;
  hx_core_s& core_handle() { return *core_; }
  // The plugin's streams and events, both NULL when it runs synchronously: it has neither,
  // or only one of the two (the core orders work across streams only with events).
  const hx_stream_api* streams() const { return streams_; }
  const hx_event_api* events() const { return events_; }
  // Whether events() offers elapsed_ns, the device's own timing of queued work: only where its
  // struct_size covers the field (a group written for 2.0 or 2.1 ends before it).
  bool has_event_timing() const { return hx_event_api_has_elapsed_ns(events_); }
  // The plugin's recorded-work group: NULL when it has none, or runs synchronously (a
  // recording is of work on a stream).
  const hx_recording_api* recording() const { return streams_ ? recording_ : nullptr; }
  void run_synchronously() {
    streams_ = nullptr;
    events_ = nullptr;
  }

  // The page-locked memory the core took as buffers (allocate_page_locked), by address.
  HostBuffers& host_buffers() { return host_buffers_; }
  const HostBuffers& host_buffers() const { return host_buffers_; }

  int device_count() const { return device_count_; }
  void set_device_count(int count) { device_count_ = count; }

 private:
  std::string path_;
  void* library_;
  hx_plugin_api api_;
  const hx_stream_api* streams_;
  const hx_event_api* events_;
  const hx_recording_api* recording_;
  CoreHandle core_;
  std::string name_;
  std::string version_;
  std::string device_type_;
  int device_count_ = 0;
  HostBuffers host_buffers_;
};

}  // namespace hxrt::detail
