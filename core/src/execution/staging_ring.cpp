#include "execution/staging_ring.hpp"

#include <algorithm>
#include <new>
#include <string>

#include "execution/ready_event.hpp"
#include "hxrt/error.hpp"
#include "plugins/host_buffers.hpp"
#include "plugins/plugin.hpp"
#include "base/status.hpp"

namespace hxrt::detail {
namespace {

constexpr std::align_val_t kHeapAlignment{64};

static_assert(StagingRing::kSliceBytes <= StagingRing::kArenaBytes);
static_assert(StagingRing::kArenaBytes % StagingRing::kSliceAlignment == 0);

size_t aligned_end(size_t offset, size_t size) {
  const size_t end = offset + size;  // within the arena: no overflow
  return (end + StagingRing::kSliceAlignment - 1) & ~(StagingRing::kSliceAlignment - 1);
}

}  // namespace

StagingRing::~StagingRing() {
  slices_.clear();
  if (arena_ == nullptr) return;
  if (pinned_) {
    free_page_locked(plugin_, device_, arena_);
  } else {
    ::operator delete(arena_, kHeapAlignment);
  }
}

std::shared_ptr<ReadyEvent> StagingRing::transfer(size_t bytes, const Fill& fill,
                                                  const Send& send) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (arena_ == nullptr) make_arena();
  std::shared_ptr<ReadyEvent> last;
  for (size_t done = 0; done < bytes;) {
    const size_t size = std::min(bytes - done, kSliceBytes);
    const size_t offset = reserve(size);
    unsigned char* staged = arena_ + offset;
    fill(staged, done, size);
    last = send(staged, done, size);
    try {
      slices_.push_back({offset, size, last});
    } catch (...) {
      // Untracked, the slice could be handed out again while the device still reads it.
      if (last != nullptr) last->wait();
      throw;
    }
    done += size;
  }
  return last;
}

void StagingRing::reclaim() {
  std::lock_guard<std::mutex> lock(mutex_);
  reclaim_locked();
}

void StagingRing::make_arena() {
  if (plugin_.api().host_memory != nullptr) {
    void* data = nullptr;
    hx_status* status = allocate_page_locked(plugin_, device_, kArenaBytes, &data);
    if (status == nullptr) {
      arena_ = static_cast<unsigned char*>(data);
      pinned_ = true;
    }
    // Page-locked memory is scarce; ordinary memory only makes the copies slower.
    free_status(status);
  }
  if (arena_ == nullptr) {
    arena_ = static_cast<unsigned char*>(::operator new(kArenaBytes, kHeapAlignment, std::nothrow));
  }
  if (arena_ == nullptr) {
    throw Error(StatusCode::kOutOfMemory,
                "no host memory for the staging buffer of " + std::to_string(kArenaBytes) +
                    " bytes that transfers to a device of plugin '" + plugin_.name() +
                    "' pass through; free host memory and try again");
  }
}

size_t StagingRing::reserve(size_t size) {
  for (;;) {
    reclaim_locked();
    const size_t offset = free_offset(size);
    if (offset != kArenaBytes) return offset;
    // The device is a whole arena behind: the oldest slice is the first to come back.
    const std::shared_ptr<ReadyEvent> oldest = std::move(slices_.front().uploaded);
    slices_.pop_front();
    if (oldest == nullptr) continue;
    try {
      oldest->wait();
    } catch (const Error&) {
      // The upload failed: its tensor's readers hear of it; the slice is free either way.
    }
  }
}

size_t StagingRing::free_offset(size_t size) const {
  if (slices_.empty()) return 0;
  const Slice& oldest = slices_.front();
  const Slice& newest = slices_.back();
  const size_t end = aligned_end(newest.offset, newest.size);
  if (oldest.offset <= newest.offset) {
    // In use: [oldest, end). Free: after it, else before it from the start.
    if (kArenaBytes - end >= size) return end;
    if (oldest.offset >= size) return 0;
    return kArenaBytes;
  }
  // Wrapped: in use [oldest, arena end) and [0, end). Free: between them.
  if (oldest.offset - end >= size) return end;
  return kArenaBytes;
}

void StagingRing::reclaim_locked() {
  while (!slices_.empty() &&
         (slices_.front().uploaded == nullptr || slices_.front().uploaded->done())) {
    slices_.pop_front();
  }
}

}  // namespace hxrt::detail
