// The page-locked host memory a runtime has given out (Runtime::pinned_memory), by address,
// so that from_host can tell that a source is page-locked memory of the target's plugin and
// upload it straight. Thread-safe; a lookup in a runtime that gave none is one load.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "base/address_ranges.hpp"
#include "devices/device.hpp"

namespace hxrt::detail {

class PinnedRegions {
 public:
  void add(const void* data, size_t size, const Plugin& plugin) {
    regions_.add(data, size, &plugin);
  }
  void remove(const void* data) noexcept { regions_.remove(data); }
  // Whether the `size` bytes at `data` lie inside one region that `plugin` gave.
  bool contains(const Plugin& plugin, const void* data, size_t size) const {
    const auto found = regions_.find(data, size);
    return found && found->value == &plugin;
  }

 private:
  AddressRanges<const Plugin*> regions_;  // each region's plugin
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
