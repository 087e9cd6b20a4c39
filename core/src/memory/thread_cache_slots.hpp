// Where a thread finds its cache for an allocator (memory/thread_cache_registry.hpp says how
// caches come and go): a small table of its own, keyed by the allocator's id, read by the hit
// path with no lock, no call and no heap. The hit path is inline in BfcAllocator's header,
// so code outside libhxrt (tests, benchmarks) reads this table too: it is one variable of the
// library, initial-exec (one load from the thread pointer; a libhxrt loaded by dlopen takes
// its 128 bytes from glibc's reserve of static TLS), and __thread rather than thread_local,
// which would add a check for a dynamic initialiser to every access.
#pragma once

#include <cstdint>

namespace hxrt::detail {

class ThreadCache;

struct ThreadCacheSlots {
  static constexpr uint64_t kSlots = 8;
  uint64_t allocator_ids[kSlots];  // 0: empty; ids are never reused
  ThreadCache* caches[kSlots];
};

extern __thread ThreadCacheSlots t_thread_cache_slots __attribute__((tls_model("initial-exec")));

// The calling thread's cache for the allocator `allocator_id`, or null.
inline ThreadCache* find_thread_cache(uint64_t allocator_id) {
  const uint64_t slot = allocator_id % ThreadCacheSlots::kSlots;
  return t_thread_cache_slots.allocator_ids[slot] == allocator_id
             ? t_thread_cache_slots.caches[slot]
             : nullptr;
}

}  // namespace hxrt::detail
