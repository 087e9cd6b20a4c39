#include "host_memory.hpp"

#include <hxplugin/status.hpp>

#include <cstdlib>

#include "copies.hpp"
#include "device.hpp"
#include "plugin_state.hpp"

namespace hxsim {
namespace {

// What the ABI promises for host_memory allocations.
constexpr size_t kAlignment = 64;

}  // namespace

PinnedAllocations::~PinnedAllocations() {
  for (const auto& allocation : live_) std::free(allocation.first);
}

void* PinnedAllocations::allocate(size_t size, hx_buffer** handle) {
  // aligned_alloc wants a multiple of the alignment.
  if (size > SIZE_MAX - (kAlignment - 1)) return nullptr;
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  void* pointer = std::aligned_alloc(kAlignment, rounded);
  if (pointer == nullptr) return nullptr;
  try {
    Allocation allocation{size, handle != nullptr ? std::make_unique<char>() : nullptr};
    std::lock_guard<std::mutex> lock(mutex_);
    if (handle != nullptr) {
      *handle = reinterpret_cast<hx_buffer*>(allocation.handle.get());
      by_handle_.emplace(allocation.handle.get(), pointer);
    }
    live_.emplace(pointer, std::move(allocation));
  } catch (...) {
    std::free(pointer);
    throw;
  }
  return pointer;
}

bool PinnedAllocations::deallocate(void* pointer, size_t* size) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = live_.find(pointer);
    if (found == live_.end()) return false;
    *size = found->second.size;
    if (found->second.handle != nullptr) by_handle_.erase(found->second.handle.get());
    live_.erase(found);
  }
  std::free(pointer);
  return true;
}

char* PinnedAllocations::resolve(const hx_buffer* handle, uint64_t offset, size_t size) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = by_handle_.find(handle);
  if (found == by_handle_.end()) return nullptr;
  const size_t allocated = live_.at(found->second).size;
  if (offset > allocated || size > allocated - offset) return nullptr;
  return static_cast<char*>(found->second) + offset;
}

namespace {

// allocate and allocate_buffer: `out_buffer` null for allocate.
hx_status* allocate_pinned(hx_device* device, size_t size, void** out_ptr,
                           hx_buffer** out_buffer) {
  SimDevice& sim = from_handle(device);
  const hx_core_services& services = *sim.plugin.services;
  if (size == 0) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "%s: host_memory allocate: 0 bytes asked for; ask for at least 1",
                                 sim.label.c_str());
  }
  return hxplugin::guarded(services, kPluginName, [&]() -> hx_status* {
    void* pointer = sim.pinned.allocate(size, out_buffer);
    if (pointer == nullptr) {
      return hxplugin::make_status(
          services, HX_OUT_OF_MEMORY,
          "%s: host_memory allocate: the host heap cannot supply %zu bytes", sim.label.c_str(),
          size);
    }
    sim.counters.pinned_allocated.add(size);
    *out_ptr = pointer;
    return nullptr;
  });
}

hx_status* host_allocate(hx_device* device, size_t size, void** out_ptr) {
  return allocate_pinned(device, size, out_ptr, nullptr);
}

hx_status* host_allocate_buffer(hx_device* device, size_t size, void** out_ptr,
                                hx_buffer** out_buffer) {
  return allocate_pinned(device, size, out_ptr, out_buffer);
}

void host_deallocate(hx_device* device, void* pointer) {
  if (pointer == nullptr) return;
  SimDevice& sim = from_handle(device);
  size_t size = 0;
  if (!sim.pinned.deallocate(pointer, &size)) {
    // Freeing it anyway could free memory the sim does not own: leak rather than corrupt.
    sim.plugin.warn(
        "%s: host_memory deallocate(%p) ignored: not memory that host_memory allocate of this "
        "device gave (or freed already); free each block once, on the device that gave it",
        sim.label.c_str(), pointer);
    return;
  }
  sim.counters.pinned_freed.add(size);
}

}  // namespace

const hx_host_memory_api kHostMemoryApi = {
    HX_HOST_MEMORY_API_STRUCT_SIZE, nullptr,          host_allocate,      host_deallocate,
    host_allocate_buffer,           copy_to_device, copy_to_host};

const hx_host_memory_api kHostMemoryApiWithoutBuffers = {
    HX_HOST_MEMORY_API_STRUCT_SIZE, nullptr, host_allocate, host_deallocate, nullptr, nullptr,
    nullptr};

}  // namespace hxsim
