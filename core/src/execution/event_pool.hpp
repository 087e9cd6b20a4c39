// A device's spare plugin events. Recording an event after every op and copy would otherwise
// create and destroy one per op; an event may be recorded again once no one holds it, because
// a stream that waits for it captured the recorded point when it was told to wait
// (plugin_api.h, wait_event).
#pragma once

#include <mutex>
#include <vector>

#include "hxrt/plugin_api.h"

namespace hxrt::detail {

class Plugin;

class EventPool {
 public:
  EventPool(Plugin& plugin, hx_device* device) : plugin_(plugin), device_(device) {}
  ~EventPool();  // destroys the spare events
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;

  // A spare event, or a new one; throws Error when the plugin cannot create one.
  hx_event* acquire(const std::string& device_name);
  void release(hx_event* event) noexcept;

 private:
  Plugin& plugin_;
  hx_device* device_;
  std::mutex mutex_;
  std::vector<hx_event*> spare_;
};

}  // namespace hxrt::detail
