// The host memory that uploads to one device read from after the call that queued them has
// returned (the caller may reuse its own memory at once), and that copies between plugins pass
// through: one arena of kArenaBytes, page-locked where the device's plugin offers host_memory
// (DMA reads it directly; pageable memory would be staged again by the driver), else
// 64-byte-aligned heap memory, taken at the first transfer and kept.
//
// The arena is a ring of slices. A transfer takes the next free slices, up to kSliceBytes each,
// fills one, queues its upload and records an event after it, then fills the next while the
// device copies the one before: the host's memcpy overlaps the DMA, as a double buffer does,
// with no page-locked allocation per call and a fixed ceiling on the memory it holds. A slice
// comes back once its event has completed; when the device is a whole arena behind, the next
// transfer waits for the oldest slice.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "hxrt/plugin_api.h"

namespace hxrt::detail {

class Plugin;
class ReadyEvent;

class StagingRing {
 public:
  static constexpr size_t kArenaBytes = size_t{32} << 20;
  static constexpr size_t kSliceBytes = size_t{8} << 20;
  // Every slice starts at a multiple of this, so that DMA engines read whole lines.
  static constexpr size_t kSliceAlignment = 256;

  // Writes `size` bytes, those at byte `offset` of the transfer, to `staged`.
  using Fill = std::function<void(void* staged, size_t offset, size_t size)>;
  // Queues the upload of the `size` bytes at `staged` to byte `offset` of the destination,
  // and returns the event recorded after it. When it throws, nothing may read `staged` any
  // more (the stream was synchronised).
  using Send =
      std::function<std::shared_ptr<ReadyEvent>(const void* staged, size_t offset, size_t size)>;

  StagingRing(Plugin& plugin, hx_device* device) : plugin_(plugin), device_(device) {}
  // The owner has synchronised its stream: no queued upload reads the arena any more.
  ~StagingRing();
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;

  // Moves `bytes` bytes (> 0) through the arena, slice by slice, and returns the event of the
  // last upload: the stream runs in order, so it completes after all of them. Transfers to one
  // device take turns. Throws Error(kOutOfMemory) when the host has no memory for the arena,
  // and whatever `fill` or `send` throw (the slices already queued stay so).
  std::shared_ptr<ReadyEvent> transfer(size_t bytes, const Fill& fill, const Send& send);
  // Takes back the slices whose uploads have completed; never blocks.
  void reclaim();

 private:
  struct Slice {
    size_t offset;
    size_t size;
    std::shared_ptr<ReadyEvent> uploaded;  // nullptr: nothing reads it any more
  };

  void make_arena();
  // The offset of `size` free bytes, waiting for the oldest slices when there are none.
  size_t reserve(size_t size);
  // Where `size` bytes fit now, or kArenaBytes when nowhere.
  size_t free_offset(size_t size) const;
  void reclaim_locked();

  Plugin& plugin_;
  hx_device* device_;
  std::mutex mutex_;
  unsigned char* arena_ = nullptr;  // guarded by mutex_, as everything below
  bool pinned_ = false;
  std::deque<Slice> slices_;  // in flight, oldest first; each after the one before in the ring
};

}  // namespace hxrt::detail
