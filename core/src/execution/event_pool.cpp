#include "execution/event_pool.hpp"

#include "plugins/plugin.hpp"
#include "base/status.hpp"

namespace hxrt::detail {

EventPool::~EventPool() {
  for (hx_event* event : spare_) plugin_.events()->destroy(device_, event);
}

hx_event* EventPool::acquire(const std::string& device_name) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spare_.empty()) {
      hx_event* event = spare_.back();
      spare_.pop_back();
      return event;
    }
  }
  hx_event* event = nullptr;
  throw_if_error(plugin_.events()->create(device_, &event),
                 "plugin '" + plugin_.name() + "' events.create for " + device_name);
  return event;
}

void EventPool::release(hx_event* event) noexcept {
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    spare_.push_back(event);
    return;
  } catch (...) {
    // No memory to keep it: give it back to the plugin instead.
  }
  plugin_.events()->destroy(device_, event);
}

}  // namespace hxrt::detail
