// Device memory of the plugin under test: one allocate that deallocates itself, so that a
// check that stops early leaks nothing into the checks after it. The buffer handle is opaque:
// the kit passes it back with byte offsets and never looks inside it.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <string>

#include "device_under_test.hpp"
#include "kit_core.hpp"

namespace hxrt_conformance {

// "allocate(1000 bytes, alignment 256)".
std::string allocate_call(size_t size, size_t alignment);

// One buffer, released with deallocate when it goes out of scope. Work a stream may still do
// on it must be over by then: declare it before the stream (see DeviceStream).
class DeviceAllocation {
 public:
  // At the device's declared alignment, as the core allocates.
  DeviceAllocation(const DeviceUnderTest& device, size_t size);
  DeviceAllocation(const DeviceUnderTest& device, size_t size, size_t alignment);
  ~DeviceAllocation();
  DeviceAllocation(DeviceAllocation&& other) noexcept;
  DeviceAllocation(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(const DeviceAllocation&) = delete;
  DeviceAllocation& operator=(DeviceAllocation&&) = delete;

  // allocate succeeded and gave a buffer.
  bool ok() const { return outcome_.ok() && buffer_ != nullptr; }
  // "" when ok(), else "allocate(1000 bytes, alignment 256) failed: OUT_OF_MEMORY: ...".
  std::string failure() const;
  // What allocate returned.
  const Outcome& outcome() const { return outcome_; }
  hx_buffer* buffer() const { return buffer_; }
  size_t size() const { return size_; }
  size_t alignment() const { return alignment_; }

 private:
  const hx_plugin_api* api_;
  hx_device* device_;
  size_t size_;
  size_t alignment_;
  hx_buffer* buffer_ = nullptr;
  Outcome outcome_;
  bool owned_ = false;  // deallocate is due: allocate succeeded and the object was not moved
};

}  // namespace hxrt_conformance
