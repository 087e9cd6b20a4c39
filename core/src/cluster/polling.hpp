// How a task waits for messages: by asking again, at once for the first 100 us (a message on
// loopback takes a few), then with sleeps that double up to 1 ms, so that a long wait holds
// little of a core and a short one is seen soon.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace hxrt::detail {

class Polling {
 public:
  Polling() { progressed(); }

  void pause() {
    if (std::chrono::steady_clock::now() < spin_until_) return;
    std::this_thread::sleep_for(std::chrono::microseconds(sleep_us_));
    sleep_us_ = std::min(sleep_us_ * 2, kLongestSleepUs);
  }
  // Something came: the next wait starts short again.
  void progressed() {
    spin_until_ = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinUs);
    sleep_us_ = kFirstSleepUs;
  }

 private:
  static constexpr int kSpinUs = 100;
  static constexpr int kFirstSleepUs = 10;
  static constexpr int kLongestSleepUs = 1000;
  std::chrono::steady_clock::time_point spin_until_;
  int sleep_us_ = kFirstSleepUs;
};

}  // namespace hxrt::detail
