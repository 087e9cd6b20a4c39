// The per-device caching allocator: best-fit with coalescing, after TensorFlow's BFCAllocator.
// Memory comes from the device in regions; a region is cut into chunks (memory/chunk_table.hpp).
// A request takes the smallest free chunk that fits and is cut from its top; a freed chunk
// merges with its free neighbours, so free memory stays in pieces as large as possible.
// Regions are kept for reuse, and given back only on request (or at once with
// `release_unused`), when they are empty.
//
// The hit path (a request served from cached memory, and its free) allocates nothing on the
// heap, and usually touches no list: cutting from the top and merging into the lower
// neighbour change a free chunk's size in place, and the size bins are laid out so that this
// rarely moves it. Live allocations are found by address in an open-addressing table
// (memory/pointer_table.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "memory/allocator_stats.hpp"
#include "memory/chunk_table.hpp"
#include "memory/pointer_table.hpp"
#include "memory/spin_lock.hpp"

namespace hxrt::detail {

// Where regions come from: the device's own allocate/deallocate.
struct RawMemory {
  // Returns `bytes` of device memory aligned to BfcAllocator::kAlignment; throws
  // hxrt::Error(kOutOfMemory) when the device has not that much. Other errors pass through
  // the allocator to its caller.
  std::function<void*(size_t bytes)> allocate;
  // Gives back what allocate returned, with the same size. Must not throw.
  std::function<void(void* ptr, size_t bytes)> deallocate;
};

struct BfcOptions {
  // The size of the first region; each later one is twice the one before, up to
  // max_growth_region_bytes, and at least what the request that needs it asks for.
  size_t first_region_bytes = size_t{2} << 20;
  // Where doubling stops. TensorFlow doubles without end, so its last region can leave half
  // of what it reserved unused; capped, growth reserves at most this much beyond the need.
  // The first region may be larger (to preallocate a budget).
  size_t max_growth_region_bytes = size_t{128} << 20;
  // The most bytes the allocator takes from the device; growth stops there.
  size_t limit_bytes = SIZE_MAX;
  // Give a region back to the device as soon as it is empty (TensorFlow never does).
  bool release_unused = false;
};

class BfcAllocator {
 public:
  // Every size is rounded up to this, and every pointer is aligned to it.
  static constexpr size_t kAlignment = SizeBins::kUnitBytes;

  // `device_name` is how errors name the device. Takes no memory before the first request.
  BfcAllocator(std::string device_name, RawMemory raw, BfcOptions options = {});
  // Gives every region back, live allocations included.
  ~BfcAllocator();
  BfcAllocator(const BfcAllocator&) = delete;
  BfcAllocator& operator=(const BfcAllocator&) = delete;

  // A block of at least `bytes`, aligned to kAlignment. A request of 0 bytes gets its own
  // block of kAlignment bytes, so every pointer returned is distinct and freed the same way.
  // When neither the cached memory nor a new region can serve the request (after giving back
  // empty regions and trying once more), throws Error(kOutOfMemory) naming the device, the
  // request and the statistics; every live allocation stays as it was.
  void* allocate(size_t bytes);
  // Frees a pointer that allocate returned; null is ignored. Throws Error(kInvalidArgument)
  // for a pointer that is not live here (never allocated here, or freed already).
  void deallocate(void* ptr);
  // Gives every empty region back to the device; returns the bytes given back.
  size_t release_unused_regions();
  AllocatorStats stats() const;
  const std::string& device_name() const { return device_name_; }

  // For tests: "" when the bookkeeping is consistent, else the first fault found. Checks
  // that the chunks of each region tile it exactly, that no two free chunks are adjacent,
  // that every free chunk is in the right bin and in no other, in the bins' order, that
  // every live chunk is in the address table, and that the statistics agree with the chunks.
  std::string check_invariants() const;

 private:
  static constexpr int32_t kNone = Chunk::kNone;

  struct Region {
    char* base;
    size_t size;
    // Requests are cut from the top of a free chunk and merges keep the lower record, so the
    // first chunk of a region keeps its record for the region's life.
    int32_t first_chunk;
  };

  // All below run with mutex_ held.
  int32_t grow(size_t bytes, std::string& why_not);
  int32_t add_region(size_t bytes, std::string& why_not);
  size_t release_empty_regions();
  void release_region(size_t region_index);
  AllocatorStats stats_locked() const;
  [[noreturn]] void throw_out_of_memory(size_t bytes, const std::string& why) const;
  std::string check_regions(size_t& free_chunks, size_t& linked) const;

  const std::string device_name_;
  const RawMemory raw_;
  const BfcOptions options_;

  mutable SpinLock mutex_;
  ChunkTable chunks_;
  PointerTable live_;
  std::vector<Region> regions_;
  size_t next_region_bytes_;
  const size_t max_growth_region_bytes_;
  size_t bytes_in_use_ = 0;
  size_t peak_bytes_in_use_ = 0;
  size_t bytes_reserved_ = 0;
  uint64_t total_allocations_ = 0;
};

}  // namespace hxrt::detail
