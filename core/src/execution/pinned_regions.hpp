// The page-locked host memory a runtime has given out (Runtime::pinned_memory), by address,
// so that from_host can tell that a source is page-locked memory of the target's plugin and
// upload it straight. Thread-safe; a lookup in a runtime that gave none is one load.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "devices/device.hpp"

namespace hxrt::detail {

class PinnedRegions {
 public:
  void add(const void* data, size_t size, const Plugin& plugin);
  void remove(const void* data) noexcept;
  // Whether the `size` bytes at `data` lie inside one region that `plugin` gave.
  bool contains(const Plugin& plugin, const void* data, size_t size) const {
    return count_.load(std::memory_order_acquire) != 0 && find(plugin, data, size);
  }

 private:
  struct Region {
    size_t size;
    const Plugin* plugin;
  };
  bool find(const Plugin& plugin, const void* data, size_t size) const;

  mutable std::mutex mutex_;
  std::map<uintptr_t, Region> regions_;  // by start; guarded by mutex_
  std::atomic<size_t> count_{0};
};

// One block of page-locked memory and its registration: both end with the last PinnedMemory
// handle.
class PinnedBlock {
 public:
  // Takes `bytes` (> 0) from `device`'s plugin's host_memory group and registers them.
  // Error(kInvalidArgument) when the plugin offers none, Error(kOutOfMemory) when it refuses.
  PinnedBlock(std::shared_ptr<Device> device, std::shared_ptr<PinnedRegions> regions,
              size_t bytes);
  ~PinnedBlock();
  PinnedBlock(const PinnedBlock&) = delete;
  PinnedBlock& operator=(const PinnedBlock&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }
  const std::string& device_name() const { return device_->name(); }

 private:
  std::shared_ptr<Device> device_;  // keeps the plugin that gave the memory loaded
  std::shared_ptr<PinnedRegions> regions_;
  void* data_ = nullptr;
  size_t size_;
};

}  // namespace hxrt::detail
