#include "device_memory.hpp"

#include <utility>

#include "call_text.hpp"

namespace hxrt_conformance {

std::string allocate_call(size_t size, size_t alignment) {
  return "allocate(" + byte_count(size) + ", alignment " + std::to_string(alignment) + ")";
}

DeviceAllocation::DeviceAllocation(const DeviceUnderTest& device, size_t size, size_t alignment)
    : api_(device.api), device_(device.device), size_(size), alignment_(alignment) {
  outcome_ = KitCore::take(api_->allocate(device_, size, alignment, &ptr_));
  owned_ = outcome_.ok();
  if (!owned_) ptr_ = nullptr;
}

DeviceAllocation::~DeviceAllocation() {
  if (owned_) api_->deallocate(device_, ptr_, size_);
}

DeviceAllocation::DeviceAllocation(DeviceAllocation&& other) noexcept
    : api_(other.api_),
      device_(other.device_),
      size_(other.size_),
      alignment_(other.alignment_),
      ptr_(other.ptr_),
      outcome_(std::move(other.outcome_)),
      owned_(other.owned_) {
  other.owned_ = false;
}

std::string DeviceAllocation::failure() const {
  if (ok()) return {};
  const std::string call = allocate_call(size_, alignment_);
  if (!outcome_.ok()) return call_failed(call, outcome_);
  return returned_null(call, "pointer", "the memory");
}

}  // namespace hxrt_conformance
