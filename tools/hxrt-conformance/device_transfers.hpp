// The plugin's copies and memset on one device, their status taken. Device memory is named as
// (buffer, byte offset). With a stream they may return before the bytes have moved: both sides
// must then outlive the stream's work.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

#include "device_under_test.hpp"
#include "kit_core.hpp"

namespace hxrt_conformance {

// A place in device memory.
struct DevicePlace {
  hx_buffer* buffer = nullptr;
  uint64_t offset = 0;
};

Outcome copy_to_device(const DeviceUnderTest& device, hx_stream* stream, DevicePlace dst,
                       const void* src, size_t size);
Outcome copy_to_host(const DeviceUnderTest& device, hx_stream* stream, void* dst, DevicePlace src,
                     size_t size);
// copy_device_to_device, enqueued on `stream` of the destination device.
Outcome copy_between(const DeviceUnderTest& dst_device, hx_stream* stream, DevicePlace dst,
                     const DeviceUnderTest& src_device, DevicePlace src, size_t size);
Outcome memset_device(const DeviceUnderTest& device, hx_stream* stream, DevicePlace dst,
                      uint8_t value, size_t size);

}  // namespace hxrt_conformance
