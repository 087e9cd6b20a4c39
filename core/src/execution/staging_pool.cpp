#include "execution/staging_pool.hpp"

#include <new>
#include <string>

#include "hxrt/error.hpp"
#include "plugins/plugin.hpp"
#include "status.hpp"

namespace hxrt::detail {
namespace {

constexpr std::align_val_t kHeapAlignment{64};

size_t capacity_for(size_t bytes) {
  size_t capacity = StagingPool::kMinCapacity;
  while (capacity < bytes) {
    if (capacity > (SIZE_MAX >> 1)) return bytes;  // no power of two fits: exactly the request
    capacity <<= 1;
  }
  return capacity;
}

}  // namespace

StagingPool::~StagingPool() {
  for (const Buffer& buffer : cached_) free_buffer(buffer);
}

StagingPool::Buffer StagingPool::acquire(size_t bytes) {
  const size_t capacity = capacity_for(bytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < cached_.size(); ++i) {
      if (cached_[i].capacity == capacity) {
        Buffer buffer = cached_[i];
        cached_[i] = cached_.back();
        cached_.pop_back();
        cached_bytes_ -= capacity;
        return buffer;
      }
    }
  }
  if (const hx_host_memory_api* host = plugin_.api().host_memory) {
    void* data = nullptr;
    hx_status* status = host->allocate(device_, capacity, &data);
    if (status == nullptr && data != nullptr) return {data, capacity, true};
    // Page-locked memory is scarce; ordinary memory only makes the copy slower.
    free_status(status);
  }
  void* data = ::operator new(capacity, kHeapAlignment, std::nothrow);
  if (data == nullptr) {
    throw Error(StatusCode::kOutOfMemory,
                "no host memory for a staging buffer of " + std::to_string(capacity) +
                    " bytes (a transfer to or from a device of plugin '" + plugin_.name() +
                    "' passes through one); free host memory or copy less at once");
  }
  return {data, capacity, false};
}

void StagingPool::release(Buffer buffer) noexcept {
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_bytes_ + buffer.capacity <= kMaxCachedBytes) {
      cached_.push_back(buffer);
      cached_bytes_ += buffer.capacity;
      return;
    }
  } catch (...) {
  }
  free_buffer(buffer);
}

void StagingPool::free_buffer(const Buffer& buffer) noexcept {
  if (buffer.pinned) {
    plugin_.api().host_memory->deallocate(device_, buffer.data);
  } else {
    ::operator delete(buffer.data, kHeapAlignment);
  }
}

}  // namespace hxrt::detail
