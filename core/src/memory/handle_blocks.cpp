#include "memory/handle_blocks.hpp"

namespace hxrt::detail {

__thread HandleBlockCache t_handle_blocks;

namespace {

// Its destructor runs at the thread's exit: the cached blocks go back to the heap, and blocks
// freed later in the exit (by other thread_local destructors) go there directly.
struct ExitDrain {
  ~ExitDrain() {
    HandleBlockCache& cache = t_handle_blocks;
    cache.exited = true;
    cache.registered = false;
    while (HandleBlockCache::Free* block = cache.head) {
      cache.head = block->next;
      ::operator delete(block);
    }
    cache.count = 0;
  }
};

}  // namespace

bool register_handle_block_cache() {
  HandleBlockCache& cache = t_handle_blocks;
  if (cache.exited) return false;
  thread_local ExitDrain drain;  // constructed here, once per thread
  (void)drain;
  cache.registered = true;
  return true;
}

}  // namespace hxrt::detail
