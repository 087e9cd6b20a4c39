#include "event_slot.hpp"

namespace hxopencl {

EventSlot::~EventSlot() {
  if (event_ != nullptr) clReleaseEvent(event_);
}

void EventSlot::replace(cl_event event) {
  cl_event previous = nullptr;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    previous = event_;
    event_ = event;
  }
  // Outside the lock: a release may be slow, and readers need not wait for it.
  if (previous != nullptr) clReleaseEvent(previous);
}

cl_event EventSlot::retained() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (event_ != nullptr) clRetainEvent(event_);
  return event_;
}

}  // namespace hxopencl
