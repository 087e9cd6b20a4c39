// Which thread caches (memory/thread_cache.hpp) a thread has, and their lives.
//
// A thread finds its cache for an allocator from the allocator's id in a small table of its
// own (thread-local, no lock, no heap): the hit path. Ids come from a process-wide counter and
// are never reused, so an entry left by a destroyed allocator never matches a new one.
//
// The thread owns its caches: it creates one on its first cacheable request to an allocator,
// and when it exits it hands each back to its allocator (which takes back the blocks) and
// deletes it. An allocator destroyed first orphans its caches instead: they stay with their
// threads, which delete them at exit or on their next slow path. One process-wide mutex
// orders these events; it is taken on those slow paths only, always before an allocator's
// own lock.
#pragma once

#include <cstdint>
#include <mutex>

#include "memory/thread_cache.hpp"

namespace hxrt::detail {

struct ThreadCacheSlots {
  static constexpr uint64_t kSlots = 8;
  uint64_t allocator_ids[kSlots];  // 0: empty
  ThreadCache* caches[kSlots];
};

// Hidden and initial-exec: one load from the thread pointer, no call, no guard.
__attribute__((visibility("hidden"), tls_model("initial-exec"))) inline thread_local
    ThreadCacheSlots t_thread_cache_slots;

// The calling thread's cache for the allocator `allocator_id`, or null.
inline ThreadCache* find_thread_cache(uint64_t allocator_id) {
  const uint64_t slot = allocator_id % ThreadCacheSlots::kSlots;
  return t_thread_cache_slots.allocator_ids[slot] == allocator_id
             ? t_thread_cache_slots.caches[slot]
             : nullptr;
}

// A new id, never used before in this process.
uint64_t new_allocator_id();

// The mutex that orders creation, thread exit and orphaning. Never destroyed, so that a
// thread exiting after static destruction still finds it.
std::mutex& thread_cache_registry_mutex();

// With the registry's mutex held: the calling thread's cache for the allocator `allocator_id`
// (`owner`), created when it has none; null while the thread exits. Throws std::bad_alloc,
// changing nothing, when the host is out of memory.
ThreadCache* find_or_create_thread_cache(uint64_t allocator_id, BfcAllocator& owner);

}  // namespace hxrt::detail
