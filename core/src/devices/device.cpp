#include "devices/device.hpp"

#include "device_name.hpp"
#include "status.hpp"

namespace hxrt::detail {

Device::Device(std::shared_ptr<PhysicalDevice> physical, int id, size_t index,
               const BfcOptions& memory, std::string memory_policy)
    : physical_(std::move(physical)),
      id_(id),
      index_(index),
      name_(canonical_device_name(type(), id)),
      short_name_(short_device_name(type(), id)),
      memory_policy_(std::move(memory_policy)) {
  Plugin& owner = plugin();
  hx_device* device = handle();
  RawMemory raw;
  // The physical device, not this logical one, is what the plugin knows: the message names
  // both when they differ.
  const std::string where = short_name_ == physical_->short_name()
                                ? name_
                                : name_ + " (physical " + physical_->short_name() + ")";
  raw.allocate = [&owner, device, where](size_t bytes) {
    void* ptr = nullptr;
    throw_if_error(owner.api().allocate(device, bytes, BfcAllocator::kAlignment, &ptr),
                   "allocating a region of " + std::to_string(bytes) + " bytes on " + where);
    return ptr;
  };
  raw.deallocate = [&owner, device](void* ptr, size_t bytes) {
    owner.api().deallocate(device, ptr, bytes);
  };
  allocator_ = std::make_unique<BfcAllocator>(name_, std::move(raw), memory);

  if (owner.has_streams()) {
    throw_if_error(owner.api().stream_create(device, &stream_),
                   "plugin '" + owner.name() + "' stream_create for " + short_name_);
  }
}

Device::~Device() {
  if (stream_ != nullptr) {
    // Work still queued must finish before the stream goes; errors here have no one to go to.
    free_status(plugin().api().stream_synchronize(handle(), stream_));
    plugin().api().stream_destroy(handle(), stream_);
  }
}

DeviceInfo Device::info() const {
  DeviceInfo info = physical_->descriptive_info();
  info.name = name_;
  info.short_name = short_name_;
  info.id = id_;
  info.memory_policy = memory_policy_;
  uint64_t free = 0, total = 0;
  hx_status* status = plugin().api().memory_info(handle(), &free, &total);
  if (status == nullptr) info.memory_free = free;
  free_status(status);
  return info;
}

void Device::deallocate(void* ptr) noexcept {
  try {
    allocator_->deallocate(ptr);
  } catch (const Error&) {
    // Only a pointer this allocator never handed out gets here: a core bug, not worth a crash.
  }
}

void Device::copy_from_host(void* dst, const void* src, size_t bytes) {
  throw_if_error(plugin().api().copy_host_to_device(handle(), stream_, dst, src, bytes),
                 "copying " + std::to_string(bytes) + " bytes from the host to " + name_);
  // The source is the caller's host memory, which it may reuse as soon as we return.
  synchronize();
}

void Device::copy_to_host(void* dst, const void* src, size_t bytes) {
  throw_if_error(plugin().api().copy_device_to_host(handle(), stream_, dst, src, bytes),
                 "copying " + std::to_string(bytes) + " bytes from " + name_ + " to the host");
  synchronize();
}

void Device::synchronize() {
  if (stream_ == nullptr) return;
  throw_if_error(plugin().api().stream_synchronize(handle(), stream_),
                 "synchronizing the stream of " + name_);
}

}  // namespace hxrt::detail
