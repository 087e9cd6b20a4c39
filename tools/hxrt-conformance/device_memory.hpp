// Device memory of the plugin under test: one allocate that deallocates itself, so that a
// check that stops early leaks nothing into the checks after it.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <string>

#include "device_under_test.hpp"
#include "kit_core.hpp"

namespace hxrt_conformance {

// The alignment the core's allocator asks for (plugin_api.h); the checks allocate with it
// unless they are checking alignment.
constexpr size_t kCoreAlignment = 256;

// "allocate(1000 bytes, alignment 256)".
std::string allocate_call(size_t size, size_t alignment);

// One allocation, released with deallocate when it goes out of scope. Work a stream may still
// do on it must be over by then: declare it before the stream (see DeviceStream).
class DeviceAllocation {
 public:
  DeviceAllocation(const DeviceUnderTest& device, size_t size, size_t alignment = kCoreAlignment);
  ~DeviceAllocation();
  DeviceAllocation(DeviceAllocation&& other) noexcept;
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(DeviceAllocation&&) = delete;

  // allocate succeeded and, unless size is 0, gave a pointer.
  bool ok() const { return outcome_.ok() && (ptr_ != nullptr || size_ == 0); }
  // "" when ok(), else "allocate(1000 bytes, alignment 256) failed: OUT_OF_MEMORY: ...".
  std::string failure() const;
  // What allocate returned.
  const Outcome& outcome() const { return outcome_; }
  unsigned char* ptr() const { return static_cast<unsigned char*>(ptr_); }
  size_t size() const { return size_; }
  size_t alignment() const { return alignment_; }

 private:
  const hx_plugin_api* api_;
  hx_device* device_;
  size_t size_;
  size_t alignment_;
  void* ptr_ = nullptr;
  Outcome outcome_;
  bool owned_ = false;  // deallocate is due: allocate succeeded and the object was not moved
};

}  // namespace hxrt_conformance
