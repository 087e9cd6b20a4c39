// Blocks for tensor handles — a TensorImpl with its reference count, one block per tensor —
// kept in a small cache per thread. Every op makes a handle for each output and frees one for
// each tensor that dies, and the heap's malloc and free were a tenth of a tiny eager op. A
// block freed on another thread joins that thread's cache; a cache keeps at most kCached
// blocks, and gives them back to the heap when its thread exits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

// AddressSanitizer sees each handle's own malloc and free, so that it still reports a handle
// used after its last Tensor went: the cache is left out of such builds.
#if defined(__SANITIZE_ADDRESS__)
#define HXRT_HANDLE_BLOCK_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HXRT_HANDLE_BLOCK_CACHE 0
#endif
#endif
#ifndef HXRT_HANDLE_BLOCK_CACHE
#define HXRT_HANDLE_BLOCK_CACHE 1
#endif

namespace hxrt::detail {

struct HandleBlockCache {
  static constexpr uint32_t kCached = 64;
  static constexpr size_t kBlockBytes = 256;
  struct Free {
    Free* next;
  };
  Free* head;
  uint32_t count;
  bool registered;  // the thread's exit frees the cache (handle_blocks.cpp)
  bool exited;      // after that, blocks go straight back to the heap
};

// Zero-initialised; initial-exec, as memory/thread_cache_slots.hpp explains.
extern __thread HandleBlockCache t_handle_blocks __attribute__((tls_model("initial-exec")));

// Registers the calling thread's cache for freeing at its exit; returns false while the thread
// is exiting (the block then goes to the heap).
bool register_handle_block_cache();

inline void* take_handle_block() {
  if (!HXRT_HANDLE_BLOCK_CACHE) return ::operator new(HandleBlockCache::kBlockBytes);
  HandleBlockCache& cache = t_handle_blocks;
  if (HandleBlockCache::Free* block = cache.head) {
    cache.head = block->next;
    --cache.count;
    return block;
  }
  return ::operator new(HandleBlockCache::kBlockBytes);
}

inline void give_handle_block(void* block) noexcept {
  HandleBlockCache& cache = t_handle_blocks;
  if (HXRT_HANDLE_BLOCK_CACHE && cache.count < HandleBlockCache::kCached &&
      (cache.registered || register_handle_block_cache())) {
    auto* free = static_cast<HandleBlockCache::Free*>(block);
    free->next = cache.head;
    cache.head = free;
    ++cache.count;
    return;
  }
  ::operator delete(block);
}

}  // namespace hxrt::detail
