// Calls back when events complete, from one thread per runtime that polls them: so that work
// waiting for an asynchronous device (a graph step that copies a GPU's result to the host)
// holds no thread of the inter-op pool, as TensorFlow's EventMgr polls for its executor.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "execution/ready_event.hpp"

namespace hxrt::detail {

class EventWaiter {
 public:
  EventWaiter() = default;
  // Waits for the events still pending and calls their callbacks, then stops the thread.
  ~EventWaiter();
  EventWaiter(const EventWaiter&) = delete;
  EventWaiter& operator=(const EventWaiter&) = delete;

  // Calls `callback` on the waiter's thread once `event` is done (completed or failed); the
  // callback must be short and must not throw. Starts the thread at the first call.
  void when_done(std::shared_ptr<ReadyEvent> event, std::function<void()> callback);

 private:
  void poll();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::pair<std::shared_ptr<ReadyEvent>, std::function<void()>>> pending_;
  bool stopping_ = false;
  std::thread thread_;  // started by the first when_done
};

}  // namespace hxrt::detail
