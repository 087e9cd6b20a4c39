#include "memory/bfc_allocator.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

#include "hxrt/error.hpp"
#include "memory/address_text.hpp"
#include "memory/thread_cache_registry.hpp"

namespace hxrt::detail {
namespace {

constexpr size_t kAlignment = BfcAllocator::kAlignment;
constexpr size_t kMaxBytes = BfcAllocator::kMaxBytes;

// A size from the options as a region can have it: a non-zero multiple of kAlignment.
size_t region_size(size_t bytes) {
  return std::clamp(BfcAllocator::round_up(std::min(bytes, kMaxBytes)), kAlignment, kMaxBytes);
}

}  // namespace

BfcAllocator::BfcAllocator(std::string device_name, RawMemory raw, BfcOptions options)
    : id_(new_allocator_id()),
      device_name_(std::move(device_name)),
      raw_(std::move(raw)),
      options_(options),
      buffers_(new std::atomic<void*>[kMaxRegions]()),
      first_region_bytes_(region_size(options.first_region_bytes)),
      max_growth_region_bytes_(region_size(options.max_growth_region_bytes)) {
  if (!options_.preallocate) return;
  if (options_.limit_bytes == SIZE_MAX) {
    throw Error(StatusCode::kInvalidArgument,
                "Cannot preallocate memory on " + device_name_ +
                    ": preallocation takes the memory limit, and the device has none. Set a "
                    "memory limit, or turn preallocation off.");
  }
  const size_t budget = options_.limit_bytes & ~(options_.region_alignment - 1);
  std::string why_not = "the memory limit is below " +
                        std::to_string(options_.region_alignment) + " bytes";
  const size_t largest =
      std::min(options_.max_region_bytes, kMaxBytes) & ~(options_.region_alignment - 1);
  // A budget larger than the device's largest allocation comes in several regions. No
  // other thread knows the allocator yet: the lock is not needed.
  try {
    for (size_t taken = 0; budget == 0 || taken < budget;) {
      const size_t bytes = std::min(budget - taken, largest);
      Growth growth{};
      void* buffer = nullptr;
      chunks_.reserve(1);
      if (bytes != 0 && reserve_growth(bytes, bytes, RegionKind::kBudget, growth, why_not) ==
                            Reserve::kReserved) {
        buffer = take_from_device(growth, bytes, why_not);
      }
      if (buffer == nullptr) {
        throw Error(StatusCode::kOutOfMemory,
                    "Out of memory: preallocating " + format_bytes(budget) + " on " +
                        device_name_ + " failed: " + why_not +
                        ". Lower the device's memory limit, or turn preallocation off.");
      }
      install_region(growth, buffer);
      taken += bytes;
    }
  } catch (...) {
    // No destructor runs for an object whose constructor throws: the regions taken so far
    // go back here, whatever stopped the next one.
    for (const Region& region : regions_) raw_.deallocate(region.buffer, region.size);
    throw;
  }
}

BfcAllocator::~BfcAllocator() {
  {
    // Threads that still hold a cache of this allocator delete it themselves.
    std::lock_guard<std::mutex> registry(thread_cache_registry_mutex());
    for (ThreadCache* cache : caches_) {
      if (cache != nullptr) cache->orphan();
    }
  }
  for (const Region& region : regions_) raw_.deallocate(region.buffer, region.size);
}

void* BfcAllocator::allocate_slow(size_t bytes, ThreadCache* own) {
  const size_t rounded = round_up(bytes);
  if (own == nullptr) own = attach_thread_cache();
  {
    std::lock_guard<SpinLock> lock(mutex_);
    ++locked_calls_;
    if (own != nullptr) {
      synchronise(*own);
      if (void* ptr = take_cached(*own, rounded)) return ptr;
    }
    const int32_t chunk = take_free_chunk(rounded);
    if (chunk != kNone) {
      if (own != nullptr) note_out(*own, chunk);
      settle_peak(own);
      return chunks_[chunk].ptr;
    }
  }
  return allocate_growing(bytes, rounded, own);
}

void* BfcAllocator::allocate_uncached(size_t bytes) {
  if (bytes > kMaxBytes) refuse(bytes);
  const size_t rounded = bytes == 0 ? kAlignment : round_up(bytes);
  {
    std::lock_guard<SpinLock> lock(mutex_);
    ++locked_calls_;
    const int32_t chunk = take_free_chunk(rounded);
    if (chunk != kNone) {
      settle_peak(nullptr);
      return chunks_[chunk].ptr;
    }
  }
  return allocate_growing(bytes, rounded, nullptr);
}

void BfcAllocator::deallocate_slow(void* ptr, ThreadCache* own) {
  {
    std::lock_guard<SpinLock> lock(mutex_);
    ++locked_calls_;
    if (own != nullptr) synchronise(*own);
    // One probe of the address table: a block that stays live goes back in, which cannot
    // allocate.
    const int32_t chunk = live_.erase(ptr);
    if (chunk == PointerTable::kAbsent) throw_not_live(ptr);
    const Chunk& c = chunks_[chunk];
    if (c.bin == Chunk::kInCache || (own != nullptr && ThreadCache::cacheable(c.size))) {
      if (freed_twice(chunk)) {
        live_.insert(ptr, chunk);
        throw_not_live(ptr);
      }
      if (keep_freed(own, chunk)) {
        live_.insert(ptr, chunk);
        return;
      }
    }
    bytes_in_use_ -= c.size;
    release_chunk(chunk);
    if (releasing_.empty()) return;
  }
  // The block emptied its region (release_unused): it goes back to the device unlocked.
  give_back_released();
}

void BfcAllocator::free_chunk(int32_t chunk) {
  live_.erase(chunks_[chunk].ptr);
  bytes_in_use_ -= chunks_[chunk].size;
  release_chunk(chunk);
}

size_t BfcAllocator::release_unused_regions() {
  ThreadCache* own = find_thread_cache(id_);
  size_t released = 0;
  {
    std::lock_guard<SpinLock> lock(mutex_);
    if (own != nullptr) {
      synchronise(*own);
      flush(*own);
    }
    ask_caches_to_flush(own);
    released = release_empty_regions();
  }
  give_back_released();
  return released;
}

AllocatorStats BfcAllocator::stats() const {
  std::lock_guard<SpinLock> lock(mutex_);
  return stats_locked();
}

void BfcAllocator::reset_peak() {
  ThreadCache* own = find_thread_cache(id_);
  std::lock_guard<SpinLock> lock(mutex_);
  if (own != nullptr) synchronise(*own);
  // settle_peak raises it again to exactly what is in use, taking back the caches' room.
  peak_bytes_in_use_ = 0;
  settle_peak(own);
}

uint64_t BfcAllocator::locked_calls() const {
  std::lock_guard<SpinLock> lock(mutex_);
  return locked_calls_;
}

AllocatorStats BfcAllocator::stats_locked() const {
  AllocatorStats stats;
  size_t cached_blocks = 0;
  stats.total_allocations = total_allocations_;
  for (const ThreadCache* cache : caches_) {
    if (cache == nullptr) continue;
    cached_blocks += cache->free_blocks();
    stats.total_allocations += cache->hits();
  }
  stats.bytes_in_use = bytes_in_use_ - cached_bytes();
  // The peak may lag a hit that raced with the call that set it (see the header).
  stats.peak_bytes_in_use = std::max(peak_bytes_in_use_, stats.bytes_in_use);
  stats.bytes_reserved = bytes_reserved_;
  stats.bytes_limit = options_.limit_bytes;
  stats.allocation_count = live_.size() - cached_blocks;
  stats.largest_free_block = chunks_.largest_free_block();
  const size_t free_bytes = bytes_reserved_ - stats.bytes_in_use;
  if (free_bytes > 0) {
    stats.fragmentation =
        1.0 - static_cast<double>(stats.largest_free_block) / static_cast<double>(free_bytes);
  }
  return stats;
}

void BfcAllocator::throw_out_of_memory(size_t bytes, const std::string& why) const {
  throw Error(StatusCode::kOutOfMemory,
              "Out of memory on " + device_name_ + ": cannot allocate " + std::to_string(bytes) +
                  " bytes (" + format_bytes(bytes) + "): " + why + ". Allocator: " +
                  describe(stats_locked()) +
                  ". Free tensors that are no longer needed, or raise the device's memory "
                  "limit.");
}

void BfcAllocator::refuse(size_t bytes) const {
  std::lock_guard<SpinLock> lock(mutex_);
  throw_out_of_memory(bytes, "no device memory is that large");
}

void BfcAllocator::throw_not_live(const void* ptr) const {
  throw Error(StatusCode::kInvalidArgument,
              "Cannot free " + address_text(ptr) + " on " + device_name_ +
                  ": it is not a live allocation of this device's allocator (freed twice, or "
                  "allocated elsewhere).");
}

void* BfcAllocator::allocate_traced(size_t bytes) {
  void* ptr = allocate_untraced(bytes);
  trace_allocation(device_name_, bytes, ptr);
  return ptr;
}

}  // namespace hxrt::detail
