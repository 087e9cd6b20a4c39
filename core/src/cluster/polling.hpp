// How a task waits for messages: by asking again, at first at once (yielding the core to any
// thread that wants it), then with sleeps that double up to 1 ms, so that a long wait holds
// little of a core and a short one is seen soon. MPI moves a message only while it is asked,
// and says nothing of one begun until it is done: a run's waits ask at once all along, as Open
// MPI's blocking calls do (a sleep between asks cost a 64 MiB allreduce 8x its time).
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace hxrt::detail {

class Polling {
 public:
  // Asks at once for `eager` after each progress.
  explicit Polling(std::chrono::microseconds eager = kIdleEager) : eager_(eager) { progressed(); }

  // A run's waits: at once, all along.
  static constexpr std::chrono::microseconds kRunEager = std::chrono::microseconds::max();
  // A service between requests: a client's next request comes at once, or after a while.
  static constexpr std::chrono::microseconds kIdleEager{100};

  void pause() {
    if (std::chrono::steady_clock::now() < eager_until_) {
      std::this_thread::yield();
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(sleep_us_));
    sleep_us_ = std::min(sleep_us_ * 2, kLongestSleepUs);
  }
  // Something came: the next wait starts at once again.
  void progressed() {
    const auto now = std::chrono::steady_clock::now();
    eager_until_ = eager_ == kRunEager ? std::chrono::steady_clock::time_point::max()
                                       : now + eager_;
    sleep_us_ = kFirstSleepUs;
  }

 private:
  static constexpr int kFirstSleepUs = 10;
  static constexpr int kLongestSleepUs = 1000;
  std::chrono::microseconds eager_;
  std::chrono::steady_clock::time_point eager_until_;
  int sleep_us_ = kFirstSleepUs;
};

}  // namespace hxrt::detail
