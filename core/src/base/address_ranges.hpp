// Ranges of host addresses, each with a value, and the lookup of the range that holds a given
// span: the page-locked memory a runtime gave out (execution/pinned_regions.hpp) and the host
// buffers a plugin gave (plugins/host_buffers.hpp) are both kept so. Thread-safe; a lookup
// while no range is kept is one load, so that a copy from ordinary memory pays nothing more.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>

namespace hxrt::detail {

template <class Value>
class AddressRanges {
 public:
  // Where a span lies: the value of the range that holds it, and its byte offset in it.
  struct Found {
    Value value;
    uint64_t offset;
  };

  void add(const void* start, size_t size, Value value) {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_[reinterpret_cast<uintptr_t>(start)] = Range{size, value};
    count_.store(ranges_.size(), std::memory_order_release);
  }
  void remove(const void* start) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_.erase(reinterpret_cast<uintptr_t>(start));
    count_.store(ranges_.size(), std::memory_order_release);
  }
  // The range that holds all `size` bytes at `data`, if one does.
  std::optional<Found> find(const void* data, size_t size) const {
    if (count_.load(std::memory_order_acquire) == 0) return std::nullopt;
    const uintptr_t start = reinterpret_cast<uintptr_t>(data);
    std::lock_guard<std::mutex> lock(mutex_);
    const auto after = ranges_.upper_bound(start);
    if (after == ranges_.begin()) return std::nullopt;
    const auto& [range_start, range] = *std::prev(after);
    // start >= range_start here; the span must end within the range.
    const uintptr_t into = start - range_start;
    if (into > range.size || size > range.size - into) return std::nullopt;
    return Found{range.value, into};
  }

 private:
  struct Range {
    size_t size;
    Value value;
  };
  mutable std::mutex mutex_;
  std::map<uintptr_t, Range> ranges_;  // by start; guarded by mutex_
  std::atomic<size_t> count_{0};
};

}  // namespace hxrt::detail
