// One simulated device's memory: a fixed budget, spent on blocks from the host heap. A block is
// known to the core only by its id, which is the buffer handle allocate returns: a small
// integer, not an address, so that a core doing arithmetic on a handle or dereferencing it
// (which the ABI forbids) gets a handle no device knows, or a fault under AddressSanitizer,
// instead of working by accident. Copies and kernels resolve (id, offset, size) here and
// refuse anything that is not inside a live block. Queued work pins the blocks it uses, so that
// a block freed while work still uses it (which the ABI's deallocate rule forbids the core)
// lives on until that work has run instead of being freed under it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

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
  enum class Freed { kNow, kAfterQueuedWork, kUnknown };
  // Takes `id` out of the live blocks. It is freed, and its size returned to the budget, at
  // once, or when the last queued work that pinned it has run (kAfterQueuedWork: a misuse the
  // caller reports); kUnknown when `id` is not a live block.
  Freed deallocate(uint64_t id);
  // Keeps live block `id` from being freed until unpin; false when it is not a live block.
  bool pin(uint64_t id);
  void unpin(uint64_t id);
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
    uint64_t pins = 0;  // queued items that use it
  };
  void release(std::map<uint64_t, Block>::iterator block);  // under mutex_

  const uint64_t budget_;
  mutable std::mutex mutex_;
  std::map<uint64_t, Block> blocks_;   // live, by id
  std::map<uint64_t, Block> retired_;  // deallocated while pinned, by id
  uint64_t in_use_ = 0;
};

// The pins one item of queued work holds, released when it is destroyed (after the work ran).
class BufferPins {
 public:
  BufferPins() = default;
  ~BufferPins();
  BufferPins(const BufferPins&) = delete;
  BufferPins& operator=(const BufferPins&) = delete;

  // Pins block `id` of `memory`; false when it is not a live block.
  bool add(DeviceMemory& memory, uint64_t id);

 private:
  std::vector<std::pair<DeviceMemory*, uint64_t>> pinned_;
};

}  // namespace hxsim
