#include "device_memory.hpp"

#include <cstdlib>
#include <iterator>

namespace hxsim {

DeviceMemory::~DeviceMemory() {
  for (const auto& [address, block] : blocks_) std::free(reinterpret_cast<void*>(address));
}

DeviceMemory::Result DeviceMemory::allocate(size_t size, size_t alignment, void** out_ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (size > budget_ - in_use_) return Result::kOverBudget;
  // posix_memalign wants a multiple of sizeof(void*); a stricter alignment satisfies a weaker.
  const size_t effective_alignment = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  const size_t extent = size == 0 ? 1 : size;
  void* memory = nullptr;
  if (posix_memalign(&memory, effective_alignment, extent) != 0) return Result::kHostExhausted;
  try {
    blocks_.emplace(reinterpret_cast<uintptr_t>(memory), Block{size, extent});
  } catch (...) {
    std::free(memory);
    throw;
  }
  in_use_ += size;
  *out_ptr = memory;
  return Result::kOk;
}

bool DeviceMemory::deallocate(void* ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto block = blocks_.find(reinterpret_cast<uintptr_t>(ptr));
  if (block == blocks_.end()) return false;
  in_use_ -= block->second.size;
  blocks_.erase(block);
  std::free(ptr);
  return true;
}

bool DeviceMemory::contains(const void* ptr, size_t size) const {
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex_);
  auto after = blocks_.upper_bound(address);
  if (after == blocks_.begin()) return false;
  const auto& [start, block] = *std::prev(after);
  const uintptr_t offset = address - start;
  return offset <= block.extent && size <= block.extent - offset;
}

bool DeviceMemory::overlaps(const void* ptr, size_t size) const {
  if (size == 0) return false;
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex_);
  // Blocks are disjoint: if any reaches into the range, the last to start before its end does.
  auto after = blocks_.lower_bound(address + size);
  if (after == blocks_.begin()) return false;
  const auto& [start, block] = *std::prev(after);
  return start + block.extent > address;
}

uint64_t DeviceMemory::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_use_;
}

}  // namespace hxsim
