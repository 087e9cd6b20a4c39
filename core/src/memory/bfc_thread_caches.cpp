// BfcAllocator's side of its thread caches (memory/thread_cache.hpp): registering them,
// keeping them in step with the allocator, taking their blocks back, and the peak.
//
// The peak. A hit hands a block out without the lock, so no locked code sees the rise in
// use that it makes. Each cache has a floor instead: its hit path keeps its free bytes at or
// above it, so that hits can raise what is in use by at most what the cache holds above its
// floor, its room. The allocator keeps, with its lock held,
//     bytes_in_use_ - floor_sum_ <= peak_bytes_in_use_,
// what would be in use if every cache fell to its floor, at most the peak: then no hit can
// make a new peak unseen. A locked call that would break this counts what is in use exactly
// (from the caches' counters), records a new peak if there is one, and takes the other
// caches' room back: their floors rise to what they hold, and the epoch moves, which closes
// their hit paths until they synchronise and get new floors. A cache's room is what the
// peak leaves: on one thread, every block freed into the cache since the peak.
#include <algorithm>
#include <mutex>

#include "memory/bfc_allocator.hpp"
#include "memory/thread_cache_registry.hpp"

namespace hxrt::detail {
namespace {

size_t minus_or_zero(size_t a, size_t b) { return a > b ? a - b : 0; }

}  // namespace

ThreadCache* BfcAllocator::attach_thread_cache() {
  if (!options_.thread_caches || options_.release_unused) return nullptr;
  std::lock_guard<std::mutex> registry(thread_cache_registry_mutex());
  {
    // So that registering below cannot fail half-way.
    std::lock_guard<SpinLock> lock(mutex_);
    caches_.reserve(caches_.size() + 1);
  }
  ThreadCache* cache = find_or_create_thread_cache(id_, *this);
  if (cache == nullptr || cache->sync.slot >= 0) return cache;
  std::lock_guard<SpinLock> lock(mutex_);
  const auto free_slot = std::find(caches_.begin(), caches_.end(), nullptr);
  const auto slot = static_cast<size_t>(free_slot - caches_.begin());
  if (free_slot == caches_.end()) caches_.push_back(nullptr);
  caches_[slot] = cache;
  cache->sync.slot = static_cast<int32_t>(slot);
  cache->sync.epoch = epoch_.load(std::memory_order_relaxed);
  cache->sync.flush_generation = flush_generation_;
  return cache;
}

void BfcAllocator::detach_thread_cache(ThreadCache& cache) noexcept {
  std::lock_guard<SpinLock> lock(mutex_);
  if (cache.sync.slot < 0) return;
  flush(cache);
  total_allocations_ += cache.hits();
  caches_[cache.sync.slot] = nullptr;
  cache.sync.slot = -1;
}

void BfcAllocator::synchronise_slow(ThreadCache& own) {
  ThreadCache::Sync& sync = own.sync;
  if (sync.gone_seen != own.gone_count()) {
    for (int cell = 0; cell < ThreadCache::kCells; ++cell) {
      if (own.state(cell) == ThreadCache::kGone) own.let_go(cell);
    }
    sync.gone_seen = own.gone_count();
  }
  // After the tombstones that letting go made: between two synchronisations a call adds at
  // most two more, so the table always keeps empty cells, which end every probe.
  if (sync.flush_generation != flush_generation_ || own.needs_emptying()) flush(own);
  settle_peak(&own);
}

void* BfcAllocator::take_cached(ThreadCache& own, size_t rounded) {
  const int cell = own.pop_any(rounded);
  if (cell == ThreadCache::kNoCell) return nullptr;
  // The hit path refused it for want of room: this call raises use, and may set a peak.
  if (own.free_bytes() < own.sync.floor) set_floor(own, own.free_bytes());
  ++total_allocations_;
  settle_peak(&own);
  return own.cell(cell).ptr;
}

void BfcAllocator::note_out(ThreadCache& own, int32_t chunk) {
  if (!make_room_to_hold(own)) return;
  const int cell = own.hold(chunks_[chunk].ptr, chunks_[chunk].size, chunk, ThreadCache::kOut);
  chunks_.mark_cached(chunk, own.sync.slot, cell);
}

bool BfcAllocator::freed_twice(int32_t chunk) const {
  const Chunk& c = chunks_[chunk];
  return c.bin == Chunk::kInCache && caches_[c.bin_prev]->state(c.bin_next) != ThreadCache::kOut;
}

bool BfcAllocator::keep_freed(ThreadCache* own, int32_t chunk) {
  const Chunk& c = chunks_[chunk];
  if (c.bin == Chunk::kInCache) {
    ThreadCache& holder = *caches_[c.bin_prev];
    const int cell = c.bin_next;
    if (&holder == own && own->has_room_for(c.size)) {
      own->push(cell);
      return true;
    }
    if (&holder == own) {
      own->let_go(cell);
    } else {
      holder.mark_gone(cell);  // its owner lets go of the cell at its next synchronisation
    }
    chunks_.mark_in_use(chunk);
    return false;
  }
  if (own == nullptr || !ThreadCache::cacheable(c.size) || !own->has_room_for(c.size) ||
      !make_room_to_hold(*own)) {
    return false;
  }
  const int cell = own->hold(c.ptr, c.size, chunk, ThreadCache::kFree);
  chunks_.mark_cached(chunk, own->sync.slot, cell);
  return true;
}

bool BfcAllocator::make_room_to_hold(ThreadCache& own) {
  if (own.can_hold()) return true;
  // The cache lets go of a block it handed out (its free will take the lock) or of one
  // freed elsewhere.
  const int cell = own.next_victim();
  if (cell == ThreadCache::kNoCell) return false;
  if (own.state(cell) == ThreadCache::kOut) chunks_.mark_in_use(own.cell(cell).chunk);
  own.let_go(cell);
  return true;
}

void BfcAllocator::flush(ThreadCache& own) {
  for (int cell = 0; cell < ThreadCache::kCells; ++cell) {
    const ThreadCache::State state = own.state(cell);
    if (state != ThreadCache::kFree && state != ThreadCache::kOut) continue;
    const int32_t chunk = own.cell(cell).chunk;
    chunks_.mark_in_use(chunk);
    if (state == ThreadCache::kFree) free_chunk(chunk);
  }
  own.clear();
  own.sync.gone_seen = own.gone_count();
  own.sync.flush_generation = flush_generation_;
  set_floor(own, 0);
  own.sync.hit_floor = 0;
}

void BfcAllocator::ask_caches_to_flush(ThreadCache* own) {
  const bool others_hold = std::any_of(caches_.begin(), caches_.end(), [own](ThreadCache* c) {
    return c != nullptr && c != own && c->free_blocks() > 0;
  });
  if (!others_hold) return;
  ++flush_generation_;
  if (own != nullptr) own->sync.flush_generation = flush_generation_;  // the caller flushes it
  bump_epoch();
}

void BfcAllocator::settle_peak_slow(ThreadCache* own) {
  // Own room is given again below: first count own cache at what it holds.
  if (own != nullptr) set_floor(*own, own->free_bytes());
  if (minus_or_zero(bytes_in_use_, floor_sum_) > peak_bytes_in_use_) {
    bool revoked = false;
    const uint64_t epoch = epoch_.load(std::memory_order_relaxed);
    for (ThreadCache* cache : caches_) {
      if (cache == nullptr || cache == own || cache->sync.floor >= cache->free_bytes()) continue;
      revoked |= cache->sync.epoch == epoch;  // a stale cache's hit path is closed already
      set_floor(*cache, cache->free_bytes());
    }
    // Every floor is now what its cache holds: this is what is in use.
    peak_bytes_in_use_ = std::max(peak_bytes_in_use_, bytes_in_use_ - floor_sum_);
    if (revoked) bump_epoch();
  }
  if (own != nullptr) {
    const size_t others = floor_sum_ - own->sync.floor;
    set_floor(*own, minus_or_zero(minus_or_zero(bytes_in_use_, others), peak_bytes_in_use_));
    own->sync.hit_floor = own->sync.floor;
    own->sync.epoch = epoch_.load(std::memory_order_relaxed);
  }
}

void BfcAllocator::set_floor(ThreadCache& cache, size_t floor) {
  floor_sum_ = floor_sum_ - cache.sync.floor + floor;
  cache.sync.floor = floor;
}

void BfcAllocator::bump_epoch() {
  epoch_.store(epoch_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

size_t BfcAllocator::cached_bytes() const {
  size_t bytes = 0;
  for (const ThreadCache* cache : caches_) {
    if (cache != nullptr) bytes += cache->free_bytes();
  }
  return bytes;
}

}  // namespace hxrt::detail
