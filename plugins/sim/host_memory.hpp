// Page-locked host memory (the host_memory group of the function table): what a GPU plugin
// gives the core to stage transfers through. The simulated devices copy from any host memory
// at the same speed, so it is plain 64-byte-aligned heap memory; it exists so that the core's
// staging through it can be exercised and seen (the pinned_* transfer counters), and the
// option pinned_memory = false leaves the group out to exercise the core's path without it.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <mutex>
#include <unordered_map>

namespace hxsim {

// The live page-locked allocations of one device, so that deallocate frees only what
// allocate gave (anything else is a warning, not a crash). Thread-safe.
class PinnedAllocations {
 public:
  PinnedAllocations() = default;
  ~PinnedAllocations();  // frees what the core did not: the plugin's memory goes with it
  PinnedAllocations(const PinnedAllocations&) = delete;
  PinnedAllocations& operator=(const PinnedAllocations&) = delete;

  // `size` bytes at a 64-byte boundary, or nullptr when the heap cannot supply them.
  void* allocate(size_t size);
  // Frees `pointer` and returns its size; false when it is not a live allocation here.
  bool deallocate(void* pointer, size_t* size);

 private:
  std::mutex mutex_;
  std::unordered_map<void*, size_t> live_;
};

extern const hx_host_memory_api kHostMemoryApi;

}  // namespace hxsim
