// Tensor handles come from a small cache per thread (memory/handle_blocks.hpp): a freed block
// serves the thread's next handle, the cache holds a bounded number of blocks, and a thread's
// blocks go back to the heap when it exits (LeakSanitizer, in CI, checks that last part).
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "memory/handle_blocks.hpp"

using hxrt::detail::give_handle_block;
using hxrt::detail::HandleBlockCache;
using hxrt::detail::t_handle_blocks;
using hxrt::detail::take_handle_block;

TEST_CASE("a freed handle block serves the same thread's next handle") {
  if (!HXRT_HANDLE_BLOCK_CACHE) return;  // no cache under AddressSanitizer
  void* first = take_handle_block();
  give_handle_block(first);
  void* second = take_handle_block();
  CHECK(second == first);
  give_handle_block(second);
}

TEST_CASE("a thread's cache keeps at most kCached blocks") {
  std::vector<void*> blocks;
  for (uint32_t i = 0; i < 2 * HandleBlockCache::kCached; ++i) blocks.push_back(take_handle_block());
  for (void* block : blocks) give_handle_block(block);
  CHECK(t_handle_blocks.count <= HandleBlockCache::kCached);
  if (HXRT_HANDLE_BLOCK_CACHE) CHECK(t_handle_blocks.count == HandleBlockCache::kCached);
}

TEST_CASE("blocks freed on another thread join that thread's cache, which its exit empties") {
  void* block = take_handle_block();
  uint32_t cached_there = 0;
  std::thread other([block, &cached_there] {
    give_handle_block(block);
    cached_there = t_handle_blocks.count;
  });
  other.join();  // its exit gave the block back to the heap (LeakSanitizer would say otherwise)
  CHECK(cached_there == (HXRT_HANDLE_BLOCK_CACHE ? 1u : 0u));
}
