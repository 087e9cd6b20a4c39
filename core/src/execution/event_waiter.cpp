#include "execution/event_waiter.hpp"

#include <algorithm>
#include <chrono>

namespace hxrt::detail {

EventWaiter::~EventWaiter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void EventWaiter::when_done(std::shared_ptr<ReadyEvent> event, std::function<void()> callback) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.emplace_back(std::move(event), std::move(callback));
    if (!thread_.joinable()) thread_ = std::thread([this] { poll(); });
  }
  wake_.notify_all();
}

// Queries every pending event, calls back for those done, and sleeps between rounds: 20 us at
// first, doubling to 1 ms while nothing completes, so a short wait is seen soon and a long one
// costs little.
void EventWaiter::poll() {
  std::chrono::microseconds pause(20);
  std::vector<std::pair<std::shared_ptr<ReadyEvent>, std::function<void()>>> watched, done;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !pending_.empty() || !watched.empty(); });
    std::move(pending_.begin(), pending_.end(), std::back_inserter(watched));
    pending_.clear();
    if (watched.empty()) return;  // stopping, with nothing left
    lock.unlock();
    auto still = std::partition(watched.begin(), watched.end(),
                                [](const auto& entry) { return !entry.first->done(); });
    std::move(still, watched.end(), std::back_inserter(done));
    watched.erase(still, watched.end());
    for (auto& entry : done) entry.second();
    const bool progressed = !done.empty();
    done.clear();
    if (!watched.empty()) {
      pause = progressed ? std::chrono::microseconds(20) : std::min(pause * 2, decltype(pause)(1000));
      lock.lock();
      wake_.wait_for(lock, pause, [&] { return !pending_.empty(); });
      continue;
    }
    lock.lock();
  }
}

}  // namespace hxrt::detail
