// Host buffers that uploads read from after from_host has returned (the caller may reuse its
// memory at once), and that copies between plugins pass through. Page-locked where the
// device's plugin offers host_memory (DMA reads it directly; pageable memory would be staged
// again by the driver), else 64-byte-aligned heap memory. Released buffers are kept, by
// power-of-two size, up to kMaxCachedBytes, because page-locking costs far more than a copy.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "hxrt/plugin_api.h"

namespace hxrt::detail {

class Plugin;

class StagingPool {
 public:
  struct Buffer {
    void* data = nullptr;
    size_t capacity = 0;
    bool pinned = false;
  };
  static constexpr size_t kMaxCachedBytes = size_t{64} << 20;
  static constexpr size_t kMinCapacity = 4096;

  StagingPool(Plugin& plugin, hx_device* device) : plugin_(plugin), device_(device) {}
  ~StagingPool();
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;

  // At least `bytes` bytes; throws Error(kOutOfMemory) when the host has none.
  Buffer acquire(size_t bytes);
  void release(Buffer buffer) noexcept;

 private:
  void free_buffer(const Buffer& buffer) noexcept;

  Plugin& plugin_;
  hx_device* device_;
  std::mutex mutex_;
  std::vector<Buffer> cached_;  // guarded by mutex_
  size_t cached_bytes_ = 0;     // guarded by mutex_
};

}  // namespace hxrt::detail
