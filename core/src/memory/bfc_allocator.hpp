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
// No plugin call runs under the lock (DESIGN.md): a thread that grows reserves the region's
// bytes and slot under the lock, takes the buffer from the device without it, and installs
// the region under it again; empty regions leave the pools under the lock and go back to the
// device after it, their slots free again only once the device has them. Bytes on the way to
// or from the device count toward the limit, so it holds exactly; a request the limit
// refuses while other threads have bytes on the way waits for them rather than fail.
//
// Statistics count blocks held in thread caches as free, as the user sees them; the figures
// are exact whenever the threads' calls are ordered (one thread, or threads that synchronise),
// and for calls that race, they are those of some order of the calls, but for the peak, which
// may miss a hit that races with the call setting a new peak.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "memory/allocator_stats.hpp"
#include "memory/chunk_table.hpp"
#include "memory/pointer_table.hpp"
#include "memory/region_policy.hpp"
#include "memory/spin_lock.hpp"
#include "memory/thread_cache.hpp"
#include "memory/thread_cache_slots.hpp"
#include "trace/trace_memory.hpp"

namespace hxrt::detail {

// Where regions come from: the device's own allocate/deallocate. A region is a buffer whose
// handle the allocator never looks into (plugin_api.h, Memory): it places blocks in a space
// of addresses of its own, one range per region, and locate() says which buffer and offset a
// block is.
struct RawMemory {
  // Returns the handle of a buffer of `bytes` (never null); throws hxrt::Error(kOutOfMemory)
  // when the device has not that much. Other errors pass through the allocator to its caller.
  std::function<void*(size_t bytes)> allocate;
  // Gives back a buffer allocate returned, with the same size. Must not throw.
  std::function<void(void* buffer, size_t bytes)> deallocate;
};

// Where a block lies: its region's buffer handle and the byte offset in it.
struct BufferLocation {
  void* buffer;
  uint64_t offset;
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
  // Serve requests of up to ThreadCache::kMaxBlockBytes from a cache of the calling thread,
  // without the lock (memory/thread_cache.hpp). Off, every call takes the lock and every
  // freed block goes straight back to the bins, as tests of the best-fit policy want.
  bool thread_caches = true;
  // The most one region may hold: the device's largest single allocation. A larger request
  // is out of memory naming it; preallocation takes the budget in several regions.
  size_t max_region_bytes = SIZE_MAX;
  // Every region's size is a multiple of this (a power of two, at least kAlignment), so a
  // request whose size is a multiple of it lies at an offset that is one too.
  size_t region_alignment = 256;
  // Take limit_bytes (which must be finite) at construction and never grow:
  // the constructor throws Error(kOutOfMemory) naming the device when it cannot. That region
  // is the budget the user asked to hold, so it is never given back, not even by
  // release_unused_regions or with release_unused.
  bool preallocate = false;
};

class BfcAllocator {
 public:
  // Every size is rounded up to this, and every offset is a multiple of it.
  static constexpr size_t kAlignment = SizeBins::kUnitBytes;
  // `bytes` up to a multiple of kAlignment; 0 within kAlignment of SIZE_MAX.
  static size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) & ~(kAlignment - 1); }
  // The allocator's own addresses: region slot s covers [(s + 1) << kRegionBits, ...), so a
  // block's region and offset are a shift and a mask away, and no two regions ever touch.
  static constexpr int kRegionBits = 48;
  static constexpr uint32_t kMaxRegions = 16383;  // (kMaxRegions + 1) << kRegionBits < 2^63
  // The largest request, and the largest region: 256 TiB less kAlignment, far beyond any
  // device. A larger request is out of memory at once, before any arithmetic on it.
  static constexpr size_t kMaxBytes = (size_t{1} << kRegionBits) - kAlignment;

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
  void* allocate(size_t bytes) {
    // Tested first, so that the untraced path keeps its tail calls.
    if (tracing()) return allocate_traced(bytes);
    return allocate_untraced(bytes);
  }
  // allocate's lock-free hit alone: a block for `bytes` from the calling thread's cache, or
  // null, and then allocate decides. Inline, so that the eager path's outputs cost no call.
  // Null while the timeline trace runs, which records every allocation.
  void* allocate_cached(size_t bytes) {
    return tracing() ? nullptr : cache_hit(bytes, find_thread_cache(id_));
  }
  // Frees a pointer that allocate returned, on any thread; null is ignored. Throws
  // Error(kInvalidArgument) for a pointer that is not live here (never allocated here, or
  // freed already).
  void deallocate(void* ptr) {
    if (ptr == nullptr) return;
    if (tracing()) trace_free(device_name_, ptr);
    ThreadCache* cache = find_thread_cache(id_);
    if (cache != nullptr && cache->try_free(ptr, epoch_.load(std::memory_order_relaxed))) return;
    deallocate_slow(ptr, cache);
  }
  // The buffer and offset of a block allocate returned and that is still live. Lock-free: a
  // live block's region stays.
  BufferLocation locate(const void* block) const {
    const auto address = reinterpret_cast<uintptr_t>(block);
    return {buffers_[(address >> kRegionBits) - 1].load(std::memory_order_acquire),
            address & ((uint64_t{1} << kRegionBits) - 1)};
  }
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
  // allocate, recorded in the timeline trace.
  void* allocate_traced(size_t bytes);
  // What allocate does, unrecorded.
  void* allocate_untraced(size_t bytes) {
    ThreadCache* cache = find_thread_cache(id_);
    if (void* ptr = cache_hit(bytes, cache)) return ptr;
    return cacheable(bytes) ? allocate_slow(bytes, cache) : allocate_uncached(bytes);
  }
  // Whether a request goes through the thread caches: 1 to ThreadCache::kMaxBlockBytes bytes
  // once rounded (a request of 0, or within kAlignment of SIZE_MAX, rounds to 0 and wraps).
  static bool cacheable(size_t bytes) { return round_up(bytes) - 1 < ThreadCache::kMaxBlockBytes; }
  // A free block for `bytes` out of `cache` (the calling thread's, or null), or null.
  void* cache_hit(size_t bytes, ThreadCache* cache) {
    if (cache == nullptr || !cacheable(bytes)) return nullptr;
    return cache->try_allocate(round_up(bytes), epoch_.load(std::memory_order_relaxed));
  }

  static constexpr int32_t kNone = Chunk::kNone;

  // Growth regions serve small requests; a fitted region was sized for one large request;
  // the budget is the one region of a preallocating allocator (memory/region_policy.hpp).
  enum class RegionKind : uint8_t { kGrowth, kFitted, kBudget };
  // The chunk table's pool of each kind: small requests search one, large ones the other.
  static constexpr int kGrowthPool = 0;
  static constexpr int kFittedPool = 1;
  static int pool_of(RegionKind kind) {
    return kind == RegionKind::kFitted ? kFittedPool : kGrowthPool;
  }

  struct Region {
    char* base;    // in the allocator's own addresses, never dereferenced
    void* buffer;  // the device's handle
    uint32_t slot;
    size_t size;
    // Requests are cut from the top of a free chunk and merges keep the lower record, so the
    // first chunk of a region keeps its record for the region's life.
    int32_t first_chunk;
    RegionKind kind;
  };

  // The inline hit path's ways out, called from outside libhxrt too; `own` is the calling
  // thread's cache, or null when it has none yet. allocate_slow takes cacheable requests
  // (1 to ThreadCache::kMaxBlockBytes bytes), allocate_uncached the others.
  void* allocate_slow(size_t bytes, ThreadCache* own);
  void* allocate_uncached(size_t bytes);
  void deallocate_slow(void* ptr, ThreadCache* own);

  // The rest is called from libhxrt alone.

  // The calling thread's cache, which its table of slots does not hold: found in its list,
  // or created and registered; null without caching or while the thread exits. Takes the
  // registry's mutex, then mutex_: call it without mutex_.
  ThreadCache* attach_thread_cache();
  // A request larger than any device: refused, with the statistics. Takes mutex_.
  [[noreturn]] void refuse(size_t bytes) const;
  // The locked search found no free chunk: grows, gives empty regions back or reclaims the
  // thread caches' blocks, each device call without mutex_ (bfc_regions.cpp). Returns the
  // block; throws Error(kOutOfMemory) when nothing serves the request.
  void* allocate_growing(size_t bytes, size_t rounded, ThreadCache* own);
  // Gives the regions in releasing_ to the device, one at a time, each without mutex_; their
  // slots and bytes are free again after. Call it without mutex_.
  void give_back_released();

  // All below run with mutex_ held. The common cases of the locked paths are inline: a call
  // and its saved registers cost more than they do.
  void synchronise(ThreadCache& own) {
    if (own.sync.epoch != epoch_.load(std::memory_order_relaxed) ||
        own.sync.gone_seen != own.gone_count() || own.needs_emptying()) {
      synchronise_slow(own);
    }
  }
  int32_t find_chunk(size_t bytes) {
    if (!region_policy::is_large(bytes)) return chunks_.best_fit(bytes, kGrowthPool);
    // A large request takes only a close fit while it can grow (memory/region_policy.hpp).
    const int32_t chunk = chunks_.best_fit(bytes, kFittedPool);
    return chunk != kNone && chunks_[chunk].size <= region_policy::close_fit_limit(bytes) ? chunk
                                                                                        : kNone;
  }
  void settle_peak(ThreadCache* own) {
    if (own != nullptr || bytes_in_use_ - floor_sum_ > peak_bytes_in_use_) settle_peak_slow(own);
  }
  void release_chunk(int32_t chunk) {
    const int32_t merged = chunks_.release(chunk);
    if (options_.release_unused) release_if_empty(merged);
  }

  // A free chunk of `rounded` bytes, made live; kNone when the pools have none that fits.
  int32_t take_free_chunk(size_t rounded) {
    // What may allocate on the host comes first, so that a failure leaves the bookkeeping as
    // it was: a record for the cut, a slot for the address.
    chunks_.reserve(1);
    live_.reserve_one_more();
    const int32_t chunk = find_chunk(rounded);
    return chunk == kNone ? kNone : take(chunk, rounded);
  }
  // Makes `chunk`, free, a live block of `rounded` bytes (room reserved by the caller).
  int32_t take(int32_t chunk, size_t rounded) {
    chunk = chunks_.take(chunk, rounded);
    live_.insert(chunks_[chunk].ptr, chunk);
    bytes_in_use_ += rounded;
    ++total_allocations_;
    return chunk;
  }
  void free_chunk(int32_t chunk);
  [[noreturn]] void throw_not_live(const void* ptr) const;
  AllocatorStats stats_locked() const;
  [[noreturn]] void throw_out_of_memory(size_t bytes, const std::string& why) const;

  // Thread caches (bfc_thread_caches.cpp); `own` is the calling thread's cache.
  void synchronise_slow(ThreadCache& own);
  void* take_cached(ThreadCache& own, size_t rounded);
  void note_out(ThreadCache& own, int32_t chunk);
  bool freed_twice(int32_t chunk) const;
  bool keep_freed(ThreadCache* own, int32_t chunk);
  bool make_room_to_hold(ThreadCache& own);
  void flush(ThreadCache& own);
  void ask_caches_to_flush(ThreadCache* own);
  void settle_peak_slow(ThreadCache* own);
  void set_floor(ThreadCache& cache, size_t floor);
  void bump_epoch();
  size_t cached_bytes() const;

  // Regions (bfc_regions.cpp). A growth is a region on its way from the device: its size
  // (and bytes_in_flight_) and slot are reserved under mutex_ before the device is asked.
  struct Growth {
    size_t reserved;  // counted in bytes_in_flight_
    size_t bytes;     // asked of the device: reserved, or the request alone if it lacks that
    uint32_t slot;
    RegionKind kind;
  };
  // What allocate_growing does next, as plan_growth sees it under mutex_.
  enum class GrowthStep : uint8_t {
    kGrow,      // a growth is reserved: ask the device
    kGiveBack,  // empty regions left the pools: give them back, then look again
    kWait,      // the limit (or the slots) refuse while other threads have regions on the
                // way: let them arrive or leave, then look again
    kRefused,   // no new region: why_not says why
  };
  enum class Reserve : uint8_t { kReserved, kTooLarge, kPastLimit, kNoSlot };
  int32_t find_any_chunk(size_t bytes) const;
  GrowthStep plan_growth(size_t bytes, Growth& growth, std::string& why_not);
  Reserve reserve_growth(size_t region_bytes, size_t bytes, RegionKind kind, Growth& growth,
                         std::string& why_not);
  void cancel_growth(const Growth& growth);
  // Without mutex_: a buffer of growth.bytes, or failing that of `bytes` (growth.bytes then
  // shrinks to it); null, with why_not, when the device has neither. Errors other than out
  // of memory pass.
  void* take_from_device(Growth& growth, size_t bytes, std::string& why_not);
  // With mutex_: the growth's buffer becomes a region; returns its one free chunk.
  int32_t install_region(const Growth& growth, void* buffer);
  void release_if_empty(int32_t chunk);
  bool is_empty(const Region& region) const;
  size_t growth_bytes_reserved() const;
  size_t release_empty_regions();
  bool release_empty_regions_under_pressure(size_t region_bytes, size_t bytes);
  // Takes the region out of the pools and into releasing_, for give_back_released.
  void release_region(size_t region_index);

  // check_invariants (bfc_invariants.cpp).
  std::string check_regions(size_t& free_chunks, size_t& linked) const;
  std::string check_caches() const;

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
  std::vector<Region> regions_;  // installed: in the pools
  // Out of the pools, on their way back to the device. Room for every slot made, so that
  // releasing a region never allocates.
  std::vector<Region> releasing_;
  // The buffer of each region slot, for locate(); a slot is reused once its region's buffer
  // is back with the device. Room for every slot made, as in releasing_.
  std::unique_ptr<std::atomic<void*>[]> buffers_;
  std::vector<uint32_t> free_slots_;
  uint32_t slots_used_ = 0;
  // Of regions on the way from the device (growths) or back to it (releasing_ and those
  // being given back): held by no pool, but counted toward the limit.
  size_t bytes_in_flight_ = 0;
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
