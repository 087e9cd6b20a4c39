#include "memory/thread_cache_registry.hpp"

#include <atomic>
#include <memory>
#include <vector>

#include "memory/bfc_allocator.hpp"

namespace hxrt::detail {

__thread ThreadCacheSlots t_thread_cache_slots;

namespace {

// Set when the thread's caches are gone; trivially destructible, so still readable by code
// that runs later in the thread's exit (another thread_local's destructor).
thread_local bool t_exiting = false;

// The caches a thread owns. Its destructor is the thread's exit.
class OwnedCaches {
 public:
  OwnedCaches() = default;
  OwnedCaches(const OwnedCaches&) = delete;
  OwnedCaches& operator=(const OwnedCaches&) = delete;

  ~OwnedCaches() {
    std::lock_guard<std::mutex> registry(thread_cache_registry_mutex());
    t_thread_cache_slots = {};
    t_exiting = true;
    for (std::unique_ptr<ThreadCache>& cache : caches_) {
      if (cache->owner() != nullptr) cache->owner()->detach_thread_cache(*cache);
    }
    caches_.clear();
  }

  ThreadCache* find(const BfcAllocator& owner) const {
    for (const std::unique_ptr<ThreadCache>& cache : caches_) {
      if (cache->owner() == &owner) return cache.get();
    }
    return nullptr;
  }

  // Deletes the caches of destroyed allocators; makes room for one more.
  void prune_and_reserve() {
    for (size_t i = caches_.size(); i-- > 0;) {
      if (caches_[i]->owner() != nullptr) continue;
      forget_slot(caches_[i].get());
      caches_[i] = std::move(caches_.back());
      caches_.pop_back();
    }
    caches_.reserve(caches_.size() + 1);
  }

  void add(std::unique_ptr<ThreadCache> cache) { caches_.push_back(std::move(cache)); }

 private:
  static void forget_slot(const ThreadCache* cache) {
    for (uint64_t slot = 0; slot < ThreadCacheSlots::kSlots; ++slot) {
      if (t_thread_cache_slots.caches[slot] == cache) {
        t_thread_cache_slots.allocator_ids[slot] = 0;
        t_thread_cache_slots.caches[slot] = nullptr;
      }
    }
  }

  std::vector<std::unique_ptr<ThreadCache>> caches_;
};

// Constructed on a thread's first cache: threads that never cache pay nothing at exit.
thread_local OwnedCaches t_owned_caches;

}  // namespace

uint64_t new_allocator_id() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::mutex& thread_cache_registry_mutex() {
  static std::mutex* const mutex = new std::mutex;
  return *mutex;
}

ThreadCache* find_or_create_thread_cache(uint64_t allocator_id, BfcAllocator& owner) {
  if (t_exiting) return nullptr;
  OwnedCaches& owned = t_owned_caches;
  ThreadCache* cache = owned.find(owner);
  if (cache == nullptr) {
    owned.prune_and_reserve();
    auto created = std::make_unique<ThreadCache>(&owner);
    cache = created.get();
    owned.add(std::move(created));
  }
  // Two allocators may share a slot: the last one used takes it.
  const uint64_t slot = allocator_id % ThreadCacheSlots::kSlots;
  t_thread_cache_slots.allocator_ids[slot] = allocator_id;
  t_thread_cache_slots.caches[slot] = cache;
  return cache;
}

}  // namespace hxrt::detail
