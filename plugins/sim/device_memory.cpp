#include "device_memory.hpp"

#include <cstdlib>

namespace hxsim {

DeviceMemory::~DeviceMemory() {
  // Streams are joined before devices are destroyed, so nothing is pinned any more.
  for (const auto& entry : blocks_) std::free(entry.second.storage);
  for (const auto& entry : retired_) std::free(entry.second.storage);
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

DeviceMemory::Freed DeviceMemory::deallocate(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto block = blocks_.find(id);
  if (block == blocks_.end()) return Freed::kUnknown;
  if (block->second.pins != 0) {
    retired_.emplace(id, block->second);
    blocks_.erase(block);
    return Freed::kAfterQueuedWork;
  }
  release(block);
  blocks_.erase(block);
  return Freed::kNow;
}

void DeviceMemory::release(std::map<uint64_t, Block>::iterator block) {
  in_use_ -= block->second.size;
  std::free(block->second.storage);
}

bool DeviceMemory::pin(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto block = blocks_.find(id);
  if (block == blocks_.end()) return false;
  ++block->second.pins;
  return true;
}

void DeviceMemory::unpin(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto live = blocks_.find(id);
  if (live != blocks_.end()) {
    --live->second.pins;
    return;
  }
  const auto retired = retired_.find(id);
  if (retired == retired_.end()) return;
  if (--retired->second.pins == 0) {
    release(retired);
    retired_.erase(retired);
  }
}

BufferPins::~BufferPins() {
  for (const auto& pinned : pinned_) pinned.first->unpin(pinned.second);
}

bool BufferPins::add(DeviceMemory& memory, uint64_t id) {
  pinned_.reserve(pinned_.size() + 1);  // so that a pin taken is always recorded
  if (!memory.pin(id)) return false;
  pinned_.emplace_back(&memory, id);
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
