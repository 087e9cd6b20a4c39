// Memory that queued work on some stream may still read: a tensor's block read by another
// device's stream (PyTorch's record-stream rule).
// Each waits here with the events recorded after those reads and is released once all of them
// have completed. Reuse on the block's own stream needs no entry: that stream runs in order.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "execution/ready_event.hpp"

namespace hxrt::detail {

class PendingReleases {
 public:
  using Events = std::vector<std::shared_ptr<ReadyEvent>>;

  ~PendingReleases() { drain(); }

  // Runs `release` once every event in `events` has completed: now, when all have. When it
  // throws (no memory), `events` is left as it was and `release` has not run.
  void add(Events&& events, std::function<void()> release);
  // Runs the releases whose events have all completed; never blocks. One load when none wait.
  void reclaim() {
    if (!empty()) reclaim_some();
  }
  // Waits for every pending event, then runs every release; whether there was any.
  bool drain();
  bool empty() const { return count_.load(std::memory_order_acquire) == 0; }

 private:
  struct Entry {
    Events events;
    std::function<void()> release;
  };
  static bool all_done(const Events& events);
  void reclaim_some();

  std::mutex mutex_;
  std::vector<Entry> entries_;  // guarded by mutex_
  std::atomic<size_t> count_{0};
};

}  // namespace hxrt::detail
