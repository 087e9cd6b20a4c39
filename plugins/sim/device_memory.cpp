#include "device_memory.hpp"

#include <cstdlib>

namespace hxsim {

DeviceMemory::~DeviceMemory() {
  for (const auto& entry : blocks_) std::free(entry.second.storage);
}

DeviceMemory::Result DeviceMemory::allocate(uint64_t id, size_t size, size_t alignment) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (size > budget_ - in_use_) return Result::kOverBudget;
  // posix_memalign wants a multiple of sizeof(void*); a stricter alignment satisfies a weaker.
  const size_t effective_alignment = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  void* memory = nullptr;
  if (posix_memalign(&memory, effective_alignment, size) != 0) return Result::kHostExhausted;
  try {
    blocks_.emplace(id, Block{static_cast<char*>(memory), size});
  } catch (...) {
    std::free(memory);
    throw;
  }
  in_use_ += size;
  return Result::kOk;
}

bool DeviceMemory::deallocate(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto block = blocks_.find(id);
  if (block == blocks_.end()) return false;
  in_use_ -= block->second.size;
  std::free(block->second.storage);
  blocks_.erase(block);
  return true;
}

char* DeviceMemory::resolve(uint64_t id, uint64_t offset, size_t size) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto block = blocks_.find(id);
  if (block == blocks_.end()) return nullptr;
  const size_t extent = block->second.size;
  if (offset > extent || size > extent - offset) return nullptr;
  return block->second.storage + offset;
}

bool DeviceMemory::find(uint64_t id, size_t* size) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto block = blocks_.find(id);
  if (block == blocks_.end()) return false;
  *size = block->second.size;
  return true;
}

uint64_t DeviceMemory::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_use_;
}

}  // namespace hxsim
