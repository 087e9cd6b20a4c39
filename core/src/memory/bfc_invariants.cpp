// BfcAllocator::check_invariants: the bookkeeping checked against itself, for tests.
#include <mutex>

#include "memory/address_text.hpp"
#include "memory/bfc_allocator.hpp"

namespace hxrt::detail {

std::string BfcAllocator::check_invariants() const {
  std::lock_guard<SpinLock> lock(mutex_);
  size_t free_chunks = 0;
  size_t linked = 0;
  std::string fault = check_regions(free_chunks, linked);
  if (fault.empty()) fault = chunks_.check(free_chunks, linked);
  if (fault.empty()) fault = check_caches();
  return fault;
}

std::string BfcAllocator::check_caches() const {
  size_t floors = 0;
  for (size_t slot = 0; slot < caches_.size(); ++slot) {
    const ThreadCache* cache = caches_[slot];
    if (cache == nullptr) continue;
    const std::string here = "thread cache " + std::to_string(slot);
    if (cache->sync.slot != static_cast<int32_t>(slot)) return here + ": in the wrong slot";
    floors += cache->sync.floor;
    if (cache->sync.floor > cache->free_bytes()) return here + ": its floor is above its blocks";
    for (int cell = 0; cell < ThreadCache::kCells; ++cell) {
      const ThreadCache::State state = cache->state(cell);
      if (state != ThreadCache::kFree && state != ThreadCache::kOut) continue;
      const ThreadCache::Cell& held = cache->cell(cell);
      const Chunk& c = chunks_[held.chunk];
      if (c.bin != Chunk::kInCache || c.bin_prev != static_cast<int32_t>(slot) ||
          c.bin_next != cell || c.ptr != held.ptr || c.size != held.size) {
        return here + ", cell " + std::to_string(cell) + ": its chunk does not point back";
      }
    }
  }
  if (floors != floor_sum_) return "the sum of the caches' floors is wrong";
  if (bytes_in_use_ - floor_sum_ > peak_bytes_in_use_) {
    return "a thread cache's hits could pass the peak unseen";
  }
  const ThreadCache* own = find_thread_cache(id_);
  return own != nullptr ? own->check() : "";
}

std::string BfcAllocator::check_regions(size_t& free_chunks, size_t& linked) const {
  const auto at = [](int32_t chunk) { return "chunk " + std::to_string(chunk); };
  size_t reserved = 0, in_use = 0, live = 0;
  for (const Region& region : regions_) {
    reserved += region.size;
    const char* expected = region.base;
    int32_t prev = kNone;
    bool prev_free = false;
    for (int32_t chunk = region.first_chunk; chunk != kNone; chunk = chunks_[chunk].next) {
      if (chunk < 0 || static_cast<size_t>(chunk) >= chunks_.record_count() ||
          ++linked > chunks_.record_count()) {
        return "region " + address_text(region.base) + ": a broken or cyclic chunk chain";
      }
      const Chunk& c = chunks_[chunk];
      if (c.bin == Chunk::kUnusedRecord) return at(chunk) + " is an unused record but linked";
      if (c.prev != prev) return at(chunk) + ": prev link broken";
      if (c.ptr != expected) return at(chunk) + ": not where the previous one ends";
      if (c.size == 0 || c.size % kAlignment != 0) return at(chunk) + ": bad size";
      if (static_cast<size_t>(c.ptr + c.size - region.base) > region.size) {
        return at(chunk) + ": runs past the end of its region";
      }
      if (c.pool != pool_of(region.kind)) return at(chunk) + ": in the wrong pool";
      const bool free = c.is_free();
      if (free && prev_free) return at(chunk) + ": free, next to a free chunk (not merged)";
      if (free) {
        ++free_chunks;
        if (c.bin != SizeBins::bin_of(c.size)) return at(chunk) + ": free in the wrong bin";
      } else if (c.is_live()) {
        ++live;
        in_use += c.size;
        if (live_.find(c.ptr) != chunk) return at(chunk) + ": live but not in the address table";
        if (c.bin == Chunk::kInCache) {
          const bool valid = c.bin_prev >= 0 && static_cast<size_t>(c.bin_prev) < caches_.size() &&
                             caches_[c.bin_prev] != nullptr && c.bin_next >= 0 &&
                             c.bin_next < ThreadCache::kCells;
          if (!valid || caches_[c.bin_prev]->cell(c.bin_next).chunk != chunk) {
            return at(chunk) + ": held by a thread cache that does not hold it";
          }
        }
      }
      expected = c.ptr + c.size;
      prev = chunk;
      prev_free = free;
    }
    if (expected != region.base + region.size) {
      return "region " + address_text(region.base) + ": its chunks do not cover it";
    }
  }
  if (reserved != bytes_reserved_) return "bytes_reserved disagrees with the regions";
  if (bytes_in_flight_ != 0 || !releasing_.empty()) {
    return "regions on their way to or from the device with no call under way";
  }
  if (reserved > options_.limit_bytes) return "bytes_reserved passes the limit";
  if (in_use != bytes_in_use_) return "bytes_in_use disagrees with the chunks";
  if (peak_bytes_in_use_ < in_use - cached_bytes()) return "the peak is below what is in use";
  if (live != live_.size()) return "the address table holds chunks that are not live";
  return "";
}

}  // namespace hxrt::detail
