// One cl_event that threads replace and read: an event's recorded marker, a stream's last
// command. It owns the event it holds and releases it when replaced or destroyed.
#pragma once

#include <CL/cl.h>

#include <mutex>

namespace hxopencl {

class EventSlot {
 public:
  EventSlot() = default;
  ~EventSlot();
  EventSlot(const EventSlot&) = delete;
  EventSlot& operator=(const EventSlot&) = delete;

  // Holds `event` (takes ownership), releasing the one held before.
  void replace(cl_event event);
  // The event held, retained for the caller (who releases it); NULL when none was ever given.
  cl_event retained() const;

 private:
  mutable std::mutex mutex_;  // replaced by one thread while another waits on or queries it
  cl_event event_ = nullptr;
};

}  // namespace hxopencl
