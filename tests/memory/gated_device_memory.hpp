// A stand-in for a plugin's raw allocate/deallocate for tests with several threads: calls of
// one kind can be held at a gate until the test opens it, so that the test sees what other
// threads can do while a device call is under way; every call may also take a pause, to
// widen races. Handles are bare addresses from a counter, as FakeDeviceMemory's kAddressesOnly
// (the allocator never touches them).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "hxrt/error.hpp"
#include "memory/bfc_allocator.hpp"

namespace hxrt_test {

class GatedDeviceMemory {
 public:
  enum class Call { kAllocate, kDeallocate };

  // The device's size: a request past what is outstanding throws Error(kOutOfMemory).
  explicit GatedDeviceMemory(size_t capacity = SIZE_MAX) : capacity_(capacity) {}

  hxrt::detail::RawMemory raw() {
    return {[this](size_t bytes) { return allocate(bytes); },
            [this](void* buffer, size_t bytes) { deallocate(buffer, bytes); }};
  }

  // From now on, calls of this kind wait at the gate until open().
  void close(Call call) {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_[index(call)] = true;
  }
  void open() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_[0] = closed_[1] = false;
    changed_.notify_all();
  }
  // Whether a call of this kind is waiting at the gate within `timeout`.
  bool held_within(Call call, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return waiting_[index(call)] > 0; });
  }
  // Every call sleeps this long, outside the device's own lock.
  void pause_each_call(std::chrono::microseconds pause) { pause_ = pause; }

  size_t peak_bytes_outstanding() {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_outstanding_;
  }
  size_t bytes_outstanding() {
    std::lock_guard<std::mutex> lock(mutex_);
    return outstanding_bytes_;
  }
  int mismatched_deallocations() {
    std::lock_guard<std::mutex> lock(mutex_);
    return mismatched_;
  }

 private:
  static int index(Call call) { return call == Call::kAllocate ? 0 : 1; }

  void pass_gate(std::unique_lock<std::mutex>& lock, Call call) {
    ++waiting_[index(call)];
    changed_.notify_all();
    changed_.wait(lock, [&] { return !closed_[index(call)]; });
    --waiting_[index(call)];
  }

  void* allocate(size_t bytes) {
    if (pause_.count() > 0) std::this_thread::sleep_for(pause_);
    std::unique_lock<std::mutex> lock(mutex_);
    pass_gate(lock, Call::kAllocate);
    if (bytes > capacity_ - outstanding_bytes_) {
      throw hxrt::Error(hxrt::StatusCode::kOutOfMemory,
                        "gated device has " + std::to_string(capacity_ - outstanding_bytes_) +
                            " bytes free");
    }
    void* buffer = reinterpret_cast<void*>(next_address_);
    next_address_ += bytes + hxrt::detail::BfcAllocator::kAlignment;
    outstanding_[buffer] = bytes;
    outstanding_bytes_ += bytes;
    if (outstanding_bytes_ > peak_outstanding_) peak_outstanding_ = outstanding_bytes_;
    return buffer;
  }

  void deallocate(void* buffer, size_t bytes) {
    if (pause_.count() > 0) std::this_thread::sleep_for(pause_);
    std::unique_lock<std::mutex> lock(mutex_);
    pass_gate(lock, Call::kDeallocate);
    const auto found = outstanding_.find(buffer);
    if (found == outstanding_.end() || found->second != bytes) {
      ++mismatched_;
      return;
    }
    outstanding_.erase(found);
    outstanding_bytes_ -= bytes;
  }

  const size_t capacity_;
  std::chrono::microseconds pause_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
  bool closed_[2] = {false, false};
  int waiting_[2] = {0, 0};
  std::map<void*, size_t> outstanding_;
  size_t outstanding_bytes_ = 0;
  size_t peak_outstanding_ = 0;
  int mismatched_ = 0;
  uintptr_t next_address_ = uintptr_t{1} << 40;
};

}  // namespace hxrt_test
