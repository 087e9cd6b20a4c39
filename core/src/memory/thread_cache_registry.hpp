// Which thread caches (memory/thread_cache.hpp) a thread has, and their lives.
//
// A thread finds its cache for an allocator from the allocator's id in a small table of its
// own (memory/thread_cache_slots.hpp): the hit path. Ids come from a process-wide counter and
// are never reused, so an entry left by a destroyed allocator never matches a new one.
//
// The thread owns its caches: it creates one on its first cacheable request to an allocator,
// and when it exits it hands each back to its allocator (which takes back the blocks) and
// deletes it. An allocator destroyed first orphans its caches instead: they stay with their
// threads, which delete them at exit or when they next create a cache. One process-wide mutex
// orders these events; it is taken on those slow paths only, always before an allocator's
// own lock.
#pragma once

#include <cstdint>
#include <mutex>

#include "memory/thread_cache.hpp"
#include "memory/thread_cache_slots.hpp"

namespace hxrt::detail {

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
