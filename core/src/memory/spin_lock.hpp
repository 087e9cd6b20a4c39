// A lock for critical sections of a few dozen nanoseconds, such as the allocator's hit path.
// Taking it costs one atomic exchange and releasing it a plain store, where std::mutex pays a
// second atomic on unlock (to wake sleepers): on the allocator's hit path, a third of the time.
// A waiter spins briefly, then yields its core, so a holder that was descheduled still gets
// to run. It fits because no holder waits on anything: the allocator calls the device only
// after unlocking (memory/bfc_allocator.hpp).
#pragma once

#include <atomic>
#include <thread>

namespace hxrt::detail {

class SpinLock {
 public:
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      for (int spins = 0; locked_.load(std::memory_order_relaxed); ++spins) {
        if (spins < kSpinsBeforeYield) {
          relax();
        } else {
          std::this_thread::yield();
        }
      }
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  // Tells the core that this is a wait loop, so it spares the other hyperthread and the bus.
  static void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  static constexpr int kSpinsBeforeYield = 64;
  std::atomic<bool> locked_{false};
};

}  // namespace hxrt::detail
