// Page-locked host memory (the host_memory group of the function table): what a GPU plugin
// gives the core to stage transfers through. The simulated devices copy from any host memory
// at the same speed, so it is plain 64-byte-aligned heap memory; it exists so that the core's
// staging through it can be exercised and seen (the pinned_* transfer counters), and the
// option pinned_memory = false leaves the group out to exercise the core's path without it.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace hxsim {

// The live page-locked allocations of one device, so that deallocate frees only what
// allocate gave (anything else is a warning, not a crash), with the buffer handle of each that
// allocate_buffer gave. A handle is an object of its own, never the memory's address, so that
// a core that passed a pointer where a handle belongs would be caught. Thread-safe.
class PinnedAllocations {
 public:
  PinnedAllocations() = default;
  ~PinnedAllocations();  // frees what the core did not: the plugin's memory goes with it
  PinnedAllocations(const PinnedAllocations&) = delete;
  PinnedAllocations& operator=(const PinnedAllocations&) = delete;

  // `size` bytes at a 64-byte boundary, or nullptr when the heap cannot supply them; with
  // `handle`, also a buffer handle of them in *handle.
  void* allocate(size_t size, hx_buffer** handle = nullptr);
  // Frees `pointer` (and its handle) and returns its size; false when it is not a live
  // allocation here.
  bool deallocate(void* pointer, size_t* size);
  // The address of byte `offset` of the live buffer `handle`, when `size` bytes from there lie
  // inside it; nullptr otherwise.
  char* resolve(const hx_buffer* handle, uint64_t offset, size_t size) const;

 private:
  struct Allocation {
    size_t size;
    std::unique_ptr<char> handle;  // a byte of its own, whose address is the handle; or null
  };
  mutable std::mutex mutex_;
  std::unordered_map<void*, Allocation> live_;
  std::unordered_map<const void*, void*> by_handle_;  // handle -> memory
};

// The group, with the buffer functions (ABI 2.5) or without them (the option pinned_buffers
// false), so that the core's copies of both kinds can be exercised.
extern const hx_host_memory_api kHostMemoryApi;
extern const hx_host_memory_api kHostMemoryApiWithoutBuffers;

}  // namespace hxsim
