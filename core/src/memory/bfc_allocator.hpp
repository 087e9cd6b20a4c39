// The per-device caching allocator: best-fit with coalescing, after TensorFlow's BFCAllocator.
// Memory comes from the device in regions; a region is cut into chunks (memory/chunk_table.hpp).
// A request takes the smallest free chunk that fits and is cut from its top; a freed chunk
// merges with its free neighbours, so free memory stays in pieces as large as possible.
// Unlike TensorFlow's, which regions a request may use, how large they grow and when empty
// ones go back before growing follow memory/region_policy.hpp, which keeps what the
// allocator holds within about 1/8 of what is in use on mixed workloads. Regions are
// otherwise kept for reuse, and given back on request (or at once with `release_unused`).
//
// The hit path: requests of up to 64 KiB are served by a cache of the calling thread
// (memory/thread_cache.hpp), without the allocator's lock, without any atomic read-modify-
// write and without the heap; a block freed on the thread that the cache handed it to goes
// back the same way. Everything else takes the lock (a spin lock: one atomic exchange),
// where cutting from the top and merging into the lower neighbour usually change a free
// chunk's size in place without moving it between bins. Live allocations are found by
// address in an open-addressing table (memory/pointer_table.hpp).
//
// Statistics count blocks held in thread caches as free, as the user sees them; the figures
// are exact whenever the threads' calls are ordered (one thread, or threads that synchronise),
// and for calls that race, they are those of some order of the calls, but for the peak, which
// may miss a hit that races with the call setting a new peak. With `release_unused` there
// are no thread caches: memory goes back as soon as it can.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "memory/allocator_stats.hpp"
#include "memory/chunk_table.hpp"
#include "memory/pointer_table.hpp"
#include "memory/spin_lock.hpp"
#include "memory/thread_cache.hpp"

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
  // The size of the first growth region (the regions that small requests share); each later
  // one is a quarter of what growth regions hold, at least this, at most
  // max_growth_region_bytes, and at least what the request that needs it asks for.
  size_t first_region_bytes = size_t{2} << 20;
  // The most a later growth region takes at once. The first region may be larger.
  size_t max_growth_region_bytes = size_t{128} << 20;
  // The most bytes the allocator takes from the device; growth stops there.
  size_t limit_bytes = SIZE_MAX;
  // Give a region back to the device as soon as it is empty (TensorFlow never does), and
  // keep no thread caches.
  bool release_unused = false;
  // Take limit_bytes (which must be finite) as one region at construction and never grow:
  // the constructor throws Error(kOutOfMemory) naming the device when it cannot. That region
  // is the budget the user asked to hold, so it is never given back, not even by
  // release_unused_regions or with release_unused.
  bool preallocate = false;
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
  // empty regions, and the calling thread's cache, and trying once more), throws
  // Error(kOutOfMemory) naming the device, the request and the statistics; every live
  // allocation stays as it was. Other threads' caches are asked to give their blocks back at
  // their next call; until then they hold at most ThreadCache::kMaxFreeBytes each.
  void* allocate(size_t bytes);
  // Frees a pointer that allocate returned, on any thread; null is ignored. Throws
  // Error(kInvalidArgument) for a pointer that is not live here (never allocated here, or
  // freed already).
  void deallocate(void* ptr);
  // Gives the calling thread's cached blocks back, asks the other threads' caches to follow,
  // then gives every empty region back to the device; returns the bytes given back.
  size_t release_unused_regions();
  AllocatorStats stats() const;
  // Starts peak_bytes_in_use again from bytes_in_use.
  void reset_peak();
  const std::string& device_name() const { return device_name_; }

  // For tests: "" when the bookkeeping is consistent, else the first fault found. Checks
  // that the chunks of each region tile it exactly, that no two free chunks are adjacent,
  // that every free chunk is in the right bin and in no other, in the bins' order, that
  // every live chunk is in the address table, that chunks and thread caches agree on which
  // blocks the caches hold, the calling thread's cache in full, and that the statistics
  // agree with the chunks. Call it while no other thread uses the allocator.
  std::string check_invariants() const;
  // For tests: how many calls took the allocator's lock. A hit in the calling thread's cache
  // (an allocation, or the free of a block the cache handed out) takes none.
  uint64_t locked_calls() const;

  // For memory/thread_cache_registry.cpp, with the registry's mutex held: the thread that
  // owns `cache` exits; its blocks come back and the allocator forgets it.
  void detach_thread_cache(ThreadCache& cache) noexcept;

 private:
  static constexpr int32_t kNone = Chunk::kNone;

  // Growth regions serve small requests; a fitted region was sized for one large request;
  // the budget is the one region of a preallocating allocator (memory/region_policy.hpp).
  enum class RegionKind : uint8_t { kGrowth, kFitted, kBudget };
  // The chunk table's pool of each kind: small requests search one, large ones the other.
  static constexpr int kGrowthPool = 0;
  static constexpr int kFittedPool = 1;
  static int pool_of(RegionKind kind) { return kind == RegionKind::kFitted ? kFittedPool : kGrowthPool; }

  struct Region {
    char* base;
    size_t size;
    // Requests are cut from the top of a free chunk and merges keep the lower record, so the
    // first chunk of a region keeps its record for the region's life.
    int32_t first_chunk;
    RegionKind kind;
  };

  void* allocate_slow(size_t bytes);
  void deallocate_slow(void* ptr);
  // The calling thread's cache, created and registered when it has none; null without
  // caching. Takes the registry's mutex, then mutex_: call it without mutex_.
  ThreadCache* attach_thread_cache();

  // All below run with mutex_ held.
  int32_t grow_or_reclaim(size_t bytes, size_t rounded, ThreadCache* own);
  void free_chunk(int32_t chunk);
  [[noreturn]] void throw_not_live(const void* ptr) const;
  // Thread caches (bfc_thread_caches.cpp); `own` is the calling thread's cache.
  void synchronise(ThreadCache& own);
  void* take_cached(ThreadCache& own, size_t rounded);
  void note_out(ThreadCache& own, int32_t chunk);
  bool keep_freed(ThreadCache* own, int32_t chunk);
  int16_t free_cell(ThreadCache& own);
  void flush(ThreadCache& own);
  void ask_caches_to_flush(ThreadCache* own);
  void settle_peak(ThreadCache* own);
  void set_floor(ThreadCache& cache, size_t floor);
  void bump_epoch();
  size_t cached_bytes() const;
  std::string check_caches() const;
  // Regions (bfc_regions.cpp).
  int32_t find_chunk(size_t bytes);
  int32_t find_any_chunk(size_t bytes) const;
  int32_t grow(size_t bytes, std::string& why_not);
  int32_t add_region(size_t region_bytes, size_t bytes, RegionKind kind, std::string& why_not);
  void release_chunk(int32_t chunk);
  bool is_empty(const Region& region) const;
  size_t growth_bytes_reserved() const;
  size_t release_empty_regions();
  void release_empty_regions_under_pressure(size_t region_bytes, size_t bytes);
  void release_region(size_t region_index);
  AllocatorStats stats_locked() const;
  [[noreturn]] void throw_out_of_memory(size_t bytes, const std::string& why) const;
  std::string check_regions(size_t& free_chunks, size_t& linked) const;

  // Read on every hit and written rarely: a cache line of their own, away from the lock.
  // The hit path of a thread cache whose last synchronisation saw another epoch is closed
  // until it synchronises again: bumped to make the caches give their blocks back, and to
  // take back the room they had under the peak (see settle_peak).
  alignas(64) const uint64_t id_;
  std::atomic<uint64_t> epoch_{1};

  alignas(64) mutable SpinLock mutex_;
  const std::string device_name_;
  const RawMemory raw_;
  const BfcOptions options_;
  ChunkTable chunks_;
  PointerTable live_;
  std::vector<Region> regions_;
  const size_t first_region_bytes_;
  const size_t max_growth_region_bytes_;
  // Live chunks, thread caches' blocks included; what the user sees in use is this less
  // cached_bytes().
  size_t bytes_in_use_ = 0;
  size_t peak_bytes_in_use_ = 0;  // of what the user sees
  size_t bytes_reserved_ = 0;
  uint64_t total_allocations_ = 0;  // but for the thread caches' hits
  uint64_t locked_calls_ = 0;
  std::vector<ThreadCache*> caches_;  // registered, by ThreadCache::Sync::slot; null: free slot
  size_t floor_sum_ = 0;              // of the caches' floors
  uint64_t flush_generation_ = 0;     // a cache that saw an older one gives its blocks back
};

}  // namespace hxrt::detail
