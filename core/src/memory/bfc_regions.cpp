// BfcAllocator: where memory comes from and where it goes back, by the region policy
// (memory/region_policy.hpp): growing, and giving back empty regions.
#include <algorithm>
#include <mutex>
#include <thread>

#include "hxrt/error.hpp"
#include "memory/bfc_allocator.hpp"
#include "memory/region_policy.hpp"

namespace hxrt::detail {

namespace policy = region_policy;

// Growth refused: the request's own pool first, then the other.
int32_t BfcAllocator::find_any_chunk(size_t bytes) const {
  const int own = policy::is_large(bytes) ? kFittedPool : kGrowthPool;
  const int32_t chunk = chunks_.best_fit(bytes, own);
  return chunk != kNone ? chunk : chunks_.best_fit(bytes, 1 - own);
}

void* BfcAllocator::allocate_growing(size_t bytes, size_t rounded, ThreadCache* own) {
  // The calling thread's cache, to reclaim its blocks: own, or found for a large request.
  ThreadCache* reclaimable = own;
  std::string why_not;
  bool caches_flushed = false;
  for (;;) {
    std::unique_lock<SpinLock> lock(mutex_);
    // Another thread may have grown or freed since the caller looked.
    int32_t chunk = take_free_chunk(rounded);
    if (chunk == kNone) {
      Growth growth{};
      const GrowthStep step = plan_growth(rounded, growth, why_not);
      if (step == GrowthStep::kGiveBack || step == GrowthStep::kWait) {
        lock.unlock();
        give_back_released();
        if (step == GrowthStep::kWait) std::this_thread::yield();
        continue;
      }
      int32_t free = kNone;
      if (step == GrowthStep::kGrow) {
        lock.unlock();
        void* buffer = nullptr;
        try {
          buffer = take_from_device(growth, rounded, why_not);
        } catch (...) {
          lock.lock();
          cancel_growth(growth);
          throw;
        }
        lock.lock();
        if (buffer == nullptr) {
          cancel_growth(growth);
          // The device may lack only what empty regions hold.
          if (release_empty_regions() > 0) {
            lock.unlock();
            give_back_released();
            continue;
          }
        } else {
          try {
            chunks_.reserve(2);  // the region's record and the cut
            live_.reserve_one_more();
          } catch (...) {
            releasing_.push_back(Region{nullptr, buffer, growth.slot, growth.bytes, kNone,
                                        growth.kind});
            bytes_in_flight_ -= growth.reserved - growth.bytes;
            lock.unlock();
            give_back_released();
            throw;
          }
          free = install_region(growth, buffer);
        }
      }
      // Growth is refused: any free chunk that fits will do.
      if (free == kNone) free = find_any_chunk(rounded);
      if (free == kNone) {
        // Blocks in thread caches are free memory to the user. This thread's come back now
        // (its cache, if a large request came without it); the other threads' at their next
        // call, which is as far as their lock-free hit paths can be reached.
        if (caches_flushed) throw_out_of_memory(bytes, why_not);
        if (reclaimable == nullptr) reclaimable = find_thread_cache(id_);
        ask_caches_to_flush(reclaimable);
        if (reclaimable == nullptr || reclaimable->free_blocks() == 0) {
          throw_out_of_memory(bytes, why_not);
        }
        flush(*reclaimable);
        caches_flushed = true;
        continue;
      }
      chunks_.reserve(1);
      live_.reserve_one_more();
      chunk = take(free, rounded);
    }
    if (own != nullptr) note_out(*own, chunk);
    settle_peak(own);
    return chunks_[chunk].ptr;
  }
}

BfcAllocator::GrowthStep BfcAllocator::plan_growth(size_t bytes, Growth& growth,
                                                   std::string& why_not) {
  const bool large = policy::is_large(bytes);
  const RegionKind kind = large ? RegionKind::kFitted : RegionKind::kGrowth;
  const size_t region_bytes =
      large ? policy::fitted_region_bytes(bytes)
            : policy::growth_region_bytes(growth_bytes_reserved(), first_region_bytes_,
                                          max_growth_region_bytes_, bytes);
  if (release_empty_regions_under_pressure(region_bytes, bytes)) return GrowthStep::kGiveBack;
  const Reserve reserve = reserve_growth(region_bytes, bytes, kind, growth, why_not);
  if (reserve == Reserve::kReserved) return GrowthStep::kGrow;
  if (reserve == Reserve::kTooLarge) return GrowthStep::kRefused;
  // What other threads are taking or giving back may be what the limit lacks: the limit
  // refuses only what it would refuse with their calls done.
  if (bytes_in_flight_ > 0) return GrowthStep::kWait;
  return release_empty_regions() > 0 ? GrowthStep::kGiveBack : GrowthStep::kRefused;
}

namespace {

// Room for `count` elements, grown geometrically: called once per new region slot.
template <typename T>
void reserve_room(std::vector<T>& list, size_t count) {
  if (list.capacity() < count) list.reserve(std::max(count, list.capacity() * 2));
}

}  // namespace

BfcAllocator::Reserve BfcAllocator::reserve_growth(size_t region_bytes, size_t bytes,
                                                   RegionKind kind, Growth& growth,
                                                   std::string& why_not) {
  const size_t alignment = options_.region_alignment;
  // Regions on their way to or from the device hold device memory too.
  const size_t available =
      (options_.limit_bytes - bytes_reserved_ - bytes_in_flight_) & ~(alignment - 1);
  const size_t largest = std::min(options_.max_region_bytes, kMaxBytes) & ~(alignment - 1);
  // The device's largest allocation first: a request past it fails under any limit.
  if (bytes > largest) {
    why_not = "the device's largest single allocation is " + format_bytes(largest) +
              " (max_allocation), and one tensor must fit in one";
    return Reserve::kTooLarge;
  }
  if (bytes > available) {
    why_not = "a new region would pass the memory limit";
    return Reserve::kPastLimit;
  }
  uint32_t slot = slots_used_;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else if (slots_used_ == kMaxRegions) {
    why_not = "the allocator holds " + std::to_string(kMaxRegions) + " regions, the most it keeps";
    return Reserve::kNoSlot;
  } else {
    // Every list of regions or slots gets room for the new slot now, so that nothing later
    // allocates: not installing, releasing, nor giving back.
    const size_t slots = size_t{slots_used_} + 1;
    reserve_room(regions_, slots);
    reserve_room(releasing_, slots);
    reserve_room(free_slots_, slots);
    ++slots_used_;
  }
  // A fitted region rounds its request up to a granule, which may pass kMaxBytes; every
  // region's size is a multiple of the alignment.
  region_bytes = std::min({region_bytes, available, largest}) & ~(alignment - 1);
  bytes_in_flight_ += region_bytes;
  growth = Growth{region_bytes, region_bytes, slot, kind};
  return Reserve::kReserved;
}

void BfcAllocator::cancel_growth(const Growth& growth) {
  bytes_in_flight_ -= growth.reserved;
  free_slots_.push_back(growth.slot);  // room made with the slot
}

void* BfcAllocator::take_from_device(Growth& growth, size_t bytes, std::string& why_not) {
  for (;;) {
    try {
      void* buffer = raw_.allocate(growth.bytes);
      if (buffer != nullptr) return buffer;
      why_not = "the device returned no buffer for a region of " + format_bytes(growth.bytes);
    } catch (const Error& error) {
      if (error.code() != StatusCode::kOutOfMemory) throw;
      why_not = "the device could not supply a region of " + format_bytes(growth.bytes) +
                " (" + error.what() + ")";
    }
    // The larger size may be what the device lacks; the request alone may still fit.
    if (growth.bytes == bytes) return nullptr;
    growth.bytes = bytes;
  }
}

int32_t BfcAllocator::install_region(const Growth& growth, void* buffer) {
  buffers_[growth.slot].store(buffer, std::memory_order_release);
  char* base = reinterpret_cast<char*>((uintptr_t{growth.slot} + 1) << kRegionBits);
  const int32_t chunk = chunks_.add_region(base, growth.bytes, pool_of(growth.kind));
  regions_.push_back(Region{base, buffer, growth.slot, growth.bytes, chunk, growth.kind});
  bytes_in_flight_ -= growth.reserved;
  bytes_reserved_ += growth.bytes;
  return chunk;
}

void BfcAllocator::give_back_released() {
  std::unique_lock<SpinLock> lock(mutex_);
  while (!releasing_.empty()) {
    const Region region = releasing_.back();
    releasing_.pop_back();
    lock.unlock();
    raw_.deallocate(region.buffer, region.size);
    lock.lock();
    // Only now may the slot carry another buffer, and the limit count the bytes as free.
    bytes_in_flight_ -= region.size;
    free_slots_.push_back(region.slot);
  }
}

void BfcAllocator::release_if_empty(int32_t chunk) {
  if (chunks_[chunk].prev != kNone || chunks_[chunk].next != kNone) return;
  for (size_t i = 0; i < regions_.size(); ++i) {
    if (regions_[i].first_chunk == chunk) {
      if (regions_[i].kind != RegionKind::kBudget) release_region(i);
      return;
    }
  }
}

size_t BfcAllocator::growth_bytes_reserved() const {
  size_t bytes = 0;
  for (const Region& region : regions_) {
    if (region.kind == RegionKind::kGrowth) bytes += region.size;
  }
  return bytes;
}

bool BfcAllocator::is_empty(const Region& region) const {
  const Chunk& first = chunks_[region.first_chunk];
  return first.is_free() && first.size == region.size;
}

size_t BfcAllocator::release_empty_regions() {
  size_t released = 0;
  for (size_t i = regions_.size(); i-- > 0;) {
    // The budget stays: it is what the user asked the allocator to hold.
    if (regions_[i].kind != RegionKind::kBudget && is_empty(regions_[i])) {
      released += regions_[i].size;
      release_region(i);
    }
  }
  return released;
}

bool BfcAllocator::release_empty_regions_under_pressure(size_t region_bytes, size_t bytes) {
  bool released = false;
  while (policy::under_pressure(bytes_reserved_ + region_bytes, bytes_in_use_ + bytes)) {
    // The largest empty region first: the most memory for one call to the device.
    size_t largest = regions_.size();
    for (size_t i = 0; i < regions_.size(); ++i) {
      if (regions_[i].kind != RegionKind::kBudget && is_empty(regions_[i]) &&
          (largest == regions_.size() || regions_[i].size > regions_[largest].size)) {
        largest = i;
      }
    }
    if (largest == regions_.size()) break;
    release_region(largest);
    released = true;
  }
  return released;
}

void BfcAllocator::release_region(size_t region_index) {
  const Region region = regions_[region_index];
  chunks_.remove_region(region.first_chunk);
  regions_[region_index] = regions_.back();
  regions_.pop_back();
  bytes_reserved_ -= region.size;
  bytes_in_flight_ += region.size;
  buffers_[region.slot].store(nullptr, std::memory_order_relaxed);
  releasing_.push_back(region);  // room made with its slot
}

}  // namespace hxrt::detail
