// One simulated device's memory: a fixed budget, spent on blocks from the host heap. A block is
// known to the core only by its id, which is the buffer handle allocate returns: a small
// integer, not an address, so that a core doing arithmetic on a handle or dereferencing it
// (which the ABI forbids) gets a handle no device knows, or a fault under AddressSanitizer,
// instead of working by accident. Copies and kernels resolve (id, offset, size) here and
// refuse anything that is not inside a live block.
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
  // A block of `size` (>= 1) bytes whose storage is aligned to `alignment` (a power of two),
  // charged to the budget and known by `id` (unique in the process, never reused).
  Result allocate(uint64_t id, size_t size, size_t alignment);
  // Returns the block's size to the budget and frees it; false when `id` is not a live block.
  bool deallocate(uint64_t id);
  // The storage of bytes [offset, offset + size) of block `id`; nullptr when `id` is not a live
  // block or the range does not lie inside it.
  char* resolve(uint64_t id, uint64_t offset, size_t size) const;
  // Whether `id` is a live block, and its size.
  bool find(uint64_t id, size_t* size) const;

  uint64_t budget() const { return budget_; }
  uint64_t in_use() const;

 private:
  struct Block {
    char* storage;
    size_t size;
  };

  const uint64_t budget_;
  mutable std::mutex mutex_;
  std::map<uint64_t, Block> blocks_;  // by id
  uint64_t in_use_ = 0;
};

}  // namespace hxsim
