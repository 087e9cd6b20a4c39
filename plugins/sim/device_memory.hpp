// One simulated device's memory: a fixed budget, spent on blocks from the host heap. The
// device remembers every live block so that it can tell its own memory from anything else:
// copies and kernels refuse a pointer that is not inside one of its blocks, which is how the
// plugin keeps the core honest about device memory being separate from host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace hxsim {

class DeviceMemory {
 public:
  explicit DeviceMemory(uint64_t budget_bytes) : budget_(budget_bytes) {}
  // Frees the blocks still live: the core releases everything before shutdown, but a plugin
  // must not leak when it does not.
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  enum class Result { kOk, kOverBudget, kHostExhausted };
  // `size` bytes aligned to `alignment` (a power of two), charged to the budget. A size of 0
  // gets a distinct block that charges nothing.
  Result allocate(size_t size, size_t alignment, void** out_ptr);
  // Returns the block's size to the budget and frees it; false when `ptr` is not a live block.
  bool deallocate(void* ptr);
  // Whether [ptr, ptr + size) lies inside one live block.
  bool contains(const void* ptr, size_t size) const;
  // Whether [ptr, ptr + size) shares a byte with any live block.
  bool overlaps(const void* ptr, size_t size) const;

  uint64_t budget() const { return budget_; }
  uint64_t in_use() const;

 private:
  struct Block {
    size_t size;    // as requested, and charged
    size_t extent;  // bytes actually allocated (at least 1)
  };

  const uint64_t budget_;
  mutable std::mutex mutex_;
  std::map<uintptr_t, Block> blocks_;  // by start address
  uint64_t in_use_ = 0;
};

}  // namespace hxsim
