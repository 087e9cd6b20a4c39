#include "device_memory.hpp"

#include <utility>

#include "call_text.hpp"

namespace hxrt_conformance {

std::string allocate_call(size_t size, size_t alignment) {
  return "allocate(" + byte_count(size) + ", alignment " + std::to_string(alignment) + ")";
}

DeviceAllocation::DeviceAllocation(const DeviceUnderTest& device, size_t size)
    : DeviceAllocation(device, size, device.alignment) {}

DeviceAllocation::DeviceAllocation(const DeviceUnderTest& device, size_t size, size_t alignment)
    : api_(device.api), device_(device.device), size_(size), alignment_(alignment) {
  outcome_ = KitCore::take(api_->allocate(device_, size, alignment, &buffer_));
  owned_ = outcome_.ok() && buffer_ != nullptr;
  if (!outcome_.ok()) buffer_ = nullptr;
}

DeviceAllocation::~DeviceAllocation() {
  if (owned_) api_->deallocate(device_, buffer_, size_);
}

DeviceAllocation::DeviceAllocation(DeviceAllocation&& other) noexcept
    : api_(other.api_),
      device_(other.device_),
      size_(other.size_),
      alignment_(other.alignment_),
      buffer_(other.buffer_),
      outcome_(std::move(other.outcome_)),
      owned_(other.owned_) {
  other.owned_ = false;
}

std::string DeviceAllocation::failure() const {
  if (ok()) return {};
  const std::string call = allocate_call(size_, alignment_);
  if (!outcome_.ok()) return call_failed(call, outcome_);
  return returned_null(call, "buffer", "a buffer");
}

}  // namespace hxrt_conformance
