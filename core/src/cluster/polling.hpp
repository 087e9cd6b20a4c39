// How a task waits for messages: by asking again, at first at once (yielding the core to any
// thread that wants it), then with sleeps that double up to 1 ms, so that a long wait holds
// little of a core and a short one is seen soon. MPI moves a large message only while it is
// asked (Open MPI's blocking calls spin as the first phase does), so a run that waits for one
// stays in the first phase while messages come.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace hxrt::detail {

class Polling {
 public:
  // Asks at once for `eager` after each progress.
  explicit Polling(std::chrono::microseconds eager = kIdleEager) : eager_(eager) { progressed(); }

  // The first phase of a run's waits: a 64 MiB message takes tens of milliseconds.
  static constexpr std::chrono::microseconds kRunEager{50000};
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
    eager_until_ = std::chrono::steady_clock::now() + eager_;
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
