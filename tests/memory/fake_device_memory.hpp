// A stand-in for a plugin's raw allocate/deallocate that counts every call and can be told to
// run out or to fail. It hands out either real host memory (so tests can write into blocks,
// through host_bytes) or bare handles from a counter (so tests can reserve gigabytes that do
// not exist: the allocator never touches the memory it manages). Its calls are thread-safe, as
// plugin_api.h asks of a device's allocation: the allocator calls the device without its own
// lock. The counters are for reading once the threads are done.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/error.hpp"
#include "memory/bfc_allocator.hpp"

namespace hxrt_test {

constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * KiB;

// Options whose first region has `bytes`, the rest default.
inline hxrt::detail::BfcOptions first_region(size_t bytes) {
  hxrt::detail::BfcOptions options;
  options.first_region_bytes = bytes;
  return options;
}

// The same without thread caches: every free goes straight back to the bins, as tests of the
// best-fit policy itself want.
inline hxrt::detail::BfcOptions uncached(hxrt::detail::BfcOptions options = {}) {
  options.thread_caches = false;
  return options;
}

// The host memory behind a live block of an allocator whose regions are FakeDeviceMemory's
// kHost buffers: the block's buffer plus its offset. The block itself is an address in the
// allocator's own space, which nothing may dereference.
inline unsigned char* host_bytes(const hxrt::detail::BfcAllocator& allocator, const void* block) {
  const hxrt::detail::BufferLocation location = allocator.locate(block);
  return static_cast<unsigned char*>(location.buffer) + location.offset;
}

class FakeDeviceMemory {
 public:
  enum class Backing { kHost, kAddressesOnly };

  explicit FakeDeviceMemory(Backing backing = Backing::kAddressesOnly) : backing_(backing) {}
  ~FakeDeviceMemory() {
    if (backing_ == Backing::kHost) {
      for (const auto& [address, bytes] : outstanding_) std::free(reinterpret_cast<void*>(address));
    }
  }
  FakeDeviceMemory(const FakeDeviceMemory&) = delete;
  FakeDeviceMemory& operator=(const FakeDeviceMemory&) = delete;

  // The device's size: a request past it throws Error(kOutOfMemory).
  size_t capacity = SIZE_MAX;
  // The allocate call (counting from 1) that throws `failure` instead of allocating.
  int fail_call = 0;
  hxrt::Error failure{hxrt::StatusCode::kInternal, "fake device lost"};

  hxrt::detail::RawMemory raw() {
    return {[this](size_t bytes) { return allocate(bytes); },
            [this](void* ptr, size_t bytes) { deallocate(ptr, bytes); }};
  }

  int allocate_calls = 0;  // successful ones
  int deallocate_calls = 0;
  int mismatched_deallocations = 0;  // unknown pointer, or a size other than the one given
  size_t bytes_outstanding = 0;
  size_t peak_bytes_outstanding = 0;
  std::vector<size_t> region_sizes;  // of each successful allocate, in order

 private:
  void* allocate(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (++attempts_ == fail_call) throw failure;
    if (bytes > capacity - bytes_outstanding) {
      throw hxrt::Error(hxrt::StatusCode::kOutOfMemory,
                        "fake device has " + std::to_string(capacity - bytes_outstanding) +
                            " bytes free");
    }
    void* ptr = nullptr;
    if (backing_ == Backing::kHost) {
      ptr = std::aligned_alloc(hxrt::detail::BfcAllocator::kAlignment, bytes);
      if (ptr == nullptr) throw std::bad_alloc();
    } else {
      ptr = reinterpret_cast<void*>(next_address_);
      // A gap between regions, so that merging across regions would show.
      next_address_ += bytes + hxrt::detail::BfcAllocator::kAlignment;
    }
    outstanding_[reinterpret_cast<uintptr_t>(ptr)] = bytes;
    ++allocate_calls;
    region_sizes.push_back(bytes);
    bytes_outstanding += bytes;
    if (bytes_outstanding > peak_bytes_outstanding) peak_bytes_outstanding = bytes_outstanding;
    return ptr;
  }

  void deallocate(void* ptr, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++deallocate_calls;
    const auto found = outstanding_.find(reinterpret_cast<uintptr_t>(ptr));
    if (found == outstanding_.end() || found->second != bytes) {
      ++mismatched_deallocations;
      return;
    }
    outstanding_.erase(found);
    bytes_outstanding -= bytes;
    if (backing_ == Backing::kHost) std::free(ptr);
  }

  std::mutex mutex_;
  Backing backing_;
  int attempts_ = 0;
  uintptr_t next_address_ = uintptr_t{1} << 40;
  std::map<uintptr_t, size_t> outstanding_;
};

}  // namespace hxrt_test
